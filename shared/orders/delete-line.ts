/** Deleting a line of an open document: never one that shipped, came back, arrived or is drop-shipped. */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Order, OrderAdjustment, OrderLineItem } from './schemas/order';
import { recalculatedAfterLineEdit } from './coupon-minimums';
import { documentLock, lockedError } from './order-editability';
import { deleteLineRow, lineRow } from './order-line-store';
import { refreshFulfillmentProgress } from './order-progress';
import { getOrder } from './order-reads';
import { linkedPurchaseOrder, touchOrder } from './order-store';

export async function deleteLine(
  db: Db,
  entityId: string,
  orderId: string,
  itemId: string,
): Promise<{ line: OrderLineItem; order: Order; droppedCoupons: OrderAdjustment[] }> {
  const order = await getOrder(db, entityId, orderId, { lock: true });
  const row = await lineRow(db, entityId, orderId, itemId);
  const line = order.lines!.find((item) => item.id === row.id)!;
  const lock = documentLock(order);
  if (lock) throw lockedError(order, lock);
  if (!line.line_editability.delete.allowed) {
    if (row.drop_ship_po_id) {
      const po = await linkedPurchaseOrder(db, entityId, row.drop_ship_po_id);
      throw new ApiError('dropship_po_issued_blocks_line_edit', { param: 'item_id', details: { linked_purchase_order: po } });
    }
    throw new ApiError('line_not_editable', {
      param: 'item_id',
      hint: 'This line cannot be deleted: it is a kit component, or part of it was fulfilled, returned or received.',
      details: { reason: line.line_editability.delete.reason },
    });
  }
  await deleteLineRow(db, entityId, row.id);
  await touchOrder(db, entityId, orderId);
  await refreshFulfillmentProgress(db, entityId, order);
  return { line, ...(await recalculatedAfterLineEdit(db, entityId, orderId)) };
}
