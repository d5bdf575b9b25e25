import { getOrder } from '../../shared/orders/order-reads';
import { updateOrder } from '../../shared/orders/update-order';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { OrderUpdate } from '../../shared/orders/schemas/order-requests';
import { ORDER_EXPAND } from './expand';

export const route = defineRoute({
  id: 'orders.update',
  method: 'PATCH',
  path: '/v1/orders/{id}',
  tag: 'Orders',
  summary: 'Update an order header',
  description:
    'Send only the fields to change; totals are recalculated in the same transaction. A cancelled, voided, fulfilled, posted (invoice) or paid document accepts notes, internal_notes and metadata only (409 order_locked with current_status, reason and suggested_action).',
  scopes: ['orders:write'],
  params: idParams,
  body: OrderUpdate,
  response: Order,
  expand: ORDER_EXPAND,
  errors: ['order_locked', 'party_archived', 'external_id_taken'],
  current: (ctx, { params }) => getOrder(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { order, previous } = await updateOrder(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('order.updated', order, previous);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
