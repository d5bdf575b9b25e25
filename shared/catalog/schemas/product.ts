import * as z from 'zod/mini';
import { decimalInput, PRICE_SCALE, QUANTITY_SCALE } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { Manufacturer } from './manufacturer';
import { UnitOfMeasure } from './unit-of-measure';
import { livemode } from '../../schemas/livemode';
import { REORDER_POINT_MODES } from '../demand-reorder-point';

export const PRODUCT_TYPES = ['simple', 'kit', 'bundle', 'service'] as const;

export const Product = z
  .object({
    id: id(),
    object: z.literal('product'),
    livemode: livemode(),
    entity_id: id(),
    sku: z.string().check(z.describe('Unique within the entity (case-insensitive).')),
    name: z.string(),
    description: z.nullable(z.string()),
    product_type: z
      .enum(PRODUCT_TYPES)
      .check(
        z.describe(
          'simple: a stocked item. kit: built from component products (POST /v1/kits, builds draw component stock). bundle: a priced grouping sold under one SKU, not stocked. service: not stocked.',
        ),
      ),
    manufacturer_id: z.nullable(id()),
    manufacturer: z.optional(z.nullable(Manufacturer)).check(z.describe('Present when expanded with expand[]=manufacturer.')),
    uom_id: z.nullable(id()).check(z.describe('The unit quantities of this product are counted in.')),
    uom: z.optional(z.nullable(UnitOfMeasure)).check(z.describe('Present when expanded with expand[]=uom.')),
    list_price: z.nullable(z.number()),
    cost: z.nullable(z.number()).check(z.describe('Standard cost; inventory itself is valued by FIFO cost layers.')),
    reorder_point: z
      .nullable(z.number())
      .check(
        z.describe(
          "On-hand level at or below which a location balance is low on stock. With reorder_point_mode demand the server keeps it at demand_avg_per_day × the preferred vendor's lead_time_days (4 decimals; 0 without either).",
        ),
      ),
    reorder_point_mode: z
      .enum(REORDER_POINT_MODES)
      .check(
        z.describe(
          'manual (the default): reorder_point is what you set. demand: reorder_point follows demand × lead time, refreshed by every stock movement of the product and when the mode is set, and the stock events follow it; sending reorder_point then is 422 reorder_point_follows_demand.',
        ),
      ),
    demand_avg_per_day: z
      .number()
      .check(
        z.describe(
          "Average daily demand, summed over the product's location balances: fulfilled sales plus posted build_consume draws of the last 365 days, divided by the days since each balance's first movement (at most 365, at least 1). Each physical decrement counts once, for the product it drew: a kit counts its own sales, a kit component the builds that drew it.",
        ),
      ),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    external_source: z.nullable(z.string()).check(z.describe('Source system of a migrated row.')),
    external_id: z.nullable(z.string()).check(z.describe('Id in the source system; unique per external_source.')),
    migration_batch_id: z.nullable(id()).check(z.describe('The import batch the product was created in.')),
    imported_at: z.nullable(timestamp()).check(z.describe('When it was created in an import batch.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Product' });
export type Product = z.infer<typeof Product>;

const money = () => decimalInput({ scale: PRICE_SCALE, min: 0 });

const editable = () => ({
  description: optionalText(5000),
  manufacturer_id: z.optional(z.nullable(id())),
  uom_id: z.optional(z.nullable(id())),
  list_price: z.optional(z.nullable(money())),
  cost: z.optional(z.nullable(money())),
  reorder_point: z.optional(z.nullable(decimalInput({ scale: QUANTITY_SCALE, min: 0 }))),
  reorder_point_mode: z.optional(z.enum(REORDER_POINT_MODES)).check(z.describe('Defaults to manual on create.')),
  is_active: z.optional(z.boolean()),
  metadata: z.optional(metadata()),
  external_source: optionalText(100),
  external_id: optionalText(200),
});

export const ProductCreate = z.strictObject({
  sku: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(300)),
  product_type: z
    .optional(z.enum(['simple', 'bundle', 'service']))
    .check(z.describe('Defaults to simple. Kits are created with POST /v1/kits, which writes the header and its components together.')),
  ...editable(),
  migration_batch_id: z
    .optional(id())
    .check(z.describe("An open import batch of this entity: the product keeps it, imported_at is set, and external_source defaults to the batch's.")),
});
export type ProductCreate = z.infer<typeof ProductCreate>;

export const ProductUpdate = z.strictObject({
  sku: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(300))),
  product_type: z.optional(z.enum(['simple', 'bundle', 'service'])).check(z.describe('A kit stays a kit, and no product becomes one.')),
  ...editable(),
});
export type ProductUpdate = z.infer<typeof ProductUpdate>;
