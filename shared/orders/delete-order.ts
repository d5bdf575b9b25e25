import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Order } from './schemas/order';
import { getOrder } from './order-reads';
import { softDeleteOrder } from './order-store';

/**
 * E17: soft delete of a draft or a quote without payments; anything else (confirmed, invoiced,
 * with payments) is 409 order_not_deletable: cancel it instead.
 */
export async function deleteOrder(db: Db, entityId: string, orderId: string): Promise<Order> {
  const order = await getOrder(db, entityId, orderId, { lock: true });
  const deletable = (order.order_status === 'draft' || order.document_type === 'quote') && order.amount_paid === 0 && order.payment_status === 'unpaid';
  if (!deletable) {
    throw new ApiError('order_not_deletable', {
      param: 'id',
      details: { current_status: order.order_status, payment_status: order.payment_status, document_type: order.document_type },
    });
  }
  await softDeleteOrder(db, entityId, order.id);
  return order;
}
