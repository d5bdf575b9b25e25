/** Vendor bills (accounts payable invoices, E13, E21, E22): the resource, its lines and the request bodies. */
import * as z from 'zod/mini';
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
    type: z.enum(['expense', 'item']).check(z.describe('expense: a GL account and an amount; item: a product, a quantity and a unit cost.')),
    account_id: z.nullable(id()).check(z.describe('Expense lines: the GL account debited when the bill is posted.')),
    product_id: z.nullable(id()).check(z.describe('Item lines: the product billed.')),
    quantity: z.nullable(z.number()).check(z.describe('Item lines: units billed (4 decimals).')),
    unit_cost: z.nullable(z.number()).check(z.describe('Item lines: cost per unit (4 decimals).')),
    amount: z.number().check(z.describe('Expense lines: as sent; item lines: quantity × unit_cost rounded to the cent.')),
    description: z.nullable(z.string()),
    po_line_id: z
      .nullable(id())
      .check(z.describe('Item lines billed from a purchase order: the purchase order line they bill (three-way match against its received units).')),
    receipt_cost: z
      .nullable(z.number())
      .check(
        z.describe(
          'Item lines from a purchase order, once the bill is posted: the received-not-billed amount the line cleared (the cost its receipts were booked at); amount − receipt_cost went to purchase_price_variance. Null before posting and on other lines.',
        ),
      ),
    product: z.optional(z.unknown()).check(z.describe('The product, with expand[]=lines.product.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'VendorBillLine' });
export type VendorBillLine = z.infer<typeof VendorBillLine>;

export const VendorBill = z
  .object({
    id: id(),
    object: z.literal('vendor_bill'),
    livemode: livemode(),
    entity_id: id(),
    vendor_id: id(),
    po_id: z
      .nullable(id())
      .check(z.describe('The purchase order this bill bills (three-way match): its item lines name the purchase order lines in po_line_id.')),
    payment_term_id: z.nullable(id()).check(z.describe('The payment terms due_date was computed from.')),
    bill_number: z.string().check(z.describe('Sequential per entity and gap-free (BILL-000001).')),
    vendor_invoice_number: z.nullable(z.string()).check(z.describe("The vendor's own invoice number; unique per vendor among bills that are not voided.")),
    status: z
      .enum(VENDOR_BILL_STATUSES)
      .check(
        z.describe(
          'draft → pending_approval (submit) → approved (approve) or rejected (reject; editable and submittable again, like a draft) → open (post) → partially_paid → paid; voided. open is not in the spec enum but is the status the spec gives a posted bill.',
        ),
      ),
    bill_date: isoDate(),
    due_date: isoDate(),
    subtotal: z.number().check(z.describe('Sum of the line amounts.')),
    tax_total: z.number(),
    shipping_total: z.number(),
    bill_total: z.number().check(z.describe('subtotal + tax_total + shipping_total.')),
    amount_paid: z.number(),
    balance_due: z
      .number()
      .check(z.describe('bill_total − amount_paid; never coerced to 0 by the lifecycle (a voided bill keeps it). There is no amount_due on this resource.')),
    currency: z.string(),
    notes: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    created_by_user_id: z.nullable(id()).check(z.describe('The user of the key that created the bill; may neither approve nor post it.')),
    submitted_by: z.nullable(id()),
    submitted_at: z.nullable(timestamp()),
    approved_by: z.nullable(id()),
    approved_at: z.nullable(timestamp()),
    rejected_by: z.nullable(id()),
    rejected_at: z.nullable(timestamp()),
    rejection_reason: z.nullable(z.string()),
    posted_by: z.nullable(id()),
    posted_at: z.nullable(timestamp()),
    skip_permission_check: z
      .boolean()
      .check(z.describe('True when the bill was posted with the migration carve-out (approval and segregation of duties skipped).')),
    journal_entry_id: z.nullable(id()).check(z.describe('The AP journal entry written at posting.')),
    voided_by: z.nullable(id()),
    voided_at: z.nullable(timestamp()),
    void_journal_entry_id: z.nullable(id()).check(z.describe('The reversal of the AP journal entry, when a posted bill was voided.')),
    lines: z.optional(z.array(VendorBillLine)).check(z.describe('With expand[]=lines (always present on line routes).')),
    payments: z.optional(z.array(z.unknown())).check(z.describe('With expand[]=payments: the AP payments applied to the bill.')),
    gl_entries: z.optional(z.array(z.unknown())).check(z.describe('With expand[]=gl_entries: the posting and its reversal, if voided.')),
    vendor: z.optional(z.unknown()).check(z.describe('With expand[]=vendor.')),
    purchase_order: z.optional(z.unknown()).check(z.describe('With expand[]=purchase_order (null when po_id is null).')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'VendorBill' });
export type VendorBill = z.infer<typeof VendorBill>;

const description = () => optionalText(1000).check(z.describe('Free text shown on the line.'));
const money = () => decimalInput({ scale: MONEY_SCALE, min: 0 });

export const VendorBillLineCreate = z.strictObject({
  type: z.enum(['expense', 'item']).check(z.describe('expense: send account_id and amount; item: send product_id, quantity and unit_cost.')),
  account_id: z.optional(id()).check(z.describe('Expense lines (required): an active GL account of the entity, not accounts payable.')),
  amount: z.optional(money()).check(z.describe('Expense lines (required): 2 decimals, at least 0.')),
  product_id: z.optional(id()).check(z.describe('Item lines (required): a product of the entity.')),
  quantity: z
    .optional(decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }))
    .check(z.describe('Item lines (required): greater than 0, 4 decimals.')),
  unit_cost: z.optional(decimalInput({ scale: QUANTITY_SCALE, min: 0 })).check(z.describe('Item lines (required): at least 0, 4 decimals.')),
  po_line_id: z
    .optional(id())
    .check(
      z.describe(
        "Item lines billed from a purchase order: a line of the bill's purchase order (or of the po_id sent). product_id defaults to the line's product, quantity to its received units not billed yet, unit_cost to its unit cost. The quantity may not exceed received − billed (422 bill_quantity_exceeds_received).",
      ),
    ),
  description: description(),
});
export type VendorBillLineCreate = z.infer<typeof VendorBillLineCreate>;

export const VendorBillLineUpdate = z.strictObject({
  account_id: z.optional(id()).check(z.describe('Expense lines only.')),
  amount: z.optional(money()).check(z.describe('Expense lines only.')),
  product_id: z.optional(id()).check(z.describe('Item lines only.')),
  quantity: z.optional(decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true })).check(z.describe('Item lines only.')),
  unit_cost: z.optional(decimalInput({ scale: QUANTITY_SCALE, min: 0 })).check(z.describe('Item lines only.')),
  description: description(),
});
export type VendorBillLineUpdate = z.infer<typeof VendorBillLineUpdate>;

export const VendorBillCreate = z.strictObject({
  vendor_id: z
    .optional(id())
    .check(
      z.describe(
        "A vendor of the entity that is not archived. Required unless po_id is sent (the purchase order's vendor, 422 purchase_order_vendor_mismatch if another).",
      ),
    ),
  po_id: z
    .optional(id())
    .check(
      z.describe(
        "Bill a purchase order (three-way match). Without lines, the bill takes one item line per purchase order line with received units not billed yet (quantity received − billed, unit_cost the line's); 422 purchase_order_nothing_to_bill when there are none. With lines, item lines name po_line_id.",
      ),
    ),
  vendor_invoice_number: z
    .optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))))
    .check(z.describe("The vendor's invoice number; 409 vendor_invoice_number_taken names the existing bill.")),
  bill_date: z.optional(isoDate()).check(z.describe('Defaults to today (UTC).')),
  due_date: z.optional(isoDate()).check(z.describe('Defaults to bill_date + the net days of payment_term_id, else bill_date (due on receipt).')),
  payment_term_id: z.optional(z.nullable(id())).check(z.describe('Payment terms of the entity (net days; /v1/payment-terms).')),
  tax_total: z.optional(money()).check(z.describe('Purchase tax billed; posted with the cost (cost_of_goods_sold). Defaults to 0.')),
  shipping_total: z.optional(money()).check(z.describe('Freight billed; posted with the cost (cost_of_goods_sold). Defaults to 0.')),
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/))).check(z.describe("ISO 4217 code; defaults to the vendor's currency.")),
  notes: optionalText(5000),
  metadata: z.optional(metadata()),
  lines: z
    .optional(z.array(VendorBillLineCreate).check(z.maxLength(200)))
    .check(z.describe('Up to 200 lines; more with POST /v1/vendor-bills/{id}/lines. With po_id and no lines, the lines come from the purchase order.')),
});
export type VendorBillCreate = z.infer<typeof VendorBillCreate>;

export const VendorBillUpdate = z.strictObject({
  vendor_id: z.optional(id()),
  vendor_invoice_number: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))),
  bill_date: z.optional(isoDate()),
  due_date: z.optional(isoDate()),
  payment_term_id: z.optional(z.nullable(id())),
  tax_total: z.optional(money()),
  shipping_total: z.optional(money()),
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/))),
  notes: optionalText(5000),
  metadata: z.optional(metadata()),
});
export type VendorBillUpdate = z.infer<typeof VendorBillUpdate>;

export const VendorBillRejection = z.strictObject({
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000), z.describe('Why the bill is rejected; kept as rejection_reason.')),
});

export const VendorBillPosting = z.strictObject({
  skip_permission_check: z
    .optional(z.boolean())
    .check(z.describe('Migration-only carve-out: posts without approval and without the segregation-of-duties check. Requires the migration:write scope.')),
});
