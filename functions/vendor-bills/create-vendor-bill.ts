import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
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
    "A draft bill from a vendor of the entity, with expense lines (a GL account and an amount) and item lines (a product, a quantity and a unit cost; amount = quantity × unit_cost to the cent). bill_number is taken from the entity's gap-free sequence (BILL-000001). bill_date defaults to today; due_date to bill_date plus the net days of payment_term_id, else bill_date. currency defaults to the vendor's. A vendor_invoice_number that another bill of the vendor (not voided) already records is 409 vendor_invoice_number_taken naming the existing bill in existing_bill_id, as QuickBooks warns of a duplicate bill number. From a purchase order: po_id (vendor_id may be left out; another vendor is 422 purchase_order_vendor_mismatch) without lines bills every purchase order line's received units that no bill (not voided) holds yet, at the line's unit cost (422 purchase_order_nothing_to_bill when there are none); item lines naming po_line_id bill that line (the bill takes its purchase order), with product_id, quantity and unit_cost defaulting to the line's product, its unbilled received units and its unit cost. Three-way match: a purchase order line is billed at most its received units less the units on other bills that are not voided (drafts included); more is 422 bill_quantity_exceeds_received with param naming the line's quantity and po_line_id, received_quantity, billed_quantity and requested_quantity, and nothing is written. The purchase order lines show billed_quantity. An item line without a purchase order moves no stock: posting debits it to cost of goods sold. Returns the bill with its lines. Emits vendor_bill.created.",
  scopes: ['purchasing:write'],
  body: VendorBillCreate,
  // vendor_id or po_id: the schema leaves each optional, the handler needs one of them.
  bodyRequired: true,
  response: VendorBill,
  successStatus: 201,
  expand: VENDOR_BILL_EXPAND,
  errors: [
    'vendor_invoice_number_taken',
    'party_archived',
    'gl_account_inactive',
    'gl_account_control',
    'bill_quantity_exceeds_received',
    'purchase_order_nothing_to_bill',
    'purchase_order_vendor_mismatch',
  ],
  handler: async (ctx, { body }) => {
    const bill = await createBill(ctx.db, ctx, body);
    await ctx.events.record('vendor_bill.created', bill);
    return bill;
  },
});

export const handler = lambdaHandler(route, idempotency);
