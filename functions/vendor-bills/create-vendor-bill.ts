import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { createBill } from '../../shared/payables/vendor-bills';
import { VendorBill, VendorBillCreate } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.create',
  method: 'POST',
  path: '/v1/vendor-bills',
  tag: 'Vendor bills',
  summary: 'Create a vendor bill',
  description:
    "A draft bill from a vendor of the entity, with expense lines (a GL account and an amount) and item lines (a product, a quantity and a unit cost; amount = quantity × unit_cost to the cent). bill_number is taken from the entity's gap-free sequence (BILL-000001). bill_date defaults to today; due_date to bill_date plus the net days of payment_term_id, else bill_date. currency defaults to the vendor's. A vendor_invoice_number that another bill of the vendor (not voided) already records is 409 vendor_invoice_number_taken naming the existing bill in existing_bill_id, as QuickBooks warns of a duplicate bill number. Returns the bill with its lines. Emits vendor_bill.created.",
  scopes: ['purchasing:write'],
  body: VendorBillCreate,
  response: VendorBill,
  successStatus: 201,
  expand: VENDOR_BILL_EXPAND,
  errors: ['vendor_invoice_number_taken', 'party_archived', 'gl_account_inactive', 'gl_account_control'],
  handler: async (ctx, { body }) => {
    const bill = await createBill(ctx.db, ctx, body);
    await ctx.events.record('vendor_bill.created', bill);
    return bill;
  },
});

export const handler = lambdaHandler(route);
