import { convertOrder } from '../../shared/orders/order-lifecycle';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.convert',
  method: 'POST',
  path: '/v1/orders/{id}/convert',
  tag: 'Orders',
  summary: 'Convert a quote to a sales order, or invoice a sales order',
  description:
    'A draft or confirmed quote becomes a new draft sales order (every line, the order-level adjustments and shipping; once per quote while that sales order lives). A confirmed, partially fulfilled or fulfilled sales order gives a new draft invoice for its unbilled quantities (quantity minus what its live invoices bill); percentage adjustments go on every invoice, fixed-amount ones and shipping on the first. The invoice carries what the sales order already shipped of those quantities and never draws stock again. The new document names its source in converted_from_id; the source is unchanged. Confirm the invoice to post it. Refusals are 409 order_invalid_transition with current_status and reason (not_allowed, already_converted, nothing_to_bill). Answers 201 with the new document; emits order.converted and order.created.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  successStatus: 201,
  errors: ['order_invalid_transition'],
  handler: async (ctx, { params }) => {
    const { order } = await convertOrder(ctx.db, ctx, params.id);
    await ctx.events.record('order.created', order);
    await ctx.events.record('order.converted', order);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
