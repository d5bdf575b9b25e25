import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { voidBill } from '../../shared/payables/bill-lifecycle';
import { VendorBill } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.void',
  method: 'POST',
  path: '/v1/vendor-bills/{id}/void',
  tag: 'Vendor bills',
  summary: 'Void a vendor bill',
  description:
    "Any status but partially_paid, paid and voided → voided (voided_by, voided_at). A posted (open) bill's AP journal entry is reversed, dated today or bill_date if later (void_journal_entry_id); a closed period there is 422 period_closed. A bill with AP payments applied is refused (409 vendor_bill_has_payments, payment_ids listing them): void those payments first (POST /v1/ap-payments/{id}/void). balance_due is not changed: the status says the bill no longer counts. Its vendor_invoice_number is free again, and the purchase order units it billed are billable again (billed_quantity goes down). Emits vendor_bill.voided.",
  scopes: ['purchasing:write'],
  params: idParams,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_bill_invalid_transition', 'vendor_bill_has_payments', 'period_closed'],
  handler: async (ctx, { params }) => {
    const { bill, previous } = await voidBill(ctx.db, ctx, params.id);
    await ctx.events.record('vendor_bill.voided', bill, previous);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
