import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { approveBill } from '../../shared/payables/bill-lifecycle';
import { VendorBill } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.approve',
  method: 'POST',
  path: '/v1/vendor-bills/{id}/approve',
  tag: 'Vendor bills',
  summary: 'Approve a vendor bill',
  description:
    "pending_approval → approved, recording approved_by and approved_at. The key's user (the user who created the key) needs the purchasing.approve_bills permission (403 insufficient_permissions naming it) and must not be the user who created the bill (403 segregation_of_duties). Any other status is 409 vendor_bill_invalid_transition. Emits vendor_bill.approved.",
  scopes: ['purchasing:write'],
  params: idParams,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition', 'insufficient_permissions', 'segregation_of_duties'],
  handler: async (ctx, { params }) => {
    const { bill, previous } = await approveBill(ctx.db, ctx, params.id);
    await ctx.events.record('vendor_bill.approved', bill, previous);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
