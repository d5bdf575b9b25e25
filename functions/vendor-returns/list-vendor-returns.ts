import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { listVendorReturns } from '../../shared/payables/vendor-returns';
import { VendorReturn } from '../../shared/payables/schemas/vendor-return';

export const route = defineRoute({
  id: 'vendor_returns.list',
  method: 'GET',
  path: '/v1/vendor-returns',
  tag: 'Purchasing',
  summary: 'List vendor returns',
  description:
    'Newest first, cursor-paginated (limit at most 100), each return with its lines as GET /v1/vendor-returns/{id} gives it. Filters: vendor_id, order_id (the purchase order the goods came from), created_gte and created_lte (timestamps, inclusive). A return is not voided: void its vendor credit to withdraw the claim.',
  scopes: ['purchasing:read'],
  query: listQuery({
    vendor_id: param.id("This vendor's returns."),
    order_id: param.id('Returns of goods received on this purchase order.'),
    created_gte: param.timestamp('Created at or after this instant.'),
    created_lte: param.timestamp('Created at or before this instant.'),
  }),
  response: listEnvelope(VendorReturn),
  list: true,
  handler: (ctx, { query }) =>
    listVendorReturns(
      ctx.db,
      ctx.entityId,
      { vendor_id: query.vendor_id, order_id: query.order_id, created_gte: query.created_gte, created_lte: query.created_lte },
      query,
    ),
});

export const handler = lambdaHandler(route);
