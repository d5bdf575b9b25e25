import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { postBill } from '../../shared/payables/bill-lifecycle';
import { VendorBill, VendorBillPosting } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.post',
  method: 'POST',
  path: '/v1/vendor-bills/{id}/post',
  tag: 'Vendor bills',
  summary: 'Post a vendor bill',
  description:
    "E13. approved → open (the status the spec gives a posted bill; open joins the status enum), recording posted_by and posted_at, and writes the AP journal entry dated bill_date (journal_entry_id): each expense line debits its account; an item line billed from a purchase order debits received_not_billed at the cost its receipts were booked at (receipt_cost on the line: the line's received-not-billed pool in proportion to the units billed, rounded half away from zero to the cent, the last units taking what is left) and posts the difference between the billed amount and that cost to purchase_price_variance (debit when the bill costs more, credit when less); any other item line (no receipt, no stock moved) debits cost of goods sold, as tax_total and shipping_total do; and accounts payable is credited bill_total. Segregation of duties: the key's user (the user who created the key) must not be the user who created the bill (403 segregation_of_duties). skip_permission_check true is the migration carve-out for loading open payables: it needs the migration:write scope (403 insufficient_scope, required migration:write), posts a bill in any status before open without approval and without the segregation check, and is recorded on the bill (skip_permission_check) and in the journal entry's metadata. A closed period is 422 period_closed on bill_date. Idempotency-Key supported. Emits vendor_bill.posted.",
  scopes: ['purchasing:write'],
  params: idParams,
  body: VendorBillPosting,
  response: VendorBill,
  expand: VENDOR_BILL_EXPAND,
  errors: [
    'vendor_bill_invalid_transition',
    'vendor_bill_empty',
    'segregation_of_duties',
    'period_closed',
    'gl_account_inactive',
    'bill_quantity_exceeds_received',
  ],
  handler: async (ctx, { params, body }) => {
    const { bill, previous } = await postBill(ctx.db, ctx, params.id, { skipPermissionCheck: body.skip_permission_check ?? false });
    await ctx.events.record('vendor_bill.posted', bill, previous);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
