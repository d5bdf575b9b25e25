import { voidInvoice } from '../../shared/orders/order-posting';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.void',
  method: 'POST',
  path: '/v1/orders/{id}/void',
  tag: 'Orders',
  summary: 'Void a posted invoice',
  description:
    'Posted invoices (confirmed, partially fulfilled or fulfilled) without payments: the AR journal entry is reversed (dated like the original), order_status becomes voided and balance_due 0. Shipped goods stay shipped (take them back with a return). Anything else is 409 order_invalid_transition with current_status. Emits order.voided.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  errors: ['order_invalid_transition', 'period_closed'],
  handler: async (ctx, { params }) => {
    const { order, previousOrder } = await voidInvoice(ctx.db, ctx, params.id);
    await ctx.events.record('order.voided', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
