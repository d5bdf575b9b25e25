/**
 * The outbox lag: how long the oldest event still waiting to be published has waited (0 when
 * nothing waits). The outbox sweeper reports it every minute as the OutboxLagSeconds metric
 * (shared/metric-names.ts), which a stage alarm watches. Reads the partial index of unpublished events.
 */
import { withTransaction } from '../db/database';

export async function outboxLagSeconds(): Promise<number> {
  return withTransaction({ role: 'app_worker', readOnly: true }, async (db) => {
    const row = await db.one<{ lag: number | null }>(
      'SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS lag FROM event_outbox WHERE published_at IS NULL',
    );
    return Math.max(0, Math.round(row.lag ?? 0));
  });
}
