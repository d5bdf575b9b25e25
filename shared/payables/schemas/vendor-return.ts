/** Vendor returns: received goods of a purchase order going back to the vendor, for a vendor credit. */
import * as z from 'zod/mini';
import { decimalInput, QUANTITY_SCALE } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const VendorReturnCreate = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        line_id: id().check(z.describe('A line of the purchase order with units received.')),
        quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }).check(
          z.describe('Units returned now: at most the units received less those already returned.'),
        ),
        location_id: z.optional(id()).check(z.describe("Where the units leave from; default the return's location_id, else the purchase order's location.")),
      }),
    )
    .check(z.minLength(1), z.maxLength(500)),
  location_id: z.optional(id()).check(z.describe("Default location of the lines; default the purchase order's location.")),
  returned_at: z
    .optional(timestamp().check(z.refine((value) => Date.parse(value) <= Date.now() + 5 * 60_000, { message: 'must not be in the future' })))
    .check(z.describe('When the goods left; default now. Dates the inventory transactions, the GL entry and the credit (credit_date).')),
  reason: optionalText(1000),
  metadata: z.optional(metadata()),
});
export type VendorReturnCreate = z.infer<typeof VendorReturnCreate>;

export const VendorReturn = z
  .object({
    id: id().check(z.describe('The return: source_id of its vendor credit and of its GL entry, group_id of its inventory transactions.')),
    object: z.literal('vendor_return'),
    livemode: livemode(),
    entity_id: id(),
    return_number: z.string().check(z.describe('Sequential per entity and gap-free (VR-000001).')),
    order_id: id().check(z.describe('The purchase order the goods were received on.')),
    order_number: z.string(),
    vendor_id: id(),
    returned_at: timestamp(),
    lines: z.array(
      z.object({
        id: id(),
        line_id: id().check(z.describe('The purchase order line.')),
        product_id: id(),
        location_id: id(),
        quantity: z.number().check(z.describe('Units returned by this return.')),
        quantity_received: z.number().check(z.describe("The purchase order line's units received.")),
        quantity_returned: z.number().check(z.describe("The line's units returned to the vendor so far, this return included.")),
        unit_credit: z.number().check(z.describe("The purchase order line's unit cost: what the vendor credits per unit.")),
        credit_amount: z.number().check(z.describe('quantity × unit_credit, in cents.')),
        inventory_cost: z.number().check(z.describe("The value the units took from the stock valuation: their FIFO layers' cents.")),
        inventory_transaction_id: id().check(z.describe('The vendor_return inventory transaction (negative quantity).')),
      }),
    ),
    credit_amount: z.number().check(z.describe('The vendor credit issued: Σ line credit_amount, in cents.')),
    inventory_cost: z
      .number()
      .check(
        z.describe(
          "Credited to inventory: the value the units took from the stock valuation (their FIFO layers' cents), so the inventory account keeps tying to it.",
        ),
      ),
    purchase_price_variance: z
      .number()
      .check(z.describe('credit_amount − inventory_cost: credited (positive) or debited (negative) to purchase_price_variance, in cents.')),
    vendor_credit_id: z.nullable(id()).check(z.describe('The vendor credit (source_type vendor_return, source_id this return); null when the credit is 0.')),
    journal_entry_id: z
      .nullable(id())
      .check(z.describe('Debit cost_of_goods_sold the credit amount, credit inventory the FIFO cost, the difference to purchase_price_variance.')),
    reason: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    created_by_user_id: z.nullable(id()),
    created_at: timestamp(),
  })
  .register(z.globalRegistry, {
    id: 'VendorReturn',
    description: 'Received goods of a purchase order returned to the vendor, and the vendor credit they earned.',
  });
export type VendorReturn = z.infer<typeof VendorReturn>;
