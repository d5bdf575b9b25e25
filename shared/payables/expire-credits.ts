/**
 * The vendor credit expiry job: forfeits the remaining balance of every open or partially applied
 * credit whose expires_at has passed, sets it expired and posts the forfeiture (debit
 * vendor_credits, credit vendor_returns_receivable). The same pattern as the recurring journal
 * entry runner: finding the entities with due credits crosses entities and runs as app_worker
 * (which reads only entity_id, status and expires_at); each credit is then one transaction as
 * app_user in its entity that claims the row (FOR UPDATE SKIP LOCKED, re-checking it is still
 * due), so two overlapping runs expire each credit once and a failure leaves it for the next run.
 */
import { withTransaction } from '../db/database';
import { createEventRecorder } from '../events/outbox';
import { publishCommitted } from '../events/publisher';
import { ApiError } from '../errors';
import { logger } from '../powertools';
import { entitiesWithExpiringCredits, expireCredit, expiringCreditIds } from './vendor-credits';
import { entityMode } from '../tenants/tenant-reads';

export interface CreditExpiryResult {
  as_of: string;
  expired: { entity_id: string; vendor_credit_id: string; credit_number: string; forfeited_amount: string }[];
  failures: { entity_id: string; vendor_credit_id: string; code: string; message: string }[];
}

export async function runCreditExpiry(asOf: Date, options: { entityIds?: string[] } = {}): Promise<CreditExpiryResult> {
  const result: CreditExpiryResult = { as_of: asOf.toISOString(), expired: [], failures: [] };
  const entityIds = options.entityIds ?? (await withTransaction({ role: 'app_worker', readOnly: true }, (db) => entitiesWithExpiringCredits(db, asOf)));
  for (const entityId of entityIds) {
    const creditIds = await withTransaction({ role: 'app_user', entityId, readOnly: true }, (db) => expiringCreditIds(db, entityId, asOf));
    for (const creditId of creditIds) {
      try {
        const outcome = await withTransaction({ role: 'app_user', entityId }, async (db) => {
          const events = createEventRecorder(db, { entityId, mode: await entityMode(db, entityId), requestId: null });
          const credit = await expireCredit(db, { entityId, userId: null, keyId: null, events }, creditId, asOf);
          return credit && { credit, events: events.recorded };
        });
        if (!outcome) continue;
        await publishCommitted(entityId, outcome.events);
        result.expired.push({
          entity_id: entityId,
          vendor_credit_id: creditId,
          credit_number: outcome.credit.credit_number,
          forfeited_amount: outcome.credit.forfeited_amount,
        });
      } catch (error) {
        const failure =
          error instanceof ApiError
            ? { code: error.code, message: error.message }
            : { code: 'internal_error', message: 'The credit could not be expired; the next run retries it.' };
        if (failure.code === 'internal_error') logger.error('vendor credit expiry failed', { creditId, error });
        result.failures.push({ entity_id: entityId, vendor_credit_id: creditId, ...failure });
      }
    }
  }
  return result;
}
