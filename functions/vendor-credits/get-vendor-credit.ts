import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { getCredit } from '../../shared/payables/vendor-credits';
import { VendorCredit } from '../../shared/payables/schemas/vendor-credit';
import { VENDOR_CREDIT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_credits.get',
  method: 'GET',
  path: '/v1/vendor-credits/{id}',
  tag: 'Vendor credits',
  summary: 'Retrieve a vendor credit',
  description:
    'E16. The credit with amount and remaining_amount as 4-decimal strings. expand[]: vendor; source (the vendor bill of a price_adjustment credit, the vendor return of a vendor_return credit issued by POST /v1/orders/{id}/vendor-returns; null for other sources, and for a source_id sent by hand that names no return); applications (the application events, oldest first: which bill, how much, on which date, by which AP payment, and whether that payment was voided since).',
  scopes: ['purchasing:read'],
  params: idParams,
  response: VendorCredit,
  expand: VENDOR_CREDIT_EXPAND,
  handler: (ctx, { params }) => getCredit(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
