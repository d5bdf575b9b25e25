import type { Db } from '../db/database';
import { newId } from '../ids';
import type { Order } from './schemas/order';
import { copyLines, lineRows } from './order-line-store';
import { getOrder } from './order-reads';
import { insertDuplicateOrder, nextOrderNumber } from './order-store';
import { recalculatedOrder } from './recalculate-order';

/**
 * E15: a new draft of the same document type with a fresh number and created_at, the same account,
 * location, metadata and lines (prices as on the source); no payment, fulfillment or drop-ship
 * history, no order-level adjustments, no provenance ids.
 */
export async function duplicateOrder(db: Db, actor: { entityId: string; userId: string }, orderId: string): Promise<Order> {
  const { entityId } = actor;
  const source = await getOrder(db, entityId, orderId, { lock: true, allowArchived: true });
  const id = newId();
  const number = await nextOrderNumber(db, entityId, source.document_type);
  await insertDuplicateOrder(db, entityId, source.id, { id, number, userId: actor.userId });
  await copyLines(db, entityId, id, await lineRows(db, entityId, [source.id]));
  return recalculatedOrder(db, entityId, id);
}
