import { listOrders } from '../../shared/orders/order-reads';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { DOCUMENT_TYPES, Order, ORDER_STATUSES, PAYMENT_STATUSES } from '../../shared/orders/schemas/order';
import { ORDER_EXPAND } from './expand';

export const route = defineRoute({
  id: 'orders.list',
  method: 'GET',
  path: '/v1/orders',
  tag: 'Orders',
  summary: 'List orders of one document type',
  description:
    'document_type is required: one resource holds quotes, sales orders, invoices, returns and purchase orders, and a list always shows one kind. Newest first; deleted orders are left out, archived ones unless archived=true or all. Lines and adjustments come with expand[]=data.lines and expand[]=data.adjustments, the account with expand[]=data.account.',
  scopes: ['orders:read'],
  query: listQuery({
    document_type: param.oneOf(DOCUMENT_TYPES, 'Required: the kind of document to list.', { required: true }),
    order_status: param.oneOf(ORDER_STATUSES),
    payment_status: param.oneOf(PAYMENT_STATUSES),
    account_id: param.id('Only documents of this account (vendor, for purchase orders).'),
    external_order_id: param.text({ max: 200 }),
    sales_channel_id: param.id('Only documents that came through this sales channel.'),
    created_gte: param.timestamp('Only documents created at or after this time.'),
    created_lte: param.timestamp('Only documents created at or before this time.'),
    order_date_gte: param.timestamp('Only documents with order_date at or after this time.'),
    order_date_lte: param.timestamp('Only documents with order_date at or before this time.'),
    archived: param.oneOf(
      ['false', 'true', 'all'],
      'Archived documents are left out unless asked for: true lists only archived ones, all lists both. Default false.',
    ),
    expired: param.flag('true: only quotes past their expires_at (still draft or confirmed); false: every document but those.'),
  }),
  response: listEnvelope(Order),
  list: true,
  expand: ORDER_EXPAND,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listOrders(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
