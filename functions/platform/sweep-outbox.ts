/**
 * The outbox sweeper, run every minute by an EventBridge schedule.
 *
 * Requests publish their events right after commit; this picks up whatever a crashed or timed-out
 * request left unpublished. It keeps sweeping full batches while there is time left, so a backlog
 * drains in one run instead of 100 rows a minute. It also deletes a batch of events past the
 * retention period (EVENT_RETENTION_DAYS, at least 90), so the events feed stays bounded.
 *
 * Every run reports the outbox lag (the age of the oldest event still unpublished, 0 when none)
 * and how many events it published as metrics; a stage alarm fires when the lag grows or the
 * reports stop.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { outboxLagSeconds } from '../../shared/events/outbox-lag';
import { sweepOutbox } from '../../shared/events/publisher';
import { METRIC_NAMES } from '../../shared/metric-names';
import { logger, MetricUnit, publishMetrics } from '../../shared/powertools';
import { pruneExpiredEvents } from '../../shared/webhooks/event-store';

const BATCH_SIZE = 100;
/** Stop starting new batches this close to the timeout: a batch must finish, not be cut off mid-publish. */
const STOP_BEFORE_TIMEOUT_MS = 15_000;

export async function handler(_event: ScheduledEvent, context: Context): Promise<{ published: number; pruned: number }> {
  let published = 0;
  for (;;) {
    const count = await sweepOutbox({ batchSize: BATCH_SIZE });
    published += count;
    if (count < BATCH_SIZE || context.getRemainingTimeInMillis() < STOP_BEFORE_TIMEOUT_MS) break;
  }
  const lag = await outboxLagSeconds();
  publishMetrics([
    { name: METRIC_NAMES.outboxLag, unit: MetricUnit.Seconds, value: lag },
    { name: METRIC_NAMES.outboxPublished, unit: MetricUnit.Count, value: published },
  ]);
  const pruned = await pruneExpiredEvents();
  if (published > 0 || pruned > 0) logger.info('outbox swept', { published, pruned });
  return { published, pruned };
}
