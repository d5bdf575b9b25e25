import { unarchiveOrder } from '../../shared/orders/order-archive';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.unarchive',
  method: 'POST',
  path: '/v1/orders/{id}/unarchive',
  tag: 'Orders',
  summary: 'Unarchive a document',
  description:
    'Brings an archived document back: it is listed again, takes writes again, and its balance_due is what its status and amounts give (0 on a closed sales document, as before it was archived). Unarchiving a document that is not archived answers it unchanged. Emits order.unarchived.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  handler: async (ctx, { params }) => {
    const { order, previousOrder, changed } = await unarchiveOrder(ctx.db, ctx.entityId, params.id);
    if (changed) await ctx.events.record('order.unarchived', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
