import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { getBill } from '../../shared/payables/vendor-bills';
import { VendorBill } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.get',
  method: 'GET',
  path: '/v1/vendor-bills/{id}',
  tag: 'Vendor bills',
  summary: 'Retrieve a vendor bill',
  description:
    'E21. expand[]: lines, lines.product, payments (the AP payments applied to the bill, voided ones included with status voided), gl_entries (the AP entry and, for a voided bill, its reversal), vendor, purchase_order (the purchase order the bill bills, with its lines and their billed_quantity; null without po_id).',
  scopes: ['purchasing:read'],
  params: idParams,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  handler: (ctx, { params }) => getBill(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
