import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { getBill, updateBill } from '../../shared/payables/vendor-bills';
import { VendorBill, VendorBillUpdate } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.update',
  method: 'PATCH',
  path: '/v1/vendor-bills/{id}',
  tag: 'Vendor bills',
  summary: 'Update a vendor bill',
  description:
    'Send only the fields to change. notes and metadata change in any status; every other field only while the bill is draft or rejected (409 vendor_bill_invalid_transition with current_status otherwise: void a submitted or posted bill and enter a new one). A new bill_date or payment_term_id recomputes due_date from the terms unless due_date is sent. Emits vendor_bill.updated.',
  scopes: ['purchasing:write'],
  params: idParams,
  body: VendorBillUpdate,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition', 'vendor_invoice_number_taken', 'party_archived', 'purchase_order_vendor_mismatch'],
  current: (ctx, { params }) => getBill(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { bill, previous } = await updateBill(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('vendor_bill.updated', bill, previous);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
