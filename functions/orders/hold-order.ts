import { holdOrder } from '../../shared/orders/order-lifecycle';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { OrderHold } from '../../shared/orders/schemas/order-lifecycle';

export const route = defineRoute({
  id: 'orders.hold',
  method: 'POST',
  path: '/v1/orders/{id}/hold',
  tag: 'Orders',
  summary: 'Put an order on hold',
  description:
    'Confirmed or partially fulfilled sales orders and confirmed or partially received purchase orders: order_status on_hold, is_on_hold true, hold_type and hold_reason kept. Anything else is 409 order_invalid_transition with current_status. Emits order.held.',
  scopes: ['orders:write'],
  params: idParams,
  body: OrderHold,
  response: Order,
  errors: ['order_invalid_transition'],
  handler: async (ctx, { params, body }) => {
    const { order, previousOrder } = await holdOrder(ctx.db, ctx.entityId, params.id, body);
    await ctx.events.record('order.held', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
