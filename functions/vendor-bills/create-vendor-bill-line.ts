import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { addBillLine } from '../../shared/payables/vendor-bill-lines';
import { VendorBill, VendorBillLineCreate } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.lines.create',
  method: 'POST',
  path: '/v1/vendor-bills/{id}/lines',
  tag: 'Vendor bills',
  summary: 'Add a line to a vendor bill',
  description:
    "An expense line (type expense: account_id, amount) or an item line (type item: product_id, quantity, unit_cost; or po_line_id, a line of the bill's purchase order, or of any purchase order of its vendor when the bill has none yet, with the three-way match of POST /v1/vendor-bills) on a draft or rejected bill (409 vendor_bill_invalid_transition otherwise). Returns the bill (201) with its lines and recalculated totals. Emits vendor_bill.updated.",
  scopes: ['purchasing:write'],
  params: idParams,
  body: VendorBillLineCreate,
  response: VendorBill,
  successStatus: 201,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition', 'gl_account_inactive', 'gl_account_control', 'bill_quantity_exceeds_received', 'purchase_order_vendor_mismatch'],
  handler: async (ctx, { params, body }) => {
    const bill = await addBillLine(ctx.db, ctx.entityId, params.id, body);
    await ctx.events.record('vendor_bill.updated', bill);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
