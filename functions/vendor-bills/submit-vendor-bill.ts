import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { submitBill } from '../../shared/payables/bill-lifecycle';
import { VendorBill } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.submit',
  method: 'POST',
  path: '/v1/vendor-bills/{id}/submit',
  tag: 'Vendor bills',
  summary: 'Submit a vendor bill for approval',
  description:
    'draft or rejected → pending_approval, recording submitted_by and submitted_at. A bill without lines or with a total of 0 is 422 vendor_bill_empty; any other status is 409 vendor_bill_invalid_transition with current_status. Emits vendor_bill.submitted.',
  scopes: ['purchasing:write'],
  params: idParams,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition', 'vendor_bill_empty'],
  handler: async (ctx, { params }) => {
    const { bill, previous } = await submitBill(ctx.db, ctx, params.id);
    await ctx.events.record('vendor_bill.submitted', bill, previous);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
