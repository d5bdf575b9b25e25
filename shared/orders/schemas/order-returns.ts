/** Request and response bodies of the return routes (create a return from a source, receive it). */
import * as z from 'zod/mini';
import { decimalInput, QUANTITY_SCALE } from '../../money';
import { id, isoDate, optionalText } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const OrderReturnCreate = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        line_id: id().check(z.describe("A line of the source document; for a kit, the kit's line (its components come back with it).")),
        quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }),
        restock: z.optional(z.boolean()).check(z.describe('Put the goods back on the shelf when received (default true); false for damaged goods.')),
        reason: optionalText(500).check(z.describe('Why the goods came back.')),
      }),
    )
    .check(z.minLength(1), z.maxLength(500)),
  location_id: z.optional(id()).check(z.describe("Where the goods come back to; default the source document's location.")),
  notes: optionalText(5000),
});
export type OrderReturnCreate = z.infer<typeof OrderReturnCreate>;

export const OrderReturnReceiptCreate = z.strictObject({
  lines: z
    .optional(
      z
        .array(
          z.strictObject({
            line_id: id().check(z.describe("A line of the return; for a kit, the kit's line.")),
            quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }),
          }),
        )
        .check(z.minLength(1), z.maxLength(500)),
    )
    .check(z.describe('Default: everything not yet received.')),
  location_id: z.optional(id()).check(z.describe("Where restocked goods go; default the return's location.")),
  received_date: z
    .optional(isoDate())
    .check(
      z.describe(
        "The date the goods came back, which dates the inventory entry and the stock movements; defaults to today (UTC). Not before the return's own date (400); in a closed period 422 period_closed.",
      ),
    ),
});
export type OrderReturnReceiptCreate = z.infer<typeof OrderReturnReceiptCreate>;

export const OrderReturnReceipt = z
  .object({
    id: id().check(z.describe('group_id of its inventory transactions.')),
    object: z.literal('order_return_receipt'),
    livemode: livemode(),
    order_id: id().check(z.describe('The return.')),
    order_number: z.string(),
    source_order_id: z.nullable(id()),
    order_status: z.enum(['confirmed', 'partially_fulfilled', 'fulfilled']),
    fulfillment_status: z.enum(['unfulfilled', 'partially_fulfilled', 'fulfilled']),
    previous_order_status: z.string(),
    location_id: z.nullable(id()),
    received_date: isoDate().check(z.describe('The date the goods came back; the inventory entry is dated on it.')),
    lines: z.array(
      z.object({
        line_id: id(),
        source_line_id: z.nullable(id()),
        product_id: id(),
        kit_parent_line_id: z.nullable(id()),
        quantity: z.number().check(z.describe('Received now.')),
        quantity_received: z.number().check(z.describe("The return line's total received (its quantity_fulfilled).")),
        restocked: z.boolean().check(z.describe('Whether these units went back into stock.')),
        cost: z.number().check(z.describe('Value put back into inventory for these units, in cents (0 when not restocked).')),
      }),
    ),
    inventory_transaction_ids: z.array(id()),
    cost_total: z
      .number()
      .check(
        z.describe('Inventory value restored, in cents (exactly what the new layers add to inventory_value): debit inventory, credit cost_of_goods_sold.'),
      ),
    journal_entry_id: z.nullable(id()),
  })
  .register(z.globalRegistry, { id: 'OrderReturnReceipt' });
export type OrderReturnReceipt = z.infer<typeof OrderReturnReceipt>;
