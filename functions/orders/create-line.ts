import { addLine } from '../../shared/orders/add-line';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { OrderLineCreate } from '../../shared/orders/schemas/order-requests';
import { ORDER_EXPAND } from './expand';

export const route = defineRoute({
  id: 'orders.lines.create',
  method: 'POST',
  path: '/v1/orders/{id}/lines',
  tag: 'Orders',
  summary: 'Add a line to an order',
  description:
    'Priced like the lines of POST /v1/orders. Returns the order (201) with the new line and the recalculated totals. A cancelled, voided, fulfilled, posted or paid document refuses new lines (409 order_locked).',
  scopes: ['orders:write'],
  params: idParams,
  body: OrderLineCreate,
  response: Order,
  successStatus: 201,
  expand: ORDER_EXPAND,
  errors: ['order_locked'],
  handler: async (ctx, { params, body }) => {
    const order = await addLine(ctx.db, ctx.entityId, params.id, body);
    await ctx.events.record('order.updated', order);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
