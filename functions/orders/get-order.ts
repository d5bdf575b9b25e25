import { getOrder } from '../../shared/orders/order-reads';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { ORDER_EXPAND } from './expand';

export const route = defineRoute({
  id: 'orders.get',
  method: 'GET',
  path: '/v1/orders/{id}',
  tag: 'Orders',
  summary: 'Retrieve an order',
  description:
    'A single order always carries its lines (with line_editability and their shares of order-level discounts) and its adjustments; expand[]=account adds the account (the vendor on purchase orders). Deleted orders are 404.',
  scopes: ['orders:read'],
  params: idParams,
  response: Order,
  expand: ORDER_EXPAND,
  handler: (ctx, { params }) => getOrder(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
