import { fulfillOrder } from '../../shared/orders/order-fulfillment';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { OrderFulfillment, OrderFulfillmentCreate } from '../../shared/orders/schemas/order-lifecycle';

export const route = defineRoute({
  id: 'orders.fulfillments.create',
  method: 'POST',
  path: '/v1/orders/{id}/fulfillments',
  tag: 'Orders',
  summary: 'Ship lines of an order',
  description:
    "Ships lines of a confirmed or partially fulfilled sales order (or a directly created invoice): stock leaves location_id (default the order's) at FIFO cost and COGS is posted (debit cost_of_goods_sold, credit inventory) with exactly the cents the draws take from inventory_value, dated fulfillment_date (default today UTC; before the order's own date 400 on fulfillment_date; in a closed period 422 period_closed). Name a kit's line; its components are drawn. 422 order_over_fulfillment beyond a line's unfulfilled quantity; 422 line_drop_shipped (param lines[i].line_id, details.linked_purchase_order) for a line with a live drop-ship purchase order, which the vendor ships and its receipt fulfils. Emits order.fulfilled.",
  scopes: ['orders:write'],
  params: idParams,
  body: OrderFulfillmentCreate,
  response: OrderFulfillment,
  successStatus: 201,
  errors: ['order_invalid_transition', 'order_over_fulfillment', 'line_drop_shipped', 'insufficient_stock', 'period_closed'],
  handler: async (ctx, { params, body }) => {
    const fulfillment = await fulfillOrder(ctx.db, ctx, params.id, body);
    await ctx.events.record('order.fulfilled', fulfillment);
    return fulfillment;
  },
});

export const handler = lambdaHandler(route, idempotency);
