/**
 * Credit-memo credit beyond its invoice. A confirmed return (a credit memo) applies its credit to
 * its source invoice up to that invoice's balance_due; the rest is customer credit, the return's
 * negative balance_due, held in customer_credits. That rest can be applied to another invoice of
 * the same account (as Xero allocates a credit note to several invoices) or refunded (money paid
 * out of a bank account). Both are recorded in credit_memo_moves and posted:
 *
 *   apply    debit customer_credits, credit accounts_receivable; the invoice's amount_credited
 *            rises (its balance_due falls), the return's amount_credited rises
 *   refund   debit customer_credits, credit the bank account's GL account; the return's
 *            credit_refunded rises
 *
 * so AR = Σ open invoice balance_due and customer_credits = the credit no invoice holds keep
 * holding. The return's balance_due is −(order_total − amount_credited − credit_refunded).
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { postJournalEntry, type PostingContext } from '../ledger/post-journal-entry';
import { bankGlAccountId } from '../ledger/ledger-reads';
import { amount, toJsonNumber, type Amount } from '../money';
import { isoDateOf, todayUtc } from '../dates';
import { archivedError } from './order-store';
import { getOrder } from './order-reads';
import { settleDocumentMoney } from './document-money';
import type { Order } from './schemas/order';
import type { DocumentType, OrderStatus } from './totals';

interface MoveDocument {
  id: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  customer_account_id: string | null;
  order_total: string;
  amount_paid: string;
  amount_refunded: string;
  amount_voided: string;
  amount_credited: string;
  credit_refunded: string;
  balance_due: string;
  journal_entry_id: string | null;
  is_archived: boolean;
  order_date: Date | string;
}

/** Locks the documents in id order (as every payment path does), so two moves never deadlock. */
async function lockDocuments(db: Db, entityId: string, ids: string[]): Promise<Map<string, MoveDocument>> {
  const rows = await db.query<MoveDocument>(
    `SELECT id, document_type, order_status, customer_account_id, order_total, amount_paid, amount_refunded, amount_voided, amount_credited,
       credit_refunded, balance_due, journal_entry_id, is_archived, order_date
     FROM orders WHERE entity_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
    [entityId, ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** A return whose credit memo stands: confirmed, its goods received in part or in full. */
const POSTED_RETURN: readonly OrderStatus[] = ['confirmed', 'partially_fulfilled', 'fulfilled'];

/** The credit memo and the credit it has left (its negative balance_due), or 422 credit_not_available. */
function availableCredit(memo: MoveDocument | undefined): { memo: MoveDocument; available: Amount } {
  if (!memo) throw new ApiError('not_found', { param: 'id', hint: 'No such order in this entity.' });
  if (memo.is_archived) throw archivedError();
  const available = amount(memo.balance_due).negated();
  // The credit stays available until it is applied or refunded, whatever its goods' state (received or not).
  const posted = memo.document_type === 'return' && POSTED_RETURN.includes(memo.order_status) && memo.journal_entry_id !== null;
  if (!posted || !available.gt(0)) {
    throw new ApiError('credit_not_available', {
      param: 'id',
      hint: posted ? 'This credit memo has no credit left.' : 'Only a return that posted a credit memo carries credit.',
      details: { available_credit: posted ? toJsonNumber(available) : 0, document_type: memo.document_type, current_status: memo.order_status },
    });
  }
  return { memo, available };
}

function checkAmount(requested: Amount, available: Amount): void {
  if (!requested.gt(0) || requested.gt(available)) {
    throw new ApiError('credit_not_available', {
      param: 'amount',
      hint: `This credit memo has ${available.toString()} of credit left.`,
      details: { available_credit: toJsonNumber(available) },
    });
  }
}

async function insertMove(
  db: Db,
  ctx: PostingContext,
  move: { id: string; memo: string; kind: 'application' | 'refund'; invoice?: string; cash?: string; amount: Amount; date: string; entry: string },
): Promise<void> {
  await db.query(
    `INSERT INTO credit_memo_moves (id, entity_id, credit_memo_id, kind, invoice_id, amount, cash_gl_account_id, move_date, journal_entry_id, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [move.id, ctx.entityId, move.memo, move.kind, move.invoice ?? null, move.amount.toString(), move.cash ?? null, move.date, move.entry, ctx.userId],
  );
}

export interface CreditMoveResult {
  creditMemo: Order;
  previousCreditMemo: Partial<Order>;
  /** The invoice the credit was applied to (apply only). */
  invoice?: Order;
  previousInvoice?: Partial<Order>;
}

const header = (order: Order) => {
  const { lines: _l, adjustments: _a, ...rest } = order;
  return rest;
};

/** previous_attributes of the figures a move changes. */
function moved(before: Order, after: Order): Partial<Order> {
  const previous: Record<string, unknown> = {};
  for (const key of ['amount_credited', 'balance_due', 'payment_status'] as const) if (before[key] !== after[key]) previous[key] = before[key];
  return previous;
}

/** Applies `amount` (default: as much as both allow) of a credit memo's credit to another open invoice of its account. */
export async function applyCreditMemo(
  db: Db,
  ctx: PostingContext,
  memoId: string,
  input: { invoice_id: string; amount?: string | number; applied_date?: string },
): Promise<CreditMoveResult> {
  const { entityId } = ctx;
  const documents = await lockDocuments(db, entityId, [memoId, input.invoice_id]);
  const { memo, available } = availableCredit(documents.get(memoId));
  // Applied on or after the day the credit memo posted its credit; default today.
  const date = input.applied_date ?? todayUtc();
  if (date < isoDateOf(memo.order_date)) {
    throw new ApiError('parameter_invalid', {
      param: 'applied_date',
      hint: `The credit is applied on or after the day the credit memo posted it (${isoDateOf(memo.order_date)}).`,
    });
  }
  const invoice = documents.get(input.invoice_id);
  if (!invoice || invoice.id === memo.id) throw new ApiError('not_found', { param: 'invoice_id', hint: 'No such invoice in this entity.' });
  if (invoice.is_archived) throw archivedError('invoice_id');
  const open = amount(invoice.balance_due);
  const payable =
    invoice.document_type === 'invoice' && !['draft', 'cancelled', 'voided', 'awaiting_ach_clearance'].includes(invoice.order_status) && open.gt(0);
  if (!payable || invoice.customer_account_id !== memo.customer_account_id) {
    throw new ApiError('order_not_payable', {
      param: 'invoice_id',
      hint:
        invoice.customer_account_id !== memo.customer_account_id
          ? "This invoice belongs to another customer account than the credit memo's."
          : `This ${invoice.document_type} (${invoice.order_status}) has nothing open to apply credit to.`,
      details: { payable_amount: payable ? toJsonNumber(open) : 0, current_status: invoice.order_status, document_type: invoice.document_type },
    });
  }
  const value = input.amount === undefined ? (available.lt(open) ? available : open) : amount(input.amount);
  checkAmount(value, available);
  if (value.gt(open)) {
    throw new ApiError('order_not_payable', {
      param: 'amount',
      hint: `The invoice has ${open.toString()} open: more would overpay it.`,
      details: { payable_amount: toJsonNumber(open), current_status: invoice.order_status, document_type: invoice.document_type },
    });
  }
  const [memoBefore, invoiceBefore] = [await getOrder(db, entityId, memo.id), await getOrder(db, entityId, invoice.id)];
  const id = newId();
  const entry = await postJournalEntry(
    db,
    ctx,
    {
      entry_date: date,
      memo: `Credit memo credit applied to invoice ${invoiceBefore.invoice_number ?? invoiceBefore.order_number}`,
      source_type: 'credit_memo_application',
      source_id: id,
      lines: [
        { system_key: 'customer_credits', debit: value.toString() },
        { system_key: 'accounts_receivable', credit: value.toString() },
      ],
    },
    { dateParam: 'applied_date' },
  );
  await insertMove(db, ctx, { id, memo: memo.id, kind: 'application', invoice: invoice.id, amount: value, date, entry: entry.id });
  await settleDocumentMoney(db, entityId, [memo.id, invoice.id]);
  const [creditMemo, invoiceAfter] = [await getOrder(db, entityId, memo.id), await getOrder(db, entityId, invoice.id)];
  return {
    creditMemo,
    previousCreditMemo: moved(header(memoBefore), creditMemo),
    invoice: invoiceAfter,
    previousInvoice: moved(header(invoiceBefore), invoiceAfter),
  };
}

/** Refunds `amount` (default: all that is left) of a credit memo's credit out of a bank account. */
export async function refundCreditMemo(
  db: Db,
  ctx: PostingContext,
  memoId: string,
  input: { bank_account_id: string; amount?: string | number; refund_date?: string; reason?: string | null },
): Promise<CreditMoveResult> {
  const { entityId } = ctx;
  const documents = await lockDocuments(db, entityId, [memoId]);
  const { memo, available } = availableCredit(documents.get(memoId));
  const value = input.amount === undefined ? available : amount(input.amount);
  checkAmount(value, available);
  const bankGlId = await bankGlAccountId(db, entityId, input.bank_account_id);
  const memoBefore = await getOrder(db, entityId, memo.id);
  const id = newId();
  const date = input.refund_date ?? todayUtc();
  const entry = await postJournalEntry(
    db,
    ctx,
    {
      entry_date: date,
      memo: input.reason ? `Credit memo refund: ${input.reason}` : `Credit memo ${memoBefore.order_number} refunded`,
      source_type: 'credit_memo_refund',
      source_id: id,
      lines: [
        { system_key: 'customer_credits', debit: value.toString() },
        { account_id: bankGlId, credit: value.toString() },
      ],
    },
    { dateParam: 'refund_date' },
  );
  await insertMove(db, ctx, { id, memo: memo.id, kind: 'refund', cash: bankGlId, amount: value, date, entry: entry.id });
  await settleDocumentMoney(db, entityId, [memo.id]);
  const creditMemo = await getOrder(db, entityId, memo.id);
  return { creditMemo, previousCreditMemo: moved(header(memoBefore), creditMemo) };
}
