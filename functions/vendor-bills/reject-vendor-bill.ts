import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { rejectBill } from '../../shared/payables/bill-lifecycle';
import { VendorBill, VendorBillRejection } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.reject',
  method: 'POST',
  path: '/v1/vendor-bills/{id}/reject',
  tag: 'Vendor bills',
  summary: 'Reject a vendor bill',
  description:
    "pending_approval → rejected with a reason (rejected_by, rejected_at, rejection_reason). A rejected bill is back in the editing stage: its fields and lines change as a draft's do and it can be submitted again. Needs the purchasing.approve_bills permission (403 insufficient_permissions). Any other status is 409 vendor_bill_invalid_transition. Emits vendor_bill.rejected.",
  scopes: ['purchasing:write'],
  params: idParams,
  body: VendorBillRejection,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition', 'insufficient_permissions'],
  handler: async (ctx, { params, body }) => {
    const { bill, previous } = await rejectBill(ctx.db, ctx, params.id, body.reason);
    await ctx.events.record('vendor_bill.rejected', bill, previous);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
