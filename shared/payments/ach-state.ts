/**
 * The order side of ACH clearance, light on purpose (payments.ts imports it): the documents a
 * pending ACH payment pays wait in awaiting_ach_clearance, remembering the status they had.
 */
import type { Db } from '../db/database';
import { achClearanceTransition } from '../orders/lifecycle-rules';
import type { OrderStatus } from '../orders/totals';
import { ApiError } from '../errors';

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
