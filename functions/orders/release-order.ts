import { releaseOrder } from '../../shared/orders/order-lifecycle';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.release',
  method: 'POST',
  path: '/v1/orders/{id}/release',
  tag: 'Orders',
  summary: 'Release a hold',
  description:
    'An order on hold goes back to confirmed, or partially_fulfilled when part of it shipped; hold_type and hold_reason are cleared. Any other status is 409 order_invalid_transition. Emits order.released.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  errors: ['order_invalid_transition'],
  handler: async (ctx, { params }) => {
    const { order, previousOrder } = await releaseOrder(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('order.released', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
