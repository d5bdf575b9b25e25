import { param, pathParams } from '../../shared/schemas/parameters';
import * as z from 'zod/mini';
import { id } from '../../shared/schemas/common';
import { getAdjustment, removeAdjustment } from '../../shared/orders/coupon-redemptions';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { adjustedTotals } from './adjustment-answer';
import { livemode } from '../../shared/schemas/livemode';

const params = pathParams({ id: param.id('The order id.'), adjustment_id: param.id('The adjustment id.') });

export const route = defineRoute({
  id: 'orders.adjustments.delete',
  method: 'DELETE',
  path: '/v1/orders/{id}/adjustments/{adjustment_id}',
  tag: 'Orders',
  summary: 'Remove an order-level adjustment or coupon',
  description:
    "Removes a discount, fee or coupon from an open order (draft, confirmed, partially fulfilled, on hold, awaiting ACH clearance) and recalculates it (payment_status follows the new total), under E2's rules (422 order_not_adjustable with current_status otherwise; 404 order_not_found for an order not in the entity; 404 not_found on adjustment_id). Removing a coupon releases its redemption on this document: times_redeemed goes down and the customer may redeem it again (coupon_released true). Cancelling or deleting the order does not release it. Response 200 {id, object, deleted, coupon_released, order_total, discount_total, fee_total}.",
  scopes: ['orders:write'],
  params,
  response: z.object({
    id: id(),
    object: z.literal('order_adjustment'),
    livemode: livemode(),
    deleted: z.literal(true),
    coupon_released: z.boolean().check(z.describe('True when a coupon redemption of this document was released.')),
    order_total: z.number(),
    discount_total: z.number(),
    fee_total: z.number(),
  }),
  errors: ['order_not_found', 'order_not_adjustable'],
  current: (ctx, { params }) => getAdjustment(ctx.db, ctx.entityId, params.id, params.adjustment_id),
  handler: async (ctx, { params }) => {
    const { adjustment, order, previousOrder, released } = await removeAdjustment(ctx.db, ctx, params.id, params.adjustment_id);
    await ctx.events.record('order_adjustment.deleted', adjustment);
    await ctx.events.record('order.updated', order, previousOrder);
    return {
      id: adjustment.id,
      object: 'order_adjustment' as const,
      deleted: true as const,
      coupon_released: released,
      ...adjustedTotals(order),
    };
  },
});

export const handler = lambdaHandler(route, idempotency);
