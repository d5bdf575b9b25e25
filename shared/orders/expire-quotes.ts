/**
 * The quote expiry job: announces each quote's lapse once. A draft or confirmed quote whose
 * expires_at has passed is expired from that instant by the read-time rule (is_expired; confirm and
 * convert answer 422 quote_expired), with no job to wait for; this job adds the event. It marks
 * every such quote not yet marked (expired_at, set once) and records order.expired with the quote
 * as it reads. A quote already converted to a live sales order was accepted, so its lapse is no
 * news and it is left alone. Moving expires_at (PATCH) clears the mark, so a revived quote that
 * lapses again is announced again.
 *
 * The same pattern as the vendor credit expiry job (shared/payables/expire-credits.ts): finding the
 * entities with lapsed quotes crosses entities and runs as app_worker (which reads only the columns
 * the condition needs); each quote is then one transaction as app_user in its entity, in that
 * entity's mode, that claims the row (FOR UPDATE SKIP LOCKED, re-checking it is still due), so two
 * overlapping runs announce each lapse once and a failure leaves it for the next run.
 */
import { withTransaction, type Db } from '../db/database';
import { ApiError } from '../errors';
import { createEventRecorder, type EventRecorder } from '../events/outbox';
import { publishCommitted } from '../events/publisher';
import { logger } from '../powertools';
import { getOrderHeader } from './order-reads';
import { entityMode } from '../tenants/tenant-reads';
import { expiredQuoteSql } from './quote-expiry';

/**
 * An unmarked quote whose deadline has passed, both as of the run and by the clock: a run with a
 * later as_of never announces a lapse the read-time rule does not show yet.
 */
function lapsed(asOfParam: number): string {
  return `${expiredQuoteSql(undefined, `least($${asOfParam}::timestamptz, now())`)} AND expired_at IS NULL AND deleted_at IS NULL`;
}

/** ... and not converted to a live sales order (app_user only: app_worker cannot read converted_from_id). */
const NOT_CONVERTED = `NOT EXISTS (SELECT 1 FROM orders s WHERE s.entity_id = o.entity_id AND s.converted_from_id = o.id
  AND s.order_status NOT IN ('cancelled', 'voided') AND s.deleted_at IS NULL)`;

/** For the expiry job (app_worker): the entities holding lapsed quotes not yet announced. */
async function entitiesWithLapsedQuotes(db: Db, asOf: Date): Promise<string[]> {
  const rows = await db.query<{ entity_id: string }>(`SELECT DISTINCT entity_id FROM orders WHERE ${lapsed(1)} ORDER BY entity_id`, [asOf.toISOString()]);
  return rows.map((row) => row.entity_id);
}

async function lapsedQuoteIds(db: Db, entityId: string, asOf: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT o.id FROM orders o WHERE o.entity_id = $1 AND ${lapsed(2)} AND ${NOT_CONVERTED} ORDER BY o.expires_at, o.id`,
    [entityId, asOf.toISOString()],
  );
  return rows.map((row) => row.id);
}

/** Marks one lapsed quote and records order.expired; undefined when it is no longer due (another run had it, or it moved). */
async function expireQuote(
  db: Db,
  ctx: { entityId: string; events: EventRecorder },
  quoteId: string,
  asOf: Date,
): Promise<{ order_number: string; expires_at: string } | undefined> {
  const claimed = await db.maybeOne<{ id: string }>(
    `SELECT o.id FROM orders o WHERE o.entity_id = $1 AND o.id = $2 AND ${lapsed(3)} AND ${NOT_CONVERTED} FOR UPDATE OF o SKIP LOCKED`,
    [ctx.entityId, quoteId, asOf.toISOString()],
  );
  if (!claimed) return undefined;
  // A mark the API never shows: updated_at stays, as no attribute of the quote changed.
  await db.query('UPDATE orders SET expired_at = now() WHERE entity_id = $1 AND id = $2', [ctx.entityId, quoteId]);
  const quote = await getOrderHeader(db, ctx.entityId, quoteId);
  await ctx.events.record('order.expired', quote);
  return { order_number: quote.order_number, expires_at: quote.expires_at! };
}

export interface QuoteExpiryResult {
  as_of: string;
  expired: { entity_id: string; order_id: string; order_number: string; expires_at: string }[];
  failures: { entity_id: string; order_id: string; code: string; message: string }[];
}

export async function runQuoteExpiry(asOf: Date, options: { entityIds?: string[] } = {}): Promise<QuoteExpiryResult> {
  const result: QuoteExpiryResult = { as_of: asOf.toISOString(), expired: [], failures: [] };
  const entityIds = options.entityIds ?? (await withTransaction({ role: 'app_worker', readOnly: true }, (db) => entitiesWithLapsedQuotes(db, asOf)));
  for (const entityId of entityIds) {
    const quoteIds = await withTransaction({ role: 'app_user', entityId, readOnly: true }, (db) => lapsedQuoteIds(db, entityId, asOf));
    for (const quoteId of quoteIds) {
      try {
        const outcome = await withTransaction({ role: 'app_user', entityId }, async (db) => {
          const events = createEventRecorder(db, { entityId, mode: await entityMode(db, entityId), requestId: null });
          const quote = await expireQuote(db, { entityId, events }, quoteId, asOf);
          return quote && { quote, events: events.recorded };
        });
        if (!outcome) continue;
        await publishCommitted(entityId, outcome.events);
        result.expired.push({ entity_id: entityId, order_id: quoteId, ...outcome.quote });
      } catch (error) {
        const failure =
          error instanceof ApiError
            ? { code: error.code, message: error.message }
            : { code: 'internal_error', message: 'The quote could not be marked expired; the next run retries it.' };
        if (failure.code === 'internal_error') logger.error('quote expiry failed', { quoteId, error });
        result.failures.push({ entity_id: entityId, order_id: quoteId, ...failure });
      }
    }
  }
  return result;
}
