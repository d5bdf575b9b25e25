/**
 * Redeeming a coupon on a document (POST /v1/orders/{id}/apply-coupon, and E2 with coupon_code) and
 * removing an order-level adjustment (which releases a coupon's redemption).
 *
 * Locks: the order first (lockAdjustableOrder), then the coupon row FOR UPDATE, in every path, so
 * concurrent redemptions of one coupon queue on its row and the usage limits are read after the
 * previous redemption committed: a coupon with max_redemptions 1 is redeemed exactly once.
 */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { previousAttributes } from '../events/outbox';
import { ApiError, type ErrorCode } from '../errors';
import { newId } from '../ids';
import { amount, toJsonNumber } from '../money';
import type { Order, OrderAdjustment } from './schemas/order';
import { actingUserId, lockAdjustableOrder } from './order-adjustments';
import { adjustmentsOf, getOrder } from './order-reads';
import { recalculateOrder } from './recalculate-order';
import { isoTimestamp } from '../dates';

/** What redeeming a coupon may answer besides E2's order errors (routes list them). */
export const COUPON_REDEMPTION_ERRORS = [
  'coupon_not_applicable',
  'coupon_not_found',
  'coupon_already_applied',
  'coupon_inactive',
  'coupon_not_yet_valid',
  'coupon_expired',
  'coupon_usage_limit_reached',
  'coupon_minimum_not_met',
] as const satisfies readonly ErrorCode[];

/** Coupons discount what a customer buys: quotes, sales orders and invoices. */
const COUPON_DOCUMENTS: readonly string[] = ['quote', 'sales_order', 'invoice'];

export interface CouponRedemptionInput {
  code: string;
  notes?: string | null;
  created_by_user_id?: string;
}

export interface AdjustmentChange {
  adjustment: OrderAdjustment;
  order: Order;
  previousOrder: Partial<Order>;
}

interface CouponCheckRow {
  id: string;
  code: string;
  name: string;
  discount_type: 'percentage' | 'fixed_amount';
  value: string;
  valid_from: Date | string | null;
  valid_until: Date | string | null;
  max_redemptions: number | null;
  max_redemptions_per_account: number | null;
  times_redeemed: number;
  min_order_subtotal: string | null;
  is_active: boolean;
  not_yet_valid: boolean;
  expired: boolean;
}

function headerChange(before: Order, after: Order): Partial<Order> {
  const { lines: _l, adjustments: _a, ...beforeHeader } = before;
  const { lines: _l2, adjustments: _a2, ...afterHeader } = after;
  return previousAttributes(beforeHeader, afterHeader);
}

/**
 * Applies a coupon by code to a draft or open document: the same order-state rules as E2, then the
 * coupon's (in this order) existence, not already on this document, active, validity window, total
 * and per-account usage limits and minimum subtotal. The coupon becomes an order-level discount
 * adjustment naming it (its line shares are the lines' coupon_adjustment), one redemption is
 * recorded and times_redeemed goes up by one, all in the caller's transaction.
 * `param` names the body field of the code (code on apply-coupon, coupon_code on E2).
 */
export async function applyCoupon(
  db: Db,
  actor: { entityId: string; userId: string },
  orderId: string,
  input: CouponRedemptionInput,
  param = 'code',
): Promise<AdjustmentChange> {
  const { entityId } = actor;
  const before = await lockAdjustableOrder(db, entityId, orderId);
  if (!COUPON_DOCUMENTS.includes(before.document_type)) {
    throw new ApiError('coupon_not_applicable', {
      param: 'id',
      hint: `Coupons apply to quotes, sales orders and invoices, not to a ${before.document_type}.`,
      details: { document_type: before.document_type },
    });
  }
  const userId = await actingUserId(db, actor, input.created_by_user_id);
  const coupon = await db.maybeOne<CouponCheckRow>(
    `SELECT id, code, name, discount_type, value, valid_from, valid_until, max_redemptions, max_redemptions_per_account, times_redeemed,
       min_order_subtotal, is_active, coalesce(valid_from > now(), false) AS not_yet_valid, coalesce(valid_until <= now(), false) AS expired
     FROM coupons WHERE entity_id = $1 AND lower(code) = lower($2) FOR UPDATE`,
    [entityId, input.code],
  );
  if (!coupon) throw new ApiError('coupon_not_found', { param });
  const applied = await db.maybeOne('SELECT 1 FROM order_adjustments WHERE entity_id = $1 AND order_id = $2 AND coupon_id = $3', [
    entityId,
    before.id,
    coupon.id,
  ]);
  if (applied) throw new ApiError('coupon_already_applied', { param, details: { coupon_id: coupon.id } });
  if (!coupon.is_active) throw new ApiError('coupon_inactive', { param, details: { coupon_id: coupon.id } });
  if (coupon.not_yet_valid)
    throw new ApiError('coupon_not_yet_valid', {
      param,
      details: { coupon_id: coupon.id, valid_from: coupon.valid_from === null ? null : isoTimestamp(coupon.valid_from) },
    });
  if (coupon.expired)
    throw new ApiError('coupon_expired', {
      param,
      details: { coupon_id: coupon.id, valid_until: coupon.valid_until === null ? null : isoTimestamp(coupon.valid_until) },
    });
  if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) {
    throw new ApiError('coupon_usage_limit_reached', {
      param,
      details: { coupon_id: coupon.id, limit: 'max_redemptions', max_redemptions: coupon.max_redemptions, times_redeemed: coupon.times_redeemed },
    });
  }
  if (coupon.max_redemptions_per_account !== null) {
    const { used } = await db.one<{ used: number }>(
      'SELECT count(*)::int AS used FROM coupon_redemptions WHERE entity_id = $1 AND coupon_id = $2 AND account_id = $3',
      [entityId, coupon.id, before.account_id],
    );
    if (used >= coupon.max_redemptions_per_account) {
      throw new ApiError('coupon_usage_limit_reached', {
        param,
        hint: 'This customer account has redeemed this coupon as often as it allows.',
        details: {
          coupon_id: coupon.id,
          limit: 'max_redemptions_per_account',
          max_redemptions_per_account: coupon.max_redemptions_per_account,
          account_redemptions: used,
        },
      });
    }
  }
  if (coupon.min_order_subtotal !== null && amount(before.subtotal).lt(coupon.min_order_subtotal)) {
    throw new ApiError('coupon_minimum_not_met', {
      param,
      details: { coupon_id: coupon.id, min_order_subtotal: toJsonNumber(coupon.min_order_subtotal), subtotal: before.subtotal },
    });
  }

  const adjustmentId = newId();
  try {
    await db.query(
      `INSERT INTO order_adjustments (id, entity_id, order_id, name, effect_type, discount_type, value, notes, created_by_user_id, coupon_id)
       VALUES ($1, $2, $3, $4, 'discount', $5, $6, $7, $8, $9)`,
      [adjustmentId, entityId, before.id, coupon.name, coupon.discount_type, coupon.value, input.notes ?? null, userId, coupon.id],
    );
  } catch (error) {
    // Cannot happen under the order's lock; kept so a race would still be a 409, not a 500.
    if (isUniqueViolation(error, 'order_adjustments_coupon_unique')) throw new ApiError('coupon_already_applied', { param });
    throw error;
  }
  await db.query(`INSERT INTO coupon_redemptions (id, entity_id, coupon_id, order_id, adjustment_id, account_id) VALUES ($1, $2, $3, $4, $5, $6)`, [
    newId(),
    entityId,
    coupon.id,
    before.id,
    adjustmentId,
    before.document_type === 'purchase_order' ? null : before.account_id,
  ]);
  await db.query('UPDATE coupons SET times_redeemed = times_redeemed + 1, updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, coupon.id]);
  await db.query('UPDATE orders SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, before.id]);
  await recalculateOrder(db, entityId, before.id);
  const order = await getOrder(db, entityId, before.id);
  return { adjustment: order.adjustments!.find((a) => a.id === adjustmentId)!, order, previousOrder: headerChange(before, order) };
}

/** One adjustment of an order (as the order's adjustments array shows it), for If-Match. */
export async function getAdjustment(db: Db, entityId: string, orderId: string, adjustmentId: string): Promise<OrderAdjustment> {
  await getOrder(db, entityId, orderId, { code: 'order_not_found' });
  const adjustment = (await adjustmentsOf(db, entityId, [orderId])).get(orderId)!.find((a) => a.id === adjustmentId);
  if (!adjustment) throw new ApiError('not_found', { param: 'adjustment_id', hint: 'No such adjustment on this order.' });
  return adjustment;
}

/**
 * Removes an order-level adjustment (a manual discount or fee, or a coupon) from a draft or open
 * document and recalculates it. Removing a coupon releases its redemption on this document
 * (times_redeemed goes down by one); a document that carries a coupon through conversion holds no
 * redemption of its own, so removing it there releases nothing.
 */
export async function removeAdjustment(
  db: Db,
  actor: { entityId: string },
  orderId: string,
  adjustmentId: string,
): Promise<AdjustmentChange & { released: boolean }> {
  const { entityId } = actor;
  const before = await lockAdjustableOrder(db, entityId, orderId);
  const adjustment = before.adjustments!.find((a) => a.id === adjustmentId);
  if (!adjustment) throw new ApiError('not_found', { param: 'adjustment_id', hint: 'No such adjustment on this order.' });
  const released = await deleteAdjustment(db, entityId, adjustment);
  await db.query('UPDATE orders SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, before.id]);
  await recalculateOrder(db, entityId, before.id);
  const order = await getOrder(db, entityId, before.id);
  return { adjustment, order, previousOrder: headerChange(before, order), released };
}

/**
 * Deletes one order-level adjustment; a coupon's releases its redemption on this document (under
 * the coupon's row lock). Answers whether a redemption was released. The caller recalculates.
 */
export async function deleteAdjustment(db: Db, entityId: string, adjustment: Pick<OrderAdjustment, 'id' | 'coupon_id'>): Promise<boolean> {
  const adjustmentId = adjustment.id;
  let released = false;
  if (adjustment.coupon_id) {
    await db.query('SELECT 1 FROM coupons WHERE entity_id = $1 AND id = $2 FOR UPDATE', [entityId, adjustment.coupon_id]);
    const redemption = await db.maybeOne<{ id: string }>('DELETE FROM coupon_redemptions WHERE entity_id = $1 AND adjustment_id = $2 RETURNING id', [
      entityId,
      adjustmentId,
    ]);
    if (redemption) {
      released = true;
      await db.query('UPDATE coupons SET times_redeemed = times_redeemed - 1, updated_at = now() WHERE entity_id = $1 AND id = $2', [
        entityId,
        adjustment.coupon_id,
      ]);
    }
  }
  await db.query('DELETE FROM order_adjustments WHERE entity_id = $1 AND id = $2', [entityId, adjustmentId]);
  return released;
}
