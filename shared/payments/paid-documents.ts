/**
 * The documents (orders) a customer payment touches: locked FOR UPDATE in id order before their
 * balance is read, so concurrent payments queue and never overpay one; their payment figures; and
 * their wait while an ACH payment clears.
 */
import type { Db } from '../db/database';
import { achClearanceTransition } from '../orders/lifecycle-rules';
import { paymentState } from '../orders/payment-status';
import type { DocumentType, OrderStatus, PaymentStatus } from '../orders/totals';
import { ApiError } from '../errors';
import { archivedError } from '../orders/order-store';
import { amount, type Amount, ZERO } from '../money';

export interface OrderState {
  id: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  customer_account_id: string | null;
  order_total: string;
  tax_total: string;
  amount_paid: string;
  /** Refunds the document received (drives partially_refunded and refunded). */
  amount_refunded: string;
  /** What voided payments had applied (payment_status voided when nothing paid is left). */
  amount_voided: string;
  balance_due: string;
  /** The order_status to return to when an ACH payment clears or fails. */
  ach_previous_status: OrderStatus | null;
  /** Credit memos applied: balanceDue and payableAmount subtract them. */
  amount_credited: string;
  order_date: Date | string;
  created_at: Date | string;
}

/** The documents, locked FOR UPDATE in id order (so two payments never deadlock). */
export async function lockOrders(db: Db, entityId: string, where: string, params: unknown[]): Promise<OrderState[]> {
  const orders = await db.query<OrderState & { is_archived: boolean }>(
    `SELECT id, document_type, order_status, payment_status, customer_account_id, order_total, tax_total, amount_paid, amount_refunded, amount_voided, balance_due,
       amount_credited, ach_previous_status, order_date, created_at, is_archived
       FROM orders WHERE entity_id = $1 AND deleted_at IS NULL AND ${where} ORDER BY id FOR UPDATE`,
    [entityId, ...params],
  );
  // An archived document takes no money move: its balance_due is forced to 0 while it is archived.
  if (orders.some((order) => order.is_archived)) throw archivedError('order_id');
  return orders;
}

/**
 * Moves a locked document's payment figures: amount_paid and amount_refunded by the given deltas,
 * payment_status and balance_due by the one payment_status rule (orders/payment-status.ts), and, when given, its
 * order_status and ach_previous_status (ACH clearance).
 */
export async function updateDocumentPayment(
  db: Db,
  entityId: string,
  order: OrderState,
  change: { paid?: Amount; refunded?: Amount; voided?: Amount; order_status?: OrderStatus; ach_previous_status?: OrderStatus | null },
): Promise<void> {
  const paid = amount(order.amount_paid).plus(change.paid ?? ZERO);
  const refunded = amount(order.amount_refunded).plus(change.refunded ?? ZERO);
  const voided = amount(order.amount_voided).plus(change.voided ?? ZERO);
  const orderStatus = change.order_status ?? order.order_status;
  const { payment_status: status, balance_due: balance } = paymentState({
    ...order,
    order_status: orderStatus,
    amount_paid: paid,
    amount_refunded: refunded,
    amount_voided: voided,
  });
  const previous = change.ach_previous_status === undefined ? order.ach_previous_status : change.ach_previous_status;
  await db.query(
    `UPDATE orders SET amount_paid = $3, amount_refunded = $4, payment_status = $5, balance_due = $6, order_status = $7, ach_previous_status = $8,
       amount_voided = $9, updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [entityId, order.id, paid.toString(), refunded.toString(), status, balance.toString(), orderStatus, previous, voided.toString()],
  );
}

/** The documents a pending ACH payment pays wait in awaiting_ach_clearance, remembering the status they had. */
export async function holdForAchClearance(
  db: Db,
  entityId: string,
  orders: readonly { id: string; order_status: OrderStatus; document_type: string }[],
): Promise<void> {
  for (const order of orders) {
    const move = achClearanceTransition(order.order_status, 'payment_pending');
    if (!move.allowed) {
      throw new ApiError('order_not_payable', {
        param: 'payment_method',
        hint: `A ${order.document_type} that is ${order.order_status} cannot wait for ACH clearance.`,
        details: { payable_amount: 0, current_status: order.order_status, document_type: order.document_type },
      });
    }
    await db.query(`UPDATE orders SET ach_previous_status = order_status, order_status = $3, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
      entityId,
      order.id,
      move.next,
    ]);
  }
}
