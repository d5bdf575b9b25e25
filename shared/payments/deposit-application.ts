/**
 * Prepayments follow the invoice. A payment made against a sales order is a customer deposit
 * (customer_credits). When an invoice converted from that sales order is posted, the deposit is
 * applied to it, as QuickBooks applies a deposit to the invoice made from the order: oldest
 * payment first, each up to what it still holds on the sales order (applied less refunded), until
 * the invoice's balance_due is met. Each payment's application moves from the sales order to the
 * invoice (payment_applications), the invoice's amount_paid rises by it (the sales order keeps
 * showing it as paid, now through its invoice: orders/document-money.ts), and one entry per payment moves it from customer deposits to AR (debit
 * customer_credits, credit accounts_receivable; source_type payment_application, so voiding the
 * payment reverses it with the receipt). AR = Σ open invoice balance_due and customer_credits =
 * the deposits and credits no invoice holds both keep holding.
 */
import type { Db } from '../db/database';
import { postJournalEntry } from '../ledger/post-journal-entry';
import { amount, toJsonNumber, type Amount, ZERO } from '../money';
import { newId } from '../ids';
import { isoDateOf } from '../dates';
import { lockPayableDocuments } from '../orders/document-money';
import { settlePaidDocuments } from './document-payments';
import { orderRow } from '../orders/order-store';
import type { PaymentActor } from './payment-context';

interface DepositApplication {
  id: string;
  payment_id: string;
  amount_applied: string;
  amount_refunded: string;
}

/** What a sales order's deposit can give an invoice of `open` (pure): oldest first, each up to what it holds. */
export function depositTakes(open: Amount, applications: readonly { id: string; holds: Amount }[]): { id: string; take: Amount }[] {
  let left = open;
  const takes: { id: string; take: Amount }[] = [];
  for (const application of applications) {
    if (!left.gt(0)) break;
    if (!application.holds.gt(0)) continue;
    const take = application.holds.lt(left) ? application.holds : left;
    takes.push({ id: application.id, take });
    left = left.minus(take);
  }
  return takes;
}

export interface DepositApplied {
  applied: Amount;
  /** The sales order the deposit came from, and its payment figures before (null when nothing moved). */
  salesOrder: { id: string; previous: { amount_paid: number; payment_status: string; balance_due: number } } | null;
}

/** Applies the deposit of the invoice's source sales order to the just-posted invoice. */
export async function applySalesOrderDeposit(db: Db, actor: PaymentActor, invoiceId: string): Promise<DepositApplied> {
  const { entityId } = actor;
  const header = await orderRow(db, entityId, invoiceId);
  if (header.document_type !== 'invoice' || !header.converted_from_id) return { applied: ZERO, salesOrder: null };
  // Documents first (in id order, as every payment path locks them), then the payments.
  const orders = await lockPayableDocuments(db, entityId, 'id = ANY($2::uuid[])', [[invoiceId, header.converted_from_id]]);
  const invoice = orders.find((order) => order.id === invoiceId)!;
  const salesOrder = orders.find((order) => order.id === header.converted_from_id);
  if (!salesOrder || salesOrder.document_type !== 'sales_order' || !amount(salesOrder.amount_paid).gt(0)) return { applied: ZERO, salesOrder: null };
  const open = amount(invoice.balance_due);
  if (!open.gt(0)) return { applied: ZERO, salesOrder: null };
  const applications = await db.query<DepositApplication>(
    `SELECT a.id, a.payment_id, a.amount_applied, a.amount_refunded FROM payment_applications a
       JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
     WHERE a.entity_id = $1 AND a.order_id = $2 AND p.status IN ('undeposited', 'deposited')
     ORDER BY p.created_at, p.id FOR UPDATE OF a, p`,
    [entityId, salesOrder.id],
  );
  const byId = new Map(applications.map((application) => [application.id, application]));
  const takes = depositTakes(
    open,
    applications.map((a) => ({ id: a.id, holds: amount(a.amount_applied).minus(a.amount_refunded) })),
  );
  let applied = ZERO;
  for (const { id, take } of takes) {
    const application = byId.get(id)!;
    const left = amount(application.amount_applied).minus(take);
    if (left.isZero()) await db.query('DELETE FROM payment_applications WHERE entity_id = $1 AND id = $2', [entityId, id]);
    else
      await db.query('UPDATE payment_applications SET amount_applied = $3, updated_at = now() WHERE entity_id = $1 AND id = $2', [
        entityId,
        id,
        left.toString(),
      ]);
    await db.query(
      `INSERT INTO payment_applications (id, entity_id, payment_id, order_id, amount_applied) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (entity_id, payment_id, order_id) DO UPDATE SET amount_applied = payment_applications.amount_applied + EXCLUDED.amount_applied, updated_at = now()`,
      [newId(), entityId, application.payment_id, invoiceId, take.toString()],
    );
    await postJournalEntry(
      db,
      actor,
      {
        entry_date: isoDateOf(header.order_date),
        memo: `Customer deposit applied to invoice (payment ${application.payment_id})`,
        source_type: 'payment_application',
        source_id: application.payment_id,
        lines: [
          { system_key: 'customer_credits', debit: take.toString() },
          { system_key: 'accounts_receivable', credit: take.toString() },
        ],
      },
      { dateParam: 'order_date' },
    );
    applied = applied.plus(take);
  }
  if (applied.isZero()) return { applied, salesOrder: null };
  await settlePaidDocuments(db, entityId, [invoice.id, salesOrder.id]);
  const previous = {
    amount_paid: toJsonNumber(salesOrder.amount_paid),
    payment_status: salesOrder.payment_status,
    balance_due: toJsonNumber(salesOrder.balance_due),
  };
  return { applied, salesOrder: { id: salesOrder.id, previous } };
}
