/** Sending a purchase order to its vendor. Receipts are in purchase-receipts.ts, drop-ship purchase orders in drop-ship.ts. */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Order } from './schemas/order';
import type { PurchaseOrderSend } from './schemas/purchase-order-send';
import { begin, finish, type LifecycleResult } from './order-lifecycle';
import { isoTimestamp } from '../dates';
import { requirePurchaseApproval } from './order-approvals';
import { getParty } from '../parties/parties';

/**
 * Records that a purchase order went to its vendor: sent_at now, sent_to the address (the body's
 * email, else the vendor's). A draft is committed by sending it (→ confirmed); an open one
 * (confirmed or partially received) may be sent again, which records the new time and address
 * and keeps its status, as QuickBooks' "send again". A draft or confirmed purchase order that an
 * approval rule routes and no approval covers is refused (409 po_approval_required). The API does not deliver mail itself: the
 * purchase_order.sent event carries the order, address and message for the caller's mailer.
 */
export async function sendPurchaseOrder(db: Db, entityId: string, orderId: string, input: PurchaseOrderSend): Promise<LifecycleResult> {
  const { order, next } = await begin(db, entityId, orderId, 'send');
  // Approval gates the commitment: a draft or confirmed purchase order over a threshold goes out approved.
  if (order.order_status === 'draft' || order.order_status === 'confirmed') await requirePurchaseApproval(db, entityId, order);
  const header = await db.one<{ vendor_id: string; sent_at: Date | string | null; sent_to: string | null; line_count: number }>(
    `SELECT o.vendor_id, o.sent_at, o.sent_to,
       (SELECT count(*)::int FROM order_lines l WHERE l.entity_id = o.entity_id AND l.order_id = o.id) AS line_count
     FROM orders o WHERE o.entity_id = $1 AND o.id = $2`,
    [entityId, order.id],
  );
  const vendor = await getParty(db, 'vendor', entityId, header.vendor_id);
  if (header.line_count === 0)
    throw new ApiError('parameter_invalid', { param: 'id', hint: 'A purchase order without lines cannot be sent; add lines first.' });
  const sentTo = input.email ?? vendor.email;
  if (!sentTo) throw new ApiError('parameter_missing', { param: 'email', hint: 'The vendor has no email address; say where the purchase order goes.' });
  await db.query('UPDATE orders SET sent_at = now(), sent_to = $3 WHERE entity_id = $1 AND id = $2', [entityId, order.id, sentTo]);
  const result = await finish(db, entityId, order, { order_status: next });
  const previous: Partial<Order> = { ...result.previousOrder, sent_to: header.sent_to };
  previous.sent_at = header.sent_at === null ? null : isoTimestamp(header.sent_at);
  return { order: result.order, previousOrder: previous };
}
