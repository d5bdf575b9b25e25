import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { getVendorReturn } from '../../shared/payables/vendor-returns';
import { VendorReturn } from '../../shared/payables/schemas/vendor-return';

export const route = defineRoute({
  id: 'vendor_returns.get',
  method: 'GET',
  path: '/v1/vendor-returns/{id}',
  tag: 'Purchasing',
  summary: 'Retrieve a vendor return',
  description:
    "A return of received goods to the vendor (POST /v1/orders/{id}/vendor-returns): its lines with the units returned, the purchase order line's units received and returned so far, the credit per unit and the FIFO cost that left inventory; credit_amount, inventory_cost and purchase_price_variance in cents; the vendor credit it issued and its GL entry.",
  scopes: ['purchasing:read'],
  params: idParams,
  response: VendorReturn,
  handler: (ctx, { params }) => getVendorReturn(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
