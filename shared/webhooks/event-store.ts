/**
 * The events feed: the outbox read back, newest first, by keyset on (created_at, id). The outbox
 * row's payload is the event exactly as it was published, so the feed and a webhook delivery of
 * the same event carry the same body.
 */
import { withTransaction, type Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { ApiError } from '../errors';
import type { Event } from './schemas/event';

export interface EventFilters {
  types?: string[];
  createdGte?: string;
  createdLte?: string;
  objectId?: string;
}

/** How long events stay in the feed; configurable upwards only (EVENT_RETENTION_DAYS). */
const MIN_EVENT_RETENTION_DAYS = 90;

export function eventRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.EVENT_RETENTION_DAYS;
  if (raw === undefined || raw === '') return MIN_EVENT_RETENTION_DAYS;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < MIN_EVENT_RETENTION_DAYS) {
    throw new Error(`EVENT_RETENTION_DAYS must be a whole number of days, at least ${MIN_EVENT_RETENTION_DAYS} (got ${raw})`);
  }
  return days;
}

export async function listEvents(db: Db, entityId: string, filters: EventFilters, page: PageRequest): Promise<Page<Event>> {
  const where = ['e.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.types) {
    params.push(filters.types);
    where.push(`e.type = ANY($${params.length}::text[])`);
  }
  if (filters.createdGte) {
    params.push(filters.createdGte);
    where.push(`e.created_at >= $${params.length}::timestamptz`);
  }
  if (filters.createdLte) {
    params.push(filters.createdLte);
    where.push(`e.created_at <= $${params.length}::timestamptz`);
  }
  if (filters.objectId) {
    params.push(filters.objectId);
    where.push(`(e.payload -> 'data' -> 'object' ->> 'id') = $${params.length}`);
  }
  const rows = await keysetPage<{ id: string; payload: Event }>(db, { table: 'event_outbox', alias: 'e', select: 'e.id, e.payload', where, params }, page);
  return { ...rows, data: rows.data.map((row) => row.payload) };
}

export async function getEvent(db: Db, entityId: string, eventId: string): Promise<Event> {
  const row = await db.maybeOne<{ payload: Event }>('SELECT payload FROM event_outbox WHERE entity_id = $1 AND id = $2', [entityId, eventId]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such event in this entity (events are kept for the retention period).' });
  return row.payload;
}

/**
 * Deletes events older than the retention period, and finished webhook deliveries as old, for
 * every entity (run by the outbox sweeper as app_worker), in batches so one run never holds a long
 * lock. Returns how many events went.
 */
export async function pruneEvents(db: Db, retentionDays: number, batchSize = 1000): Promise<number> {
  // Finished deliveries of the same age go too (their attempts with them); a pending one stays until it ends.
  await db.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1) LIMIT $2 FOR UPDATE SKIP LOCKED
     )`,
    [retentionDays, batchSize],
  );
  const rows = await db.query<{ id: string }>(
    `DELETE FROM event_outbox WHERE id IN (
       SELECT id FROM event_outbox WHERE created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
     ) RETURNING id`,
    [retentionDays, batchSize],
  );
  return rows.length;
}

/** The sweep the schedule runs: one batch of expired events, for every entity. */
export function pruneExpiredEvents(retentionDays = eventRetentionDays(), batchSize?: number): Promise<number> {
  return withTransaction({ role: 'app_worker' }, (db) => pruneEvents(db, retentionDays, batchSize));
}
