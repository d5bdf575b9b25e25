import * as z from 'zod/mini';
import { decimalInput, QUANTITY_SCALE } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const TRANSACTION_TYPES = ['receive', 'adjust', 'transfer', 'sale_fulfillment', 'return', 'build_consume', 'build_produce', 'vendor_return'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
/** Inventory costs keep 4 decimals (unit and total cost). */
export const COST_SCALE = 4;

export const InventoryTransaction = z
  .object({
    id: id(),
    object: z.literal('inventory_transaction'),
    livemode: livemode(),
    entity_id: id(),
    product_id: id(),
    location_id: id(),
    transaction_type: z.enum(TRANSACTION_TYPES),
    quantity: z.number().check(z.describe('Signed: positive into the location, negative out of it.')),
    unit_cost: z.number().check(z.describe('Inflows: the cost received at. Outflows: the FIFO cost drawn, averaged over the layers consumed.')),
    total_cost: z.number().check(z.describe('Signed like quantity; for outflows exactly the cost of the FIFO layers consumed.')),
    uom_id: z.nullable(id()).check(z.describe("The product's unit of measure when the transaction was posted.")),
    reference_type: z
      .nullable(z.string())
      .check(z.describe('What caused the movement (order, kit_build, transfer, ...); source_migration marks a migrated row.')),
    reference_id: z.nullable(id()),
    transaction_id: z.nullable(z.string()).check(z.describe('The source system transaction id of a migrated row.')),
    group_id: z.nullable(id()).check(z.describe('Shared by the rows of one transfer or one kit build.')),
    reason: z.nullable(z.string()),
    notes: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    occurred_at: timestamp(),
    created_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'InventoryTransaction' });
export type InventoryTransaction = z.infer<typeof InventoryTransaction>;

export const InventoryBalance = z
  .object({
    id: id(),
    object: z.literal('inventory_balance'),
    livemode: livemode(),
    entity_id: id(),
    product_id: id(),
    location_id: id(),
    sku: z.string(),
    product_name: z.string(),
    on_hand: z.number(),
    committed: z
      .number()
      .check(
        z.describe(
          'Unshipped quantity of lines on confirmed, partially fulfilled and on-hold sales orders (and directly created invoices) at this location; kit component lines count, kit lines do not.',
        ),
      ),
    available: z.number().check(z.describe('on_hand minus committed.')),
    on_order: z
      .number()
      .check(
        z.describe(
          'Unreceived quantity (quantity minus received) of lines on confirmed, partially fulfilled and on-hold purchase orders receiving at this location.',
        ),
      ),
    reorder_point: z.nullable(z.number()),
    stock_status: z.enum(['in_stock', 'low_stock', 'out_of_stock']).check(z.describe('out_of_stock: on_hand <= 0; low_stock: on_hand <= reorder_point.')),
    inventory_value: z
      .number()
      .check(
        z.describe(
          "Value of the open FIFO layers in cents: each layer is worth its quantity × unit cost rounded half away from zero to the cent when it opens, and each draw takes the layer's cents in proportion to the units it takes (the last units take what is left). The inventory asset account equals the sum of inventory_value over every balance, to the cent: each movement posts exactly the change it makes. Units beyond the layers (negative stock) are worth 0.",
        ),
      ),
    demand_avg_per_day: z
      .number()
      .check(z.describe('Fulfilled sales plus posted build_consume draws over the last 365 days (or since the first movement, if later), per day.')),
    current_demand_units: z
      .number()
      .check(z.describe("Committed-but-unshipped customer demand: a kit component's own lines, not its parent kit line; purchase orders never count.")),
    run_rate_30: z.number(),
    run_rate_90: z.number(),
    run_rate_180: z.number(),
    run_rate_365: z.number().check(z.describe('Fulfilled sales plus build_consume draws in the last N days, divided by N.')),
    blended_daily: z.number().check(z.describe('0.4 run_rate_30 + 0.3 run_rate_90 + 0.2 run_rate_180 + 0.1 run_rate_365.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'InventoryBalance' });
export type InventoryBalance = z.infer<typeof InventoryBalance>;

const positiveQuantity = () => decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true });
const unitCost = () => decimalInput({ scale: COST_SCALE, min: 0 });
const movementFields = () => ({
  notes: optionalText(2000),
  metadata: z.optional(metadata()),
});
const occurredAt = () =>
  z
    .optional(timestamp().check(z.refine((value) => Date.parse(value) <= Date.now() + 5 * 60_000, { message: 'must not be in the future' })))
    .check(
      z.describe(
        "When the movement happened (migrated history, a late month caught up); defaults to now. FIFO layers are ordered by it, and its UTC date dates the movement's journal entry (422 period_closed in a closed period).",
      ),
    );

export const ReceiptCreate = z.strictObject({
  product_id: id(),
  location_id: id(),
  quantity: positiveQuantity(),
  unit_cost: z.optional(unitCost()).check(z.describe("Cost per unit received; defaults to the product's cost, and is required when the product has none.")),
  reference_type: z.optional(z.string().check(z.regex(/^[a-z][a-z0-9_]{0,39}$/))),
  reference_id: z.optional(id()),
  transaction_id: z
    .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)))
    .check(z.describe('The source system transaction id (migrated rows).')),
  source_migration: z
    .optional(z.boolean())
    .check(z.describe('Marks a migrated row: reference_type becomes source_migration, so the relink tool (E29) can match it.')),
  occurred_at: occurredAt(),
  ...movementFields(),
});
export type ReceiptCreate = z.infer<typeof ReceiptCreate>;

export const AdjustmentCreate = z.strictObject({
  product_id: id(),
  location_id: id(),
  quantity: decimalInput({ scale: QUANTITY_SCALE, min: -999_999_999_999, nonZero: true }).check(
    z.describe('Signed change of on hand: positive adds stock, negative removes it.'),
  ),
  unit_cost: z
    .optional(unitCost())
    .check(z.describe('Positive adjustments only: cost per unit added; defaults to the product cost, else the latest layer cost, else 0.')),
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(200), z.describe('Why stock changed: count, damage, shrinkage, found, ...')),
  allow_negative: z.optional(z.boolean()).check(z.describe('Let on hand go below zero (units beyond the FIFO layers are costed at the product cost).')),
  transaction_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  source_migration: z.optional(z.boolean()),
  occurred_at: occurredAt(),
  ...movementFields(),
});
export type AdjustmentCreate = z.infer<typeof AdjustmentCreate>;

export const TransferCreate = z.strictObject({
  product_id: id(),
  from_location_id: id(),
  to_location_id: id(),
  quantity: positiveQuantity(),
  occurred_at: occurredAt(),
  ...movementFields(),
});
export type TransferCreate = z.infer<typeof TransferCreate>;

export const InventoryTransfer = z
  .object({
    id: id().check(z.describe('The group_id of the two transactions.')),
    object: z.literal('inventory_transfer'),
    livemode: livemode(),
    product_id: id(),
    from_location_id: id(),
    to_location_id: id(),
    quantity: z.number(),
    total_cost: z.number().check(z.describe('FIFO cost moved; the destination receives layers at the same unit costs.')),
    transactions: z.array(InventoryTransaction),
  })
  .register(z.globalRegistry, { id: 'InventoryTransfer' });

export const KitBuildCreate = z.strictObject({
  location_id: id().check(z.describe('Where components are drawn from and the kits are put.')),
  quantity: positiveQuantity().check(z.describe('Kits to build.')),
  occurred_at: occurredAt(),
  ...movementFields(),
});
export type KitBuildCreate = z.infer<typeof KitBuildCreate>;

export const KitBuild = z
  .object({
    id: id().check(z.describe('The group_id of the build transactions.')),
    object: z.literal('kit_build'),
    livemode: livemode(),
    kit_product_id: id(),
    location_id: id(),
    quantity: z.number(),
    total_cost: z.number().check(z.describe('Cost of the component layers drawn; the kits are received at it.')),
    unit_cost: z.number(),
    transactions: z.array(InventoryTransaction).check(z.describe('build_consume rows (one per component) then the build_produce row.')),
  })
  .register(z.globalRegistry, { id: 'KitBuild' });
