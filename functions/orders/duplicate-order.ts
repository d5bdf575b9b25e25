import { duplicateOrder } from '../../shared/orders/duplicate-order';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { ORDER_EXPAND } from './expand';

export const route = defineRoute({
  id: 'orders.duplicate',
  method: 'POST',
  path: '/v1/orders/{id}/duplicate',
  tag: 'Orders',
  summary: 'Duplicate an order as a new draft',
  description:
    'E15. A new draft of the same document type with a fresh order_number and created_at, copying the account, location, metadata, header terms and lines (at their prices); payment, fulfillment and drop-ship history, order-level adjustments and provenance ids are not copied. duplicated_from_id names the source. Emits order.created.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  successStatus: 201,
  expand: ORDER_EXPAND,
  handler: async (ctx, { params }) => {
    const order = await duplicateOrder(ctx.db, ctx, params.id);
    await ctx.events.record('order.created', order);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
