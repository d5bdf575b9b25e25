/**
 * Bank deposits (E3, E4) and their reads: SQL only. A deposit groups cleared, undeposited receipts
 * and posts debit the bank account, credit undeposited_funds per receipt. A receipt goes in net of
 * the refunds already paid out of undeposited funds; a pending ACH payment (not cleared), a voided
 * or failed one and a fully refunded one are refused, each with its own code. Receipts are locked
 * in id order, so a deposit and a void (or another deposit) of the same payment never both win.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { entityFilters } from '../db/sql';
import { newId } from '../ids';
import { postJournalEntry } from '../ledger/post-journal-entry';
import { bankGlAccountId } from '../ledger/ledger-reads';
import { amount, sum, toJsonNumber } from '../money';
import type { Deposit, DepositCreate } from './schemas/payment';
import { isoTimestamp } from '../dates';
import type { PaymentActor } from './payment-context';

interface ReceiptRow {
  id: string;
  amount: string;
  amount_refunded: string;
  /** amount − amount_refunded: what undeposited funds still holds of this receipt. */
  net: string;
  status: string;
  payment_date: string;
  deposit_id: string | null;
}

/** The receipts, locked in id order; each must be this entity's, cleared, not voided, not yet deposited and not fully refunded. */
async function lockReceipts(db: Db, entityId: string, paymentIds: string[], lock: boolean): Promise<ReceiptRow[]> {
  paymentIds.forEach((id, index) => {
    if (paymentIds.findIndex((other) => other.toLowerCase() === id.toLowerCase()) !== index) {
      throw new ApiError('parameter_invalid', { param: `payment_ids[${index}]`, hint: 'Each payment may appear once.' });
    }
  });
  const rows = await db.query<ReceiptRow>(
    `SELECT id, amount, amount_refunded, amount - amount_refunded AS net, status, payment_date, deposit_id
       FROM payments WHERE entity_id = $1 AND id = ANY($2::uuid[]) ORDER BY id ${lock ? 'FOR UPDATE' : ''}`,
    [entityId, paymentIds],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return paymentIds.map((id, index) => {
    const param = `payment_ids[${index}]`;
    const row = byId.get(id.toLowerCase());
    if (!row) throw new ApiError('not_found', { param, hint: 'No such payment in this entity.' });
    if (row.deposit_id) throw new ApiError('payment_already_deposited', { param, details: { deposit_id: row.deposit_id } });
    if (row.status === 'pending') {
      throw new ApiError('payment_pending_clearance', {
        param,
        hint: 'This ACH payment has not cleared: undeposited funds does not hold it yet. Clear it first (POST /v1/payments/{payment_id}/clear).',
        details: { current_status: row.status },
      });
    }
    if (row.status !== 'undeposited') throw new ApiError('payment_voided', { param, details: { current_status: row.status } });
    if (!amount(row.net).gt(0)) {
      throw new ApiError('payment_refunded', {
        param,
        hint: 'This payment was refunded in full: nothing of it is left to deposit.',
        details: { amount_refunded: toJsonNumber(row.amount_refunded) },
      });
    }
    return row;
  });
}

/** E3: what a deposit of these receipts would total; nothing is written. */
export async function previewDeposit(db: Db, entityId: string, paymentIds: string[]): Promise<{ total_amount: number; line_count: number }> {
  const receipts = await lockReceipts(db, entityId, paymentIds, false);
  return { total_amount: toJsonNumber(sum(receipts.map((r) => r.net))), line_count: receipts.length };
}

const DEPOSIT_COLUMNS = `d.id, 'deposit' AS object, d.entity_id, d.status, d.total_amount, d.line_count, d.bank_account_id, d.gl_account_id, d.deposit_date,
  d.memo, d.journal_entry_id, d.created_at, d.updated_at`;

type DepositRow = Omit<Deposit, 'total_amount' | 'created_at' | 'updated_at' | 'payment_ids' | 'lines'> & {
  total_amount: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** The lines of these deposits, one query, in deposit order. */
async function linesOf(db: Db, entityId: string, depositIds: string[]): Promise<Map<string, Deposit['lines']>> {
  const result = new Map<string, Deposit['lines']>(depositIds.map((id) => [id, []]));
  if (!depositIds.length) return result;
  const rows = await db.query<{ id: string; deposit_id: string; payment_id: string; amount: string }>(
    `SELECT id, deposit_id, payment_id, amount FROM deposit_lines WHERE entity_id = $1 AND deposit_id = ANY($2::uuid[]) ORDER BY created_at, id`,
    [entityId, depositIds],
  );
  for (const row of rows) result.get(row.deposit_id)!.push({ id: row.id, payment_id: row.payment_id, amount: toJsonNumber(row.amount) });
  return result;
}

const toDeposit = (row: DepositRow, lines: Deposit['lines']): Deposit => ({
  ...row,
  total_amount: toJsonNumber(row.total_amount),
  payment_ids: lines.map((line) => line.payment_id),
  lines,
  created_at: isoTimestamp(row.created_at),
  updated_at: isoTimestamp(row.updated_at),
});

export async function getDeposit(db: Db, entityId: string, depositId: string, param = 'id'): Promise<Deposit> {
  const row = await db.maybeOne<DepositRow>(`SELECT ${DEPOSIT_COLUMNS} FROM deposits d WHERE d.entity_id = $1 AND d.id = $2`, [entityId, depositId]);
  if (!row) throw new ApiError('not_found', { param, hint: 'No such deposit in this entity.' });
  return toDeposit(row, (await linesOf(db, entityId, [row.id])).get(row.id)!);
}

export interface DepositFilters {
  bank_account_id?: string;
  deposit_date_gte?: string;
  deposit_date_lte?: string;
}

/** Newest first (keyset on created_at, id); filters on the bank account and a deposit_date range. */
export async function listDeposits(db: Db, entityId: string, filters: DepositFilters, page: PageRequest): Promise<Page<Deposit>> {
  const { where, params, add } = entityFilters('d', entityId);
  add((n) => `d.bank_account_id = ${n}`, filters.bank_account_id);
  add((n) => `d.deposit_date >= ${n}`, filters.deposit_date_gte);
  add((n) => `d.deposit_date <= ${n}`, filters.deposit_date_lte);
  const rows = await keysetPage<DepositRow>(db, { table: 'deposits', alias: 'd', select: DEPOSIT_COLUMNS, where, params }, page);
  const lines = await linesOf(
    db,
    entityId,
    rows.data.map((row) => row.id),
  );
  return { ...rows, data: rows.data.map((row) => toDeposit(row, lines.get(row.id)!)) };
}

/** E4: groups undeposited receipts into one deposit; debit the bank account, credit undeposited funds per receipt. */
export async function createDeposit(db: Db, actor: PaymentActor, input: DepositCreate): Promise<Deposit> {
  const { entityId } = actor;
  const bankGlId = await bankGlAccountId(db, entityId, input.bank_account_id);
  const receipts = await lockReceipts(db, entityId, input.payment_ids, true);
  receipts.forEach((receipt, index) => {
    if (receipt.payment_date > input.deposit_date) {
      throw new ApiError('parameter_invalid', {
        param: 'deposit_date',
        hint: `A deposit cannot be dated before a receipt it holds (payment_ids[${index}] was received ${receipt.payment_date}).`,
      });
    }
  });
  const id = newId();
  const total = sum(receipts.map((r) => r.net));
  const entry = await postJournalEntry(
    db,
    actor,
    {
      entry_date: input.deposit_date,
      memo: input.memo ?? 'Bank deposit',
      source_type: 'deposit',
      source_id: id,
      lines: [
        { account_id: bankGlId, debit: total.toString(), memo: 'Bank deposit' },
        ...receipts.map((receipt) => ({ system_key: 'undeposited_funds' as const, credit: receipt.net, memo: `Payment ${receipt.id}` })),
      ],
    },
    { dateParam: 'deposit_date' },
  );
  await db.query(
    `INSERT INTO deposits (id, entity_id, bank_account_id, gl_account_id, deposit_date, memo, total_amount, line_count, journal_entry_id, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [id, entityId, input.bank_account_id, bankGlId, input.deposit_date, input.memo ?? null, total.toString(), receipts.length, entry.id, actor.userId],
  );
  await db.query(
    `INSERT INTO deposit_lines (id, entity_id, deposit_id, payment_id, amount)
     SELECT v.id, $1, $2, v.payment_id, v.amount FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) WITH ORDINALITY AS v(id, payment_id, amount, n) ORDER BY v.n`,
    [entityId, id, receipts.map(() => newId()), receipts.map((r) => r.id), receipts.map((r) => r.net)],
  );
  await db.query(`UPDATE payments SET status = 'deposited', deposit_id = $3, updated_at = now() WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [
    entityId,
    receipts.map((r) => r.id),
    id,
  ]);
  return getDeposit(db, entityId, id);
}
