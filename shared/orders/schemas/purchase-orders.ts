/** Purchase order receipts: the request body and the receipt object (the send body is in purchase-order-send.ts). */
import * as z from 'zod/mini';
import { decimalInput, QUANTITY_SCALE } from '../../money';
import { COST_SCALE } from '../../inventory/schemas/inventory';
import { id, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const PurchaseReceiptCreate = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        line_id: id().check(z.describe('A line of the purchase order.')),
        quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }).check(z.describe('Units received now.')),
        unit_cost: z
          .optional(decimalInput({ scale: COST_SCALE, min: 0 }))
          .check(z.describe("Landed cost per unit of this receipt; default the line's unit_cost. The FIFO layer and the GL entry use it.")),
      }),
    )
    .check(z.minLength(1), z.maxLength(500)),
  location_id: z.optional(id()).check(z.describe("Where the goods arrive; default the purchase order's location. Not used for drop-ship lines.")),
  received_at: z
    .optional(timestamp().check(z.refine((value) => Date.parse(value) <= Date.now() + 5 * 60_000, { message: 'must not be in the future' })))
    .check(z.describe('When the goods arrived; default now. Dates the inventory transactions and the GL entry.')),
  notes: optionalText(2000),
});
export type PurchaseReceiptCreate = z.infer<typeof PurchaseReceiptCreate>;

export const PurchaseReceipt = z
  .object({
    id: id().check(z.describe('The receipt: group_id of its inventory transactions, metadata.receipt_id of its GL entry.')),
    object: z.literal('purchase_receipt'),
    livemode: livemode(),
    order_id: id(),
    order_number: z.string(),
    order_status: z
      .enum(['confirmed', 'partially_fulfilled', 'fulfilled'])
      .check(z.describe('partially_fulfilled: partly received; fulfilled: fully received.')),
    fulfillment_status: z.enum(['unfulfilled', 'partially_fulfilled', 'fulfilled']),
    previous_order_status: z.string(),
    location_id: z.nullable(id()).check(z.describe('Where stock arrived; null when every line received was drop-shipped.')),
    received_at: timestamp(),
    lines: z.array(
      z.object({
        line_id: id(),
        product_id: id(),
        quantity: z.number().check(z.describe('Received now.')),
        quantity_received: z.number().check(z.describe("The line's total received (its quantity_fulfilled and received_floor).")),
        unit_cost: z.number(),
        total_cost: z.number().check(z.describe('quantity × unit_cost, 4 decimals.')),
        inventory_transaction_id: z.nullable(id()).check(z.describe('The receive transaction; null for drop-ship lines and products that carry no stock.')),
        drop_ship_sales_order_id: z.nullable(id()).check(z.describe('Drop-ship lines: the sales order whose line this receipt fulfilled.')),
        drop_ship_sales_line_id: z.nullable(id()),
      }),
    ),
    inventory_transaction_ids: z.array(id()),
    inventory_cost: z
      .number()
      .check(
        z.describe(
          "Cost of the stocked lines, in cents (each line's quantity × unit cost rounded half away from zero): credited to received_not_billed and debited to inventory, except the cost of units that settle negative stock, which goes to inventory_adjustments.",
        ),
      ),
    drop_ship_cost: z.number().check(z.describe('Debited to cost_of_goods_sold (drop-ship lines), in cents.')),
    journal_entry_id: z.nullable(id()).check(z.describe('Debit inventory and/or COGS, credit received_not_billed; null when the receipt costs nothing.')),
  })
  .register(z.globalRegistry, { id: 'PurchaseReceipt' });
export type PurchaseReceipt = z.infer<typeof PurchaseReceipt>;
