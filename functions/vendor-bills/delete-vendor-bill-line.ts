import { param, pathParams } from '../../shared/schemas/parameters';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deleteBillLine, getBillLine } from '../../shared/payables/vendor-bill-lines';
import { VendorBill } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.lines.delete',
  method: 'DELETE',
  path: '/v1/vendor-bills/{id}/lines/{line_id}',
  tag: 'Vendor bills',
  summary: 'Delete a line of a vendor bill',
  description:
    'Draft or rejected bills only (409 vendor_bill_invalid_transition). A line billing a purchase order line gives its units back to that line (billed_quantity). Returns the bill with its remaining lines and recalculated totals. Emits vendor_bill.updated.',
  scopes: ['purchasing:write'],
  params: pathParams({ id: param.id('The bill id.'), line_id: param.id('The line id.') }),
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition'],
  current: (ctx, { params }) => getBillLine(ctx.db, ctx.entityId, params.id, params.line_id),
  handler: async (ctx, { params }) => {
    const bill = await deleteBillLine(ctx.db, ctx.entityId, params.id, params.line_id);
    await ctx.events.record('vendor_bill.updated', bill);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
