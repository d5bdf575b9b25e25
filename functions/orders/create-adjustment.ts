import { createAdjustment } from '../../shared/data/orders';
import { toJsonNumber } from '../../shared/money';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/common';
import { OrderAdjustmentCreate, OrderAdjustmentResult } from '../../shared/schemas/order-requests';

export const route = defineRoute({
  id: 'orders.adjustments.create',
  method: 'POST',
  path: '/v1/orders/{id}/adjustments',
  tag: 'Orders',
  summary: 'Add an order-level discount or fee',
  description:
    "E2. Required: name, effect_type (discount | fee), discount_type (percentage | fixed_amount) and value (0 to 100 for a percentage, a currency amount with 2 decimals otherwise); optional notes and created_by_user_id (the acting user, an active user of the entity; defaults to the key's user). Coupons are applied through POST /v1/orders/{id}/apply-coupon. Percentages apply to the merchandise after line discounts; a discount is capped at what is left and prorated over the lines (their adjustments arrays). Allowed on draft or open (confirmed) orders; cancelled, fulfilled, posted-invoice (and other) orders are 422 order_not_adjustable with current_status. An order that is not in the entity is 404 order_not_found. Response 200: the adjustment with the order's new order_total, discount_total and fee_total.",
  scopes: ['orders:write'],
  params: idParams,
  body: OrderAdjustmentCreate,
  response: OrderAdjustmentResult,
  errors: ['order_not_found', 'order_not_adjustable'],
  handler: async (ctx, { params, body }) => {
    const { adjustment, order, previousOrder } = await createAdjustment(ctx.db, ctx, params.id, body);
    await ctx.events.record('order_adjustment.created', adjustment);
    await ctx.events.record('order.updated', order, previousOrder);
    return {
      ...adjustment,
      order_total: toJsonNumber(order.order_total),
      discount_total: toJsonNumber(order.discount_total),
      fee_total: toJsonNumber(order.fee_total),
    };
  },
});

export const handler = lambdaHandler(route);
