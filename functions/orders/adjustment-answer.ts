/**
 * What the adjustment routes (E2, apply-coupon, removing an adjustment) answer besides the
 * adjustment itself: the order totals it moved. One place, so the three answers stay alike.
 */
import type { RouteContext } from '../../shared/http/route';
import { toJsonNumber } from '../../shared/money';
import type { Order, OrderAdjustment } from '../../shared/orders/schemas/order';

export function adjustedTotals(order: Pick<Order, 'order_total' | 'discount_total' | 'fee_total'>) {
  return { order_total: toJsonNumber(order.order_total), discount_total: toJsonNumber(order.discount_total), fee_total: toJsonNumber(order.fee_total) };
}

/** Records order_adjustment.created and order.updated, and answers the adjustment with the new totals. */
export async function answerNewAdjustment(ctx: RouteContext, result: { adjustment: OrderAdjustment; order: Order; previousOrder: Partial<Order> }) {
  await ctx.events.record('order_adjustment.created', result.adjustment);
  await ctx.events.record('order.updated', result.order, result.previousOrder);
  return { ...result.adjustment, ...adjustedTotals(result.order) };
}
