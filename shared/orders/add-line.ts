/** Adding one line to an open document, after its last line. */
import type { Db } from '../db/database';
import type { Order } from './schemas/order';
import type { OrderLineCreate } from './schemas/order-requests';
import { requireOpen } from './order-editability';
import { insertLines } from './order-line-insert';
import { lastSortOrder } from './order-line-store';
import { getOrderHeader } from './order-reads';
import { recalculatedOrder } from './recalculate-order';

export async function addLine(db: Db, entityId: string, orderId: string, input: OrderLineCreate): Promise<Order> {
  const order = await getOrderHeader(db, entityId, orderId, { lock: true });
  requireOpen(order);
  const last = await lastSortOrder(db, entityId, orderId);
  await insertLines(db, entityId, order, [input], () => '', last);
  return recalculatedOrder(db, entityId, orderId);
}
