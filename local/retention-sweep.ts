/**
 * The events feed's retention sweep for the local server: on AWS the outbox sweeper deletes a
 * batch of expired events every minute (functions/platform/sweep-outbox.ts); here a timer does the
 * same, once at start-up and then every EVENT_RETENTION_SWEEP_MS (default 10 minutes), deleting
 * batches until none is full. Events older than EVENT_RETENTION_DAYS (at least 90) go, with the
 * finished webhook deliveries of the same age.
 */
import { logger } from '../shared/powertools';
import { eventRetentionDays, pruneExpiredEvents } from '../shared/webhooks/event-store';

const BATCH_SIZE = 1000;

export interface RetentionSweeper {
  /** One full sweep now (what the timer runs); resolves with the events deleted. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export function startRetentionSweeper(options: { intervalMs?: number; retentionDays?: number } = {}): RetentionSweeper {
  const intervalMs = options.intervalMs ?? Number(process.env.EVENT_RETENTION_SWEEP_MS ?? 600_000);
  if (!(intervalMs > 0)) throw new Error(`EVENT_RETENTION_SWEEP_MS must be a positive number (got ${process.env.EVENT_RETENTION_SWEEP_MS})`);
  // Read once, so a bad setting stops the server at start-up rather than failing every sweep.
  const retentionDays = options.retentionDays ?? eventRetentionDays();
  let running: Promise<number> | undefined;

  const sweep = (): Promise<number> => {
    running ??= (async () => {
      let total = 0;
      for (;;) {
        const pruned = await pruneExpiredEvents(retentionDays, BATCH_SIZE);
        total += pruned;
        if (pruned < BATCH_SIZE) return total;
      }
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  const tick = () => {
    sweep()
      .then((pruned) => {
        if (pruned > 0) logger.info('expired events deleted', { pruned, retentionDays });
      })
      .catch((error: unknown) => logger.warn('event retention sweep failed', { error }));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();

  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
