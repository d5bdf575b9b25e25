import { createReturn } from '../../shared/orders/order-returns';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { OrderReturnCreate } from '../../shared/orders/schemas/order-returns';

export const route = defineRoute({
  id: 'orders.returns.create',
  method: 'POST',
  path: '/v1/orders/{id}/returns',
  tag: 'Orders',
  summary: 'Create a return from a shipped sales order or a posted invoice',
  description:
    "Creates a draft return (RMA-) naming its source (source_order_id) and, per line, the source line (source_line_id), at the source's sell rates net of its discounts and with its tax rates (totals by the totals engine). What a source line may still return: what shipped, less what live (non-cancelled) returns already take back; on a sales order also less what invoices bill (those units are returned against their invoice, which credits the customer). More is 422 return_quantity_exceeded naming lines[i].quantity, and nothing is written. A kit's line is named; its component lines come along in proportion (they are what is restocked). restock (default true) says whether received goods go back into stock; reason is kept. Confirm it (POST /v1/orders/{id}/confirm): a return from an invoice posts its credit memo. Receive it with POST /v1/orders/{id}/receive-return. Emits return.created and order.created.",
  scopes: ['orders:write'],
  params: idParams,
  body: OrderReturnCreate,
  response: Order,
  successStatus: 201,
  errors: ['order_invalid_transition', 'return_quantity_exceeded'],
  handler: async (ctx, { params, body }) => {
    const order = await createReturn(ctx.db, ctx, params.id, body);
    await ctx.events.record('order.created', order);
    await ctx.events.record('return.created', order);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
