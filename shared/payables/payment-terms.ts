/**
 * SQL for payment terms (the net days a vendor bill's due_date is computed from). A bill copies
 * the due date when it is computed, so changing terms never moves an existing bill's due_date;
 * terms a bill names are not deleted (409 payment_term_in_use).
 */
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { updateSet } from '../db/sql';
import { isoTimestamp } from '../dates';
import { ApiError } from '../errors';
import { previousAttributes } from '../events/outbox';
import { newId } from '../ids';
import type { PaymentTerm, PaymentTermCreate, PaymentTermUpdate } from './schemas/payment-term';

const COLUMNS = `t.id, 'payment_term' AS object, t.entity_id, t.name, t.net_days, t.created_at, t.updated_at`;
const EDITABLE = ['name', 'net_days'] as const;

// livemode is stamped by the handler stack on every response object.
type WireTerm = Omit<PaymentTerm, 'livemode'>;
type TermRow = Omit<WireTerm, 'created_at' | 'updated_at'> & { created_at: Date | string; updated_at: Date | string };

const toTerm = (row: TermRow): WireTerm => ({ ...row, created_at: isoTimestamp(row.created_at), updated_at: isoTimestamp(row.updated_at) });

export async function getPaymentTerm(db: Db, entityId: string, termId: string, options: { lock?: boolean } = {}): Promise<WireTerm> {
  const row = await db.maybeOne<TermRow>(`SELECT ${COLUMNS} FROM payment_terms t WHERE t.entity_id = $1 AND t.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    termId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such payment terms in this entity.' });
  return toTerm(row);
}

export async function createPaymentTerm(db: Db, entityId: string, input: PaymentTermCreate): Promise<WireTerm> {
  const id = newId();
  await db.query('INSERT INTO payment_terms (id, entity_id, name, net_days) VALUES ($1, $2, $3, $4)', [id, entityId, input.name, input.net_days]);
  return getPaymentTerm(db, entityId, id);
}

export async function updatePaymentTerm(
  db: Db,
  entityId: string,
  termId: string,
  patch: PaymentTermUpdate,
): Promise<{ term: WireTerm; previous: Partial<WireTerm> }> {
  const before = await getPaymentTerm(db, entityId, termId, { lock: true });
  const params: unknown[] = [entityId, termId];
  const set = updateSet(patch, EDITABLE, params);
  if (!set) return { term: before, previous: {} };
  await db.query(`UPDATE payment_terms ${set} WHERE entity_id = $1 AND id = $2`, params);
  const term = await getPaymentTerm(db, entityId, termId);
  return { term, previous: previousAttributes(before, term) };
}

/** Permanent; terms any vendor bill names (voided ones too: their record keeps them) are 409 payment_term_in_use. */
export async function deletePaymentTerm(db: Db, entityId: string, termId: string): Promise<WireTerm> {
  // The row lock holds off a bill naming these terms until the delete commits (its foreign key check waits on it).
  const term = await getPaymentTerm(db, entityId, termId, { lock: true });
  const { bills } = await db.one<{ bills: number }>('SELECT count(*)::int AS bills FROM vendor_bills WHERE entity_id = $1 AND payment_term_id = $2', [
    entityId,
    termId,
  ]);
  if (bills > 0) {
    throw new ApiError('payment_term_in_use', {
      param: 'id',
      hint: `${bills} vendor bill(s) name these payment terms; they stay for those bills' record.`,
      details: { references: { vendor_bills: bills } },
    });
  }
  await db.query('DELETE FROM payment_terms WHERE entity_id = $1 AND id = $2', [entityId, termId]);
  return term;
}

export async function listPaymentTerms(db: Db, entityId: string, page: PageRequest): Promise<Page<WireTerm>> {
  const result = await keysetPage<TermRow>(db, { table: 'payment_terms', alias: 't', select: COLUMNS, where: ['t.entity_id = $1'], params: [entityId] }, page);
  return { ...result, data: result.data.map(toTerm) };
}
