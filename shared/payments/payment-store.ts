/** Customer payment rows: their wire shape (with their applications) and reads. */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { toJsonNumber } from '../money';
import type { Payment, PaymentApplication } from './schemas/payment';
import { isoTimestamp } from '../dates';

/** A timestamp column (a Date from pg, or text) as an ISO 8601 string. */

const PAYMENT_COLUMNS = `p.id, 'payment' AS object, p.entity_id, p.account_id, p.amount, p.unapplied_amount, p.payment_method, p.payment_date,
  p.check_number, p.check_date, p.external_reference, p.notes, p.status, p.order_id, p.journal_entry_id, p.deposit_id, p.amount_refunded,
  p.cleared_at, p.voided_at, p.failed_at, p.failure_reason, p.created_by_user_id, p.created_at, p.updated_at`;

type Timestamps = 'created_at' | 'updated_at' | 'cleared_at' | 'voided_at' | 'failed_at';
type PaymentRow = Omit<Payment, 'amount' | 'unapplied_amount' | 'amount_refunded' | 'applications' | 'applied_count' | Timestamps> & {
  amount: string;
  unapplied_amount: string;
  amount_refunded: string;
  created_at: Date | string;
  updated_at: Date | string;
  cleared_at: Date | string | null;
  voided_at: Date | string | null;
  failed_at: Date | string | null;
};

async function applicationsOf(db: Db, entityId: string, paymentIds: string[]): Promise<Map<string, PaymentApplication[]>> {
  const result = new Map<string, PaymentApplication[]>(paymentIds.map((id) => [id, []]));
  if (!paymentIds.length) return result;
  const rows = await db.query<{ id: string; payment_id: string; order_id: string; amount_applied: string }>(
    `SELECT id, payment_id, order_id, amount_applied FROM payment_applications
      WHERE entity_id = $1 AND payment_id = ANY($2::uuid[]) ORDER BY created_at, id`,
    [entityId, paymentIds],
  );
  for (const row of rows) result.get(row.payment_id)!.push({ id: row.id, order_id: row.order_id, amount_applied: toJsonNumber(row.amount_applied) });
  return result;
}

function toPayment(row: PaymentRow, applications: PaymentApplication[]): Payment {
  return {
    ...row,
    amount: toJsonNumber(row.amount),
    unapplied_amount: toJsonNumber(row.unapplied_amount),
    amount_refunded: toJsonNumber(row.amount_refunded),
    applied_count: applications.length,
    applications,
    cleared_at: row.cleared_at === null ? null : isoTimestamp(row.cleared_at),
    voided_at: row.voided_at === null ? null : isoTimestamp(row.voided_at),
    failed_at: row.failed_at === null ? null : isoTimestamp(row.failed_at),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export async function getPayment(db: Db, entityId: string, paymentId: string, param = 'id'): Promise<Payment> {
  const row = await db.maybeOne<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.entity_id = $1 AND p.id = $2`, [entityId, paymentId]);
  if (!row) throw new ApiError('not_found', { param, hint: 'No such payment in this entity.' });
  return toPayment(row, (await applicationsOf(db, entityId, [row.id])).get(row.id)!);
}

/** The payments with these ids (in the order given; unknown ids are left out), one query each for rows and applications. */
export async function loadPayments(db: Db, entityId: string, paymentIds: string[]): Promise<Payment[]> {
  if (!paymentIds.length) return [];
  const rows = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.entity_id = $1 AND p.id = ANY($2::uuid[])`, [
    entityId,
    paymentIds,
  ]);
  const applications = await applicationsOf(
    db,
    entityId,
    rows.map((row) => row.id),
  );
  const byId = new Map(rows.map((row) => [row.id, toPayment(row, applications.get(row.id)!)]));
  return paymentIds.flatMap((id) => byId.get(id) ?? []);
}

export interface PaymentFilters {
  account_id?: string;
  status?: string;
}

export async function listPayments(db: Db, entityId: string, filters: PaymentFilters, page: PageRequest): Promise<Page<Payment>> {
  const params: unknown[] = [entityId];
  const where = ['p.entity_id = $1'];
  if (filters.account_id) {
    params.push(filters.account_id);
    where.push(`p.account_id = $${params.length}`);
  }
  if (filters.status) {
    params.push(filters.status);
    where.push(`p.status = $${params.length}`);
  }
  const rows = await keysetPage<PaymentRow>(db, { table: 'payments', alias: 'p', select: PAYMENT_COLUMNS, where, params }, page);
  const applications = await applicationsOf(
    db,
    entityId,
    rows.data.map((row) => row.id),
  );
  return { ...rows, data: rows.data.map((row) => toPayment(row, applications.get(row.id)!)) };
}
