/** Invoice posting: confirming an invoice posts its AR entry, voiding it reverses that entry. */
import type { Db } from '../db/database';
import { postJournalEntry, reverseJournalEntry, type PostingContext, type PostingLine } from '../ledger/post-journal-entry';
import { amount, MONEY_SCALE, round } from '../money';
import { approvalRuleFor, holdForApproval } from './order-approvals';
import { begin, finish, type LifecycleResult } from './order-lifecycle';
import { confirmReturn } from './order-returns';
import { isoDateOf } from '../dates';

/**
 * The AR entry of an invoice: debit accounts_receivable order_total; credit sales_revenue with
 * subtotal − discount_total + shipping_total + fee_total (net merchandise, shipping and fees are
 * all revenue); credit sales_tax_payable tax_total. Zero lines are left out; a zero invoice posts
 * nothing. The lines balance because order_total is exactly that sum.
 */
interface InvoiceTotals {
  subtotal: string;
  discount_total: string;
  shipping_total: string;
  fee_total: string;
  tax_total: string;
  order_total: string;
}

function invoicePostingLines(totals: InvoiceTotals): PostingLine[] {
  const revenue = amount(totals.subtotal).minus(totals.discount_total).plus(totals.shipping_total).plus(totals.fee_total);
  const lines: PostingLine[] = [
    { system_key: 'accounts_receivable', debit: round(amount(totals.order_total), MONEY_SCALE).toString() },
    { system_key: 'sales_revenue', credit: round(revenue, MONEY_SCALE).toString() },
    { system_key: 'sales_tax_payable', credit: round(amount(totals.tax_total), MONEY_SCALE).toString() },
  ];
  return lines.filter((line) => !amount(line.debit ?? line.credit ?? 0).isZero());
}

/**
 * Confirms a draft. A sales order over the threshold of an active approval rule matching its
 * customer or channel is held for approval instead (heldForApproval true; see order-approvals.ts).
 */
export async function confirmOrder(db: Db, ctx: PostingContext, orderId: string): Promise<LifecycleResult & { heldForApproval: boolean }> {
  const { order, next } = await begin(db, ctx.entityId, orderId, 'confirm');
  const rule = await approvalRuleFor(db, ctx.entityId, order);
  if (rule) return { ...(await holdForApproval(db, ctx.entityId, order, rule)), heldForApproval: true };
  if (order.document_type === 'return') return { ...(await confirmReturn(db, ctx, order)), heldForApproval: false };
  let journalEntryId: string | null = null;
  const totals = await db.one<InvoiceTotals>(
    'SELECT subtotal, discount_total, shipping_total, fee_total, tax_total, order_total FROM orders WHERE entity_id = $1 AND id = $2',
    [ctx.entityId, order.id],
  );
  const lines = invoicePostingLines(totals);
  if (order.document_type === 'invoice' && lines.length > 0) {
    const entry = await postJournalEntry(
      db,
      ctx,
      {
        entry_date: isoDateOf(order.order_date),
        memo: `Invoice ${order.invoice_number ?? order.order_number}`,
        source_type: 'invoice',
        source_id: order.id,
        lines,
      },
      { dateParam: 'order_date' },
    );
    journalEntryId = entry.id;
  }
  await db.query(
    `UPDATE orders SET journal_entry_id = coalesce($3, journal_entry_id),
       invoice_number = CASE WHEN document_type = 'invoice' THEN coalesce(invoice_number, order_number) ELSE invoice_number END, updated_at = now()
     WHERE entity_id = $1 AND id = $2`,
    [ctx.entityId, order.id, journalEntryId],
  );
  return { ...(await finish(db, ctx.entityId, order, { order_status: next })), heldForApproval: false };
}

/** Voids a posted invoice: reverses its AR entry (dated like the original) and forces balance_due to 0. */
export async function voidInvoice(db: Db, ctx: PostingContext, orderId: string): Promise<LifecycleResult> {
  const { order, next } = await begin(db, ctx.entityId, orderId, 'void');
  if (order.journal_entry_id)
    await reverseJournalEntry(db, ctx, order.journal_entry_id, { memo: `Void of invoice ${order.invoice_number ?? order.order_number}` });
  return finish(db, ctx.entityId, order, { order_status: next });
}
