import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { listCredits } from '../../shared/payables/vendor-credits';
import { VENDOR_CREDIT_STATUSES, VendorCredit } from '../../shared/payables/schemas/vendor-credit';
import { VENDOR_CREDIT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_credits.list',
  method: 'GET',
  path: '/v1/vendor-credits',
  tag: 'Vendor credits',
  summary: 'List vendor credits',
  description: 'Newest first, cursor-paginated (limit at most 100). Filters: vendor_id, status. expand[] takes the data. prefix.',
  scopes: ['purchasing:read'],
  query: listQuery({ vendor_id: param.id("This vendor's credits."), status: param.oneOf(VENDOR_CREDIT_STATUSES, 'Credits in this status.') }),
  response: listEnvelope(VendorCredit),
  list: true,
  expand: VENDOR_CREDIT_EXPAND,
  handler: (ctx, { query }) => listCredits(ctx.db, ctx.entityId, { vendor_id: query.vendor_id, status: query.status }, query),
});

export const handler = lambdaHandler(route);
