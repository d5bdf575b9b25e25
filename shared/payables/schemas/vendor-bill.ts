/** Vendor bills (accounts payable invoices, E13, E21, E22): the resource, its lines and the request bodies. */
import * as z from 'zod';
import { decimalInput, MONEY_SCALE, QUANTITY_SCALE } from '../../money';
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const VENDOR_BILL_STATUSES = ['draft', 'pending_approval', 'approved', 'rejected', 'open', 'partially_paid', 'paid', 'voided'] as const;
export type VendorBillStatus = (typeof VENDOR_BILL_STATUSES)[number];

export const VendorBillLine = z
  .object({
    id: id(),
    object: z.literal('vendor_bill_line'),
    livemode: livemode(),
    type: z.enum(['expense', 'item']).describe('expense: a GL account and an amount; item: a product, a quantity and a unit cost.'),
    account_id: id().nullable().describe('Expense lines: the GL account debited when the bill is posted.'),
    product_id: id().nullable().describe('Item lines: the product billed.'),
    quantity: z.number().nullable().describe('Item lines: units billed (4 decimals).'),
    unit_cost: z.number().nullable().describe('Item lines: cost per unit (4 decimals).'),
    amount: z.number().describe('Expense lines: as sent; item lines: quantity × unit_cost rounded to the cent.'),
    description: z.string().nullable(),
    po_line_id: id()
      .nullable()
      .describe('Item lines billed from a purchase order: the purchase order line they bill (three-way match against its received units).'),
    receipt_cost: z
      .number()
      .nullable()
      .describe(
        'Item lines from a purchase order, once the bill is posted: the received-not-billed amount the line cleared (the cost its receipts were booked at); amount − receipt_cost went to purchase_price_variance. Null before posting and on other lines.',
      ),
    product: z.unknown().optional().describe('The product, with expand[]=lines.product.'),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'VendorBillLine' });
export type VendorBillLine = z.infer<typeof VendorBillLine>;

export const VendorBill = z
  .object({
    id: id(),
    object: z.literal('vendor_bill'),
    livemode: livemode(),
    entity_id: id(),
    vendor_id: id(),
    po_id: id().nullable().describe('The purchase order this bill bills (three-way match): its item lines name the purchase order lines in po_line_id.'),
    payment_term_id: id().nullable().describe('The payment terms due_date was computed from.'),
    bill_number: z.string().describe('Sequential per entity and gap-free (BILL-000001).'),
    vendor_invoice_number: z.string().nullable().describe("The vendor's own invoice number; unique per vendor among bills that are not voided."),
    status: z
      .enum(VENDOR_BILL_STATUSES)
      .describe(
        'draft → pending_approval (submit) → approved (approve) or rejected (reject; editable and submittable again, like a draft) → open (post) → partially_paid → paid; voided. open is not in the spec enum but is the status the spec gives a posted bill.',
      ),
    bill_date: isoDate(),
    due_date: isoDate(),
    subtotal: z.number().describe('Sum of the line amounts.'),
    tax_total: z.number(),
    shipping_total: z.number(),
    bill_total: z.number().describe('subtotal + tax_total + shipping_total.'),
    amount_paid: z.number(),
    balance_due: z
      .number()
      .describe('bill_total − amount_paid; never coerced to 0 by the lifecycle (a voided bill keeps it). There is no amount_due on this resource.'),
    currency: z.string(),
    notes: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_by_user_id: id().nullable().describe('The user of the key that created the bill; may neither approve nor post it.'),
    submitted_by: id().nullable(),
    submitted_at: timestamp().nullable(),
    approved_by: id().nullable(),
    approved_at: timestamp().nullable(),
    rejected_by: id().nullable(),
    rejected_at: timestamp().nullable(),
    rejection_reason: z.string().nullable(),
    posted_by: id().nullable(),
    posted_at: timestamp().nullable(),
    skip_permission_check: z.boolean().describe('True when the bill was posted with the migration carve-out (approval and segregation of duties skipped).'),
    journal_entry_id: id().nullable().describe('The AP journal entry written at posting.'),
    voided_by: id().nullable(),
    voided_at: timestamp().nullable(),
    void_journal_entry_id: id().nullable().describe('The reversal of the AP journal entry, when a posted bill was voided.'),
    lines: z.array(VendorBillLine).optional().describe('With expand[]=lines (always present on line routes).'),
    payments: z.array(z.unknown()).optional().describe('With expand[]=payments: the AP payments applied to the bill.'),
    gl_entries: z.array(z.unknown()).optional().describe('With expand[]=gl_entries: the posting and its reversal, if voided.'),
    vendor: z.unknown().optional().describe('With expand[]=vendor.'),
    purchase_order: z.unknown().optional().describe('With expand[]=purchase_order (null when po_id is null).'),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'VendorBill' });
export type VendorBill = z.infer<typeof VendorBill>;

const description = () => optionalText(1000).describe('Free text shown on the line.');
const money = () => decimalInput({ scale: MONEY_SCALE, min: 0 });

export const VendorBillLineCreate = z.strictObject({
  type: z.enum(['expense', 'item']).describe('expense: send account_id and amount; item: send product_id, quantity and unit_cost.'),
  account_id: id().optional().describe('Expense lines (required): an active GL account of the entity, not accounts payable.'),
  amount: money().optional().describe('Expense lines (required): 2 decimals, at least 0.'),
  product_id: id().optional().describe('Item lines (required): a product of the entity.'),
  quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }).optional().describe('Item lines (required): greater than 0, 4 decimals.'),
  unit_cost: decimalInput({ scale: QUANTITY_SCALE, min: 0 }).optional().describe('Item lines (required): at least 0, 4 decimals.'),
  po_line_id: id()
    .optional()
    .describe(
      "Item lines billed from a purchase order: a line of the bill's purchase order (or of the po_id sent). product_id defaults to the line's product, quantity to its received units not billed yet, unit_cost to its unit cost. The quantity may not exceed received − billed (422 bill_quantity_exceeds_received).",
    ),
  description: description(),
});
export type VendorBillLineCreate = z.infer<typeof VendorBillLineCreate>;

export const VendorBillLineUpdate = z.strictObject({
  account_id: id().optional().describe('Expense lines only.'),
  amount: money().optional().describe('Expense lines only.'),
  product_id: id().optional().describe('Item lines only.'),
  quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }).optional().describe('Item lines only.'),
  unit_cost: decimalInput({ scale: QUANTITY_SCALE, min: 0 }).optional().describe('Item lines only.'),
  description: description(),
});
export type VendorBillLineUpdate = z.infer<typeof VendorBillLineUpdate>;

export const VendorBillCreate = z.strictObject({
  vendor_id: id()
    .optional()
    .describe(
      "A vendor of the entity that is not archived. Required unless po_id is sent (the purchase order's vendor, 422 purchase_order_vendor_mismatch if another).",
    ),
  po_id: id()
    .optional()
    .describe(
      "Bill a purchase order (three-way match). Without lines, the bill takes one item line per purchase order line with received units not billed yet (quantity received − billed, unit_cost the line's); 422 purchase_order_nothing_to_bill when there are none. With lines, item lines name po_line_id.",
    ),
  vendor_invoice_number: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe("The vendor's invoice number; 409 vendor_invoice_number_taken names the existing bill."),
  bill_date: isoDate().optional().describe('Defaults to today (UTC).'),
  due_date: isoDate().optional().describe('Defaults to bill_date + the net days of payment_term_id, else bill_date (due on receipt).'),
  payment_term_id: id().nullable().optional().describe('Payment terms of the entity (net days; /v1/payment-terms).'),
  tax_total: money().optional().describe('Purchase tax billed; posted with the cost (cost_of_goods_sold). Defaults to 0.'),
  shipping_total: money().optional().describe('Freight billed; posted with the cost (cost_of_goods_sold). Defaults to 0.'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional()
    .describe("ISO 4217 code; defaults to the vendor's currency."),
  notes: optionalText(5000),
  metadata: metadata().optional(),
  lines: z
    .array(VendorBillLineCreate)
    .max(200)
    .optional()
    .describe('Up to 200 lines; more with POST /v1/vendor-bills/{id}/lines. With po_id and no lines, the lines come from the purchase order.'),
});
export type VendorBillCreate = z.infer<typeof VendorBillCreate>;

export const VendorBillUpdate = z.strictObject({
  vendor_id: id().optional(),
  vendor_invoice_number: z.string().trim().min(1).max(100).nullable().optional(),
  bill_date: isoDate().optional(),
  due_date: isoDate().optional(),
  payment_term_id: id().nullable().optional(),
  tax_total: money().optional(),
  shipping_total: money().optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  notes: optionalText(5000),
  metadata: metadata().optional(),
});
export type VendorBillUpdate = z.infer<typeof VendorBillUpdate>;

export const VendorBillRejection = z.strictObject({
  reason: z.string().trim().min(1).max(1000).describe('Why the bill is rejected; kept as rejection_reason.'),
});

export const VendorBillPosting = z.strictObject({
  skip_permission_check: z
    .boolean()
    .optional()
    .describe('Migration-only carve-out: posts without approval and without the segregation-of-duties check. Requires the migration:write scope.'),
});
