import { cancelOrder } from '../../shared/orders/order-lifecycle';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.cancel',
  method: 'POST',
  path: '/v1/orders/{id}/cancel',
  tag: 'Orders',
  summary: 'Cancel a document',
  description:
    'Drafts and confirmed (or held) documents without payments and with nothing shipped; a posted invoice is voided instead, and an invoiced sales order needs its invoices voided first. balance_due becomes 0. Otherwise 409 order_invalid_transition with current_status and reason (not_allowed, has_payments, has_fulfillments, has_invoices). Emits order.cancelled.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  errors: ['order_invalid_transition'],
  handler: async (ctx, { params }) => {
    const { order, previousOrder } = await cancelOrder(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('order.cancelled', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
