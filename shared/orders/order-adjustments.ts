/** Order-level adjustments (E2): the order rule they share with coupons, and a manual discount or fee. */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { previousAttributes } from '../events/outbox';
import { newId } from '../ids';
import { amount } from '../money';
import type { Order, OrderAdjustment } from './schemas/order';
import type { ManualAdjustment } from './schemas/order-requests';
import { getOrder } from './order-reads';
import { adjustmentLock, type ClosedReason } from './order-editability';
import { touchOrder } from './order-store';
import { recalculatedOrder } from './recalculate-order';
import { userState } from '../tenants/tenant-reads';

const REFUSAL_HINTS: Record<ClosedReason, string> = {
  document_cancelled: 'A cancelled document takes no adjustments.',
  document_voided: 'A voided document takes no adjustments.',
  document_fulfilled: 'Every unit of this document has shipped; adjust it with a return or a credit instead.',
  document_posted: 'A posted invoice or return takes no adjustments; issue a credit or a correction instead.',
  po_pending_approval_edit_locked: 'This purchase order awaits approval and is locked as submitted; have it rejected to change it.',
};

/** The acting user of an adjustment: created_by_user_id (an active user of the entity) or the key's user. */
export async function actingUserId(db: Db, actor: { entityId: string; userId: string }, createdByUserId: string | undefined): Promise<string> {
  if (!createdByUserId) return actor.userId;
  const user = await userState(db, actor.entityId, createdByUserId);
  if (!user || !user.is_active) throw new ApiError('not_found', { param: 'created_by_user_id', hint: 'No such active user in this entity.' });
  return createdByUserId;
}

/**
 * The order-state rule of E2, shared by manual adjustments and coupons: the order is locked, found in
 * the entity (else 404 order_not_found, before anything else) and open (adjustmentLock); a
 * cancelled, voided, fulfilled or posted document is 422 order_not_adjustable with current_status.
 */
export async function lockAdjustableOrder(db: Db, entityId: string, orderId: string): Promise<Order> {
  const before = await getOrder(db, entityId, orderId, { lock: true, code: 'order_not_found' });
  const lock = adjustmentLock(before);
  if (lock) {
    throw new ApiError('order_not_adjustable', {
      param: 'id',
      hint: REFUSAL_HINTS[lock.reason],
      details: { current_status: before.order_status, document_type: before.document_type, reason: lock.reason },
    });
  }
  return before;
}

/** An order-level discount or fee on an open order; totals and payment_status follow at once. */
export async function createAdjustment(
  db: Db,
  actor: { entityId: string; userId: string },
  orderId: string,
  input: ManualAdjustment,
): Promise<{ adjustment: OrderAdjustment; order: Order; previousOrder: Partial<Order> }> {
  const { entityId } = actor;
  const before = await lockAdjustableOrder(db, entityId, orderId);
  if (input.discount_type === 'percentage' && amount(input.value).gt(100)) {
    throw new ApiError('parameter_invalid', { param: 'value', hint: 'A percentage is 0 to 100.' });
  }
  if (input.discount_type === 'fixed_amount' && amount(input.value).decimalPlaces() > 2) {
    throw new ApiError('parameter_invalid', { param: 'value', hint: 'A fixed amount has at most 2 decimal places.' });
  }
  const userId = await actingUserId(db, actor, input.created_by_user_id);
  const id = newId();
  await db.query(
    `INSERT INTO order_adjustments (id, entity_id, order_id, name, effect_type, discount_type, value, notes, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, entityId, before.id, input.name, input.effect_type, input.discount_type, input.value, input.notes ?? null, userId],
  );
  await touchOrder(db, entityId, before.id);
  const order = await recalculatedOrder(db, entityId, before.id);
  const { lines: _l, adjustments: _a, ...beforeHeader } = before;
  const { lines: _l2, adjustments: _a2, ...afterHeader } = order;
  return {
    adjustment: order.adjustments!.find((a) => a.id === id)!,
    order,
    previousOrder: previousAttributes(beforeHeader, afterHeader),
  };
}
