import { param, pathParams } from '../../shared/schemas/parameters';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { updateBillLine, getBillLine } from '../../shared/payables/vendor-bill-lines';
import { VendorBill, VendorBillLineUpdate } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.lines.update',
  method: 'PATCH',
  path: '/v1/vendor-bills/{id}/lines/{line_id}',
  tag: 'Vendor bills',
  summary: 'Update a line of a vendor bill',
  description:
    "Send only the fields to change, of the line's own type (account_id and amount on expense lines; product_id, quantity and unit_cost on item lines; 400 parameter_invalid naming a field of the other type). A line billing a purchase order line keeps that line's product, and a new quantity is matched against its received units less the other bills' (422 bill_quantity_exceeds_received). Draft or rejected bills only (409 vendor_bill_invalid_transition). Returns the bill with its lines. Emits vendor_bill.updated.",
  scopes: ['purchasing:write'],
  params: pathParams({ id: param.id('The bill id.'), line_id: param.id('The line id.') }),
  body: VendorBillLineUpdate,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition', 'gl_account_inactive', 'gl_account_control', 'bill_quantity_exceeds_received'],
  current: (ctx, { params }) => getBillLine(ctx.db, ctx.entityId, params.id, params.line_id),
  handler: async (ctx, { params, body }) => {
    const bill = await updateBillLine(ctx.db, ctx.entityId, params.id, params.line_id, body);
    await ctx.events.record('vendor_bill.updated', bill);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
