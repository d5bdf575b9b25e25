/**
 * Refunds and voids of customer payments: SQL only, the split rules in refund-split.ts, the model
 * in docs/decisions.md.
 *
 *   refund  money goes back to the customer from where the payment sits (undeposited funds, or the
 *           bank account of its deposit). Customer credit given back (unapplied amount; a sales
 *           order's prepayment; an invoice's overpayment) debits accounts receivable and lowers
 *           the document's amount_paid; the rest, on an invoice, is an allowance that reduces the
 *           sale (debit sales revenue and, pro rata, sales tax payable) and leaves amount_paid and
 *           balance_due alone. Either way the invoices' balance_due still sums to the AR control.
 *   void    undoes a payment that never reached the bank: its receipt entry is reversed and every
 *           document it paid gets the amount back into balance_due. Deposited → refund instead.
 *
 * The payment row is locked first (FOR UPDATE), then its documents in id order, so two refunds of
 * one payment queue and never give back more than it holds, and a void and a deposit never both win.
 */
import type { Db } from '../db/database';
import { refundableAmount, splitRefund } from './refund-split';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { postJournalEntry, reverseJournalEntry, type PostingLine } from '../ledger/post-journal-entry';
import { postedEntriesOfSource, systemAccountId } from '../ledger/ledger-reads';
import { amount, type Amount, MONEY_SCALE, round, sum, toJsonNumber, ZERO } from '../money';
import type { Refund, RefundCreate } from './schemas/refund';
import { lockPayableDocuments, type PayableDocument } from '../orders/document-money';
import { settlePaidDocuments } from './document-payments';
import { getPayment } from './payment-store';
import { assertPaymentUsable, type PaymentActor, type PaymentResult } from './payment-context';
import { todayUtc } from '../dates';
import { isoTimestamp } from '../dates';

export interface LockedPayment {
  id: string;
  amount: string;
  unapplied_amount: string;
  amount_refunded: string;
  status: string;
  payment_date: string;
  deposit_id: string | null;
  journal_entry_id: string | null;
}

export interface LockedApplication {
  id: string;
  order_id: string;
  amount_applied: string;
  amount_refunded: string;
}

/** The payment, locked FOR UPDATE; another entity's (or no) payment is 404 on payment_id. */
export async function lockPayment(db: Db, entityId: string, paymentId: string): Promise<LockedPayment> {
  const row = await db.maybeOne<LockedPayment>(
    `SELECT id, amount, unapplied_amount, amount_refunded, status, payment_date::text AS payment_date, deposit_id, journal_entry_id
       FROM payments WHERE entity_id = $1 AND id = $2 FOR UPDATE`,
    [entityId, paymentId],
  );
  if (!row) throw new ApiError('not_found', { param: 'payment_id', hint: 'No such payment in this entity.' });
  return row;
}

/** The payment's applications (newest first) and their documents, locked in id order. */
export async function lockApplicationsOf(db: Db, entityId: string, paymentId: string): Promise<{ application: LockedApplication; order: PayableDocument }[]> {
  const applications = await db.query<LockedApplication>(
    `SELECT id, order_id, amount_applied, amount_refunded FROM payment_applications WHERE entity_id = $1 AND payment_id = $2 ORDER BY created_at DESC, id DESC`,
    [entityId, paymentId],
  );
  if (!applications.length) return [];
  const orders = await lockPayableDocuments(db, entityId, 'id = ANY($2::uuid[])', [applications.map((a) => a.order_id)]);
  const byId = new Map(orders.map((order) => [order.id, order]));
  return applications.map((application) => ({ application, order: byId.get(application.order_id)! }));
}

// ---------------------------------------------------------------------------------------------
// Refunds

interface RefundRow {
  id: string;
  entity_id: string;
  payment_id: string;
  amount: string;
  reason: string | null;
  refund_date: string;
  cash_gl_account_id: string;
  journal_entry_id: string;
  created_by_user_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

async function getRefund(db: Db, entityId: string, refundId: string): Promise<Refund> {
  const row = await db.maybeOne<RefundRow>(
    `SELECT id, entity_id, payment_id, amount, reason, refund_date::text AS refund_date, cash_gl_account_id, journal_entry_id, created_by_user_id,
       created_at, updated_at FROM refunds WHERE entity_id = $1 AND id = $2`,
    [entityId, refundId],
  );
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such refund in this entity.' });
  const lines = await db.query<{ id: string; order_id: string | null; credit_amount: string; allowance_amount: string }>(
    `SELECT id, order_id, credit_amount, allowance_amount FROM refund_lines WHERE entity_id = $1 AND refund_id = $2 ORDER BY created_at, id`,
    [entityId, refundId],
  );
  return {
    ...row,
    object: 'refund',
    amount: toJsonNumber(row.amount),
    lines: lines.map((line) => ({
      id: line.id,
      order_id: line.order_id,
      credit_amount: toJsonNumber(line.credit_amount),
      allowance_amount: toJsonNumber(line.allowance_amount),
    })),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

/** Where the payment's money is now: the bank GL account of its deposit, else undeposited funds. */
async function cashAccountOf(db: Db, entityId: string, payment: LockedPayment): Promise<{ id: string; available_from: string }> {
  if (payment.deposit_id) {
    return db.one<{ id: string; available_from: string }>(
      'SELECT gl_account_id AS id, deposit_date::text AS available_from FROM deposits WHERE entity_id = $1 AND id = $2',
      [entityId, payment.deposit_id],
    );
  }
  return { id: await systemAccountId(db, entityId, 'undeposited_funds'), available_from: payment.payment_date };
}

export interface RefundResult extends PaymentResult {
  refund: Refund;
}

/** POST /v1/payments/{payment_id}/refunds: a full (amount omitted) or partial refund of a payment. */
export async function createRefund(db: Db, actor: PaymentActor, paymentId: string, input: RefundCreate): Promise<RefundResult> {
  const { entityId } = actor;
  const payment = await lockPayment(db, entityId, paymentId);
  assertPaymentUsable(payment.status, 'payment_id');
  const refundable = amount(payment.amount).minus(payment.amount_refunded);
  const value = input.amount === undefined ? refundable : amount(input.amount);
  if (!refundable.gt(0) || value.gt(refundable)) {
    throw new ApiError('refund_exceeds_refundable', {
      param: 'amount',
      hint: refundable.gt(0) ? `This payment can refund at most ${refundable.toString()} more.` : 'This payment has been refunded in full.',
      details: { refundable_amount: toJsonNumber(refundable), amount_refunded: toJsonNumber(payment.amount_refunded) },
    });
  }
  const cash = await cashAccountOf(db, entityId, payment);
  const refundDate = input.refund_date ?? todayUtc();
  if (refundDate < cash.available_from) {
    throw new ApiError('parameter_invalid', {
      param: 'refund_date',
      hint: `A refund cannot be dated before the money it returns was ${payment.deposit_id ? 'deposited' : 'received'} (${cash.available_from}).`,
    });
  }
  const locked = await lockApplicationsOf(db, entityId, payment.id);
  const split = splitRefund(
    value,
    payment.unapplied_amount,
    locked.map(({ application, order }) => ({
      target: { application, order },
      document_type: order.document_type,
      order_total: order.order_total,
      amount_paid: order.amount_paid,
      amount_credited: order.amount_credited,
      tax_total: order.tax_total,
      remaining: amount(application.amount_applied).minus(application.amount_refunded),
    })),
  );
  // Never more than the payment holds: the applications and the unapplied amount make up its refundable amount.
  const placeable = refundableAmount(
    payment.unapplied_amount,
    locked.map(({ application }) => ({ remaining: amount(application.amount_applied).minus(application.amount_refunded) })),
  );
  if (split.remainder.gt(0) || placeable.lt(value)) throw new Error(`refund of payment ${payment.id} does not fit its applications`);

  const id = newId();
  // Credit given back: from customer deposits (unapplied money, sales-order prepayments), or from
  // AR where an invoice was overpaid.
  const invoiceCredit = sum(split.pieces.filter((p) => p.target.order.document_type === 'invoice').map((p) => p.credit));
  const depositCredit = split.unapplied.plus(sum(split.pieces.filter((p) => p.target.order.document_type !== 'invoice').map((p) => p.credit)));
  const tax = sum(split.pieces.map((p) => p.allowance_tax));
  const revenue = sum(split.pieces.map((p) => p.allowance)).minus(tax);
  const candidates: PostingLine[] = [
    { system_key: 'customer_credits', debit: depositCredit.toString(), memo: 'Customer deposit refunded' },
    { system_key: 'accounts_receivable', debit: invoiceCredit.toString(), memo: 'Customer credit refunded' },
    { system_key: 'sales_revenue', debit: revenue.toString(), memo: 'Sale reduced by refund' },
    { system_key: 'sales_tax_payable', debit: tax.toString(), memo: 'Sales tax of the refunded sale' },
    { account_id: cash.id, credit: round(value, MONEY_SCALE).toString(), memo: `Refund of payment ${payment.id}` },
  ];
  const lines = candidates.filter((line) => !amount(line.debit ?? line.credit ?? 0).isZero());
  const entry = await postJournalEntry(
    db,
    actor,
    { entry_date: refundDate, memo: input.reason ? `Refund: ${input.reason}` : 'Customer refund', source_type: 'refund', source_id: id, lines },
    { dateParam: 'refund_date' },
  );
  await db.query(
    `INSERT INTO refunds (id, entity_id, payment_id, amount, reason, refund_date, cash_gl_account_id, journal_entry_id, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, entityId, payment.id, value.toString(), input.reason ?? null, refundDate, cash.id, entry.id, actor.userId],
  );
  const refundLines: { order_id: string | null; credit: Amount; allowance: Amount }[] = [
    ...(split.unapplied.gt(0) ? [{ order_id: null, credit: split.unapplied, allowance: ZERO }] : []),
    ...split.pieces.map((piece) => ({ order_id: piece.target.order.id, credit: piece.credit, allowance: piece.allowance })),
  ];
  await db.query(
    `INSERT INTO refund_lines (id, entity_id, refund_id, order_id, credit_amount, allowance_amount)
     SELECT v.id, $1, $2, v.order_id, v.credit, v.allowance
       FROM unnest($3::uuid[], $4::uuid[], $5::numeric[], $6::numeric[]) WITH ORDINALITY AS v(id, order_id, credit, allowance, n) ORDER BY v.n`,
    [
      entityId,
      id,
      refundLines.map(() => newId()),
      refundLines.map((line) => line.order_id),
      refundLines.map((line) => line.credit.toString()),
      refundLines.map((line) => line.allowance.toString()),
    ],
  );
  for (const piece of split.pieces) {
    const taken = piece.credit.plus(piece.allowance);
    await db.query('UPDATE payment_applications SET amount_refunded = amount_refunded + $3, updated_at = now() WHERE entity_id = $1 AND id = $2', [
      entityId,
      piece.target.application.id,
      taken.toString(),
    ]);
  }
  await db.query(
    `UPDATE payments SET amount_refunded = amount_refunded + $3, unapplied_amount = unapplied_amount - $4, updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [entityId, payment.id, value.toString(), split.unapplied.toString()],
  );
  await settlePaidDocuments(
    db,
    entityId,
    split.pieces.map((piece) => piece.target.order.id),
  );
  return { refund: await getRefund(db, entityId, id), payment: await getPayment(db, entityId, payment.id, 'payment_id') };
}

// ---------------------------------------------------------------------------------------------
// Void

/** POST /v1/payments/{payment_id}/void: reverses a payment that has not been deposited or refunded. */
export async function voidPayment(db: Db, actor: PaymentActor, paymentId: string): Promise<PaymentResult> {
  const { entityId } = actor;
  const payment = await lockPayment(db, entityId, paymentId);
  if (payment.status === 'pending') {
    throw new ApiError('payment_pending_clearance', {
      param: 'payment_id',
      hint: 'This ACH payment has not cleared: record its failure with POST /v1/payments/{payment_id}/fail instead of voiding it.',
      details: { current_status: payment.status },
    });
  }
  if (payment.status === 'voided' || payment.status === 'failed') {
    throw new ApiError('payment_voided', { param: 'payment_id', details: { current_status: payment.status } });
  }
  if (payment.deposit_id) {
    throw new ApiError('payment_deposited', { param: 'payment_id', details: { current_status: payment.status, deposit_id: payment.deposit_id } });
  }
  if (amount(payment.amount_refunded).gt(0)) {
    throw new ApiError('payment_refunded', {
      param: 'payment_id',
      hint: 'This payment has refunds; refund the rest (POST /v1/payments/{payment_id}/refunds) instead of voiding it.',
      details: { amount_refunded: toJsonNumber(payment.amount_refunded) },
    });
  }
  const locked = await lockApplicationsOf(db, entityId, payment.id);
  // Reverse the receipt and every E8 application entry since (customer deposits → AR), so the
  // GL is back where it was before the payment.
  const { reversal } = await reverseJournalEntry(db, actor, payment.journal_entry_id!, { memo: `Void of payment ${payment.id}` });
  for (const entryId of await postedEntriesOfSource(db, entityId, 'payment_application', payment.id)) {
    await reverseJournalEntry(db, actor, entryId, { memo: `Void of payment ${payment.id}` });
  }
  await db.query(
    `UPDATE payments SET status = 'voided', voided_at = now(), unapplied_amount = 0, reversal_journal_entry_id = $3, updated_at = now()
     WHERE entity_id = $1 AND id = $2`,
    [entityId, payment.id, reversal.id],
  );
  await settlePaidDocuments(
    db,
    entityId,
    locked.map(({ order }) => order.id),
  );
  return { payment: await getPayment(db, entityId, payment.id, 'payment_id') };
}
