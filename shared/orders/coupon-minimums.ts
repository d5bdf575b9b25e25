/**
 * Coupons re-check their minimum subtotal after line edits: a line edited or deleted that leaves
 * the document's subtotal below a coupon's min_order_subtotal drops that coupon (its adjustment is
 * deleted and its redemption released), as the decision "Coupons re-check their minimum subtotal
 * after line edits" says. Adding a line never lowers the subtotal (sell_rate ≥ 0). The caller recalculates when something was dropped and records
 * `order_adjustment.deleted` for each dropped coupon.
 */
import type { Db } from '../db/database';
import type { OrderAdjustment } from './schemas/order';
import { deleteAdjustment } from './coupon-redemptions';
import { adjustmentsOf } from './order-reads';
import { recalculatedOrder } from './recalculate-order';

/**
 * Drops the coupons whose minimum the document's stored subtotal (recalculated by the caller) no
 * longer meets, and answers them as they stood (their last state, for the event).
 */
export async function dropCouponsBelowMinimum(db: Db, entityId: string, orderId: string): Promise<OrderAdjustment[]> {
  const below = await db.query<{ id: string }>(
    `SELECT a.id FROM order_adjustments a
       JOIN coupons c ON c.entity_id = a.entity_id AND c.id = a.coupon_id
       JOIN orders o ON o.entity_id = a.entity_id AND o.id = a.order_id
     WHERE a.entity_id = $1 AND a.order_id = $2 AND c.min_order_subtotal IS NOT NULL AND o.subtotal < c.min_order_subtotal
     ORDER BY a.created_at, a.id`,
    [entityId, orderId],
  );
  if (below.length === 0) return [];
  const ids = new Set(below.map((row) => row.id));
  const dropped = (await adjustmentsOf(db, entityId, [orderId])).get(orderId)!.filter((adjustment) => ids.has(adjustment.id));
  for (const adjustment of dropped) await deleteAdjustment(db, entityId, adjustment);
  return dropped;
}

/** After a line edit: the recalculated order, with the coupons whose minimum it no longer meets dropped. */
export async function recalculatedAfterLineEdit(db: Db, entityId: string, orderId: string) {
  const order = await recalculatedOrder(db, entityId, orderId);
  const droppedCoupons = await dropCouponsBelowMinimum(db, entityId, orderId);
  return { order: droppedCoupons.length ? await recalculatedOrder(db, entityId, orderId) : order, droppedCoupons };
}
