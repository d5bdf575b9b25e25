/**
 * The outbox sweeper, run every minute by an EventBridge schedule.
 *
 * Requests publish their events right after commit; this picks up whatever a crashed or timed-out
 * request left unpublished. It keeps sweeping full batches while there is time left, so a backlog
 * drains in one run instead of 100 rows a minute. It also deletes a batch of events past the
 * retention period (EVENT_RETENTION_DAYS, at least 90), so the events feed stays bounded.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { sweepOutbox } from '../../shared/events/publisher';
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
  const pruned = await pruneExpiredEvents();
  if (published > 0 || pruned > 0) console.log(JSON.stringify({ level: 'INFO', message: 'outbox swept', published, pruned }));
  return { published, pruned };
}
