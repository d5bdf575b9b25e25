/** Request bodies of the order lifecycle routes (hold, fulfillments). */
import * as z from 'zod/mini';
import { decimalInput, QUANTITY_SCALE } from '../../money';
import { id, isoDate, optionalText } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const OrderHold = z.strictObject({
  hold_type: z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(50), z.describe('Why the order is held, as a short key: credit, fraud_review, customer_request, ...')),
  reason: optionalText(1000).check(z.describe('Free text kept as hold_reason.')),
});
export type OrderHold = z.infer<typeof OrderHold>;

export const OrderFulfillmentCreate = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        line_id: id().check(z.describe("A line of the order; for a kit, the kit's line (its components ship with it).")),
        quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }),
      }),
    )
    .check(z.minLength(1), z.maxLength(500)),
  location_id: z.optional(id()).check(z.describe("Where the goods ship from; default the order's location.")),
  fulfillment_date: z
    .optional(isoDate())
    .check(
      z.describe(
        "The date the goods shipped, which dates the cost of goods sold entry and the stock movements; defaults to today (UTC). Not before the order's own date (400); in a closed period 422 period_closed.",
      ),
    ),
});
export type OrderFulfillmentCreate = z.infer<typeof OrderFulfillmentCreate>;

export const OrderFulfillment = z
  .object({
    id: id().check(z.describe('group_id of its inventory transactions.')),
    object: z.literal('order_fulfillment'),
    livemode: livemode(),
    order_id: id(),
    order_number: z.string(),
    order_status: z.enum(['confirmed', 'partially_fulfilled', 'fulfilled']),
    fulfillment_status: z.enum(['unfulfilled', 'partially_fulfilled', 'fulfilled']),
    previous_order_status: z.string(),
    location_id: id(),
    fulfillment_date: isoDate().check(z.describe('The date the shipment took effect; the COGS entry is dated on it.')),
    lines: z.array(
      z.object({
        line_id: id(),
        product_id: id(),
        kit_parent_line_id: z.nullable(id()),
        quantity: z.number().check(z.describe('Shipped now.')),
        quantity_fulfilled: z.number().check(z.describe("The line's total shipped.")),
      }),
    ),
    inventory_transaction_ids: z.array(id()),
    cost_total: z.number().check(z.describe('The COGS posted: exactly the cents the FIFO draws took from the inventory valuation.')),
    journal_entry_id: z.nullable(id()),
  })
  .register(z.globalRegistry, { id: 'OrderFulfillment' });
export type OrderFulfillment = z.infer<typeof OrderFulfillment>;
