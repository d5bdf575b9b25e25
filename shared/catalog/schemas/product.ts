import * as z from 'zod';
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
    sku: z.string().describe('Unique within the entity (case-insensitive).'),
    name: z.string(),
    description: z.string().nullable(),
    product_type: z
      .enum(PRODUCT_TYPES)
      .describe(
        'simple: a stocked item. kit: built from component products (POST /v1/kits, builds draw component stock). bundle: a priced grouping sold under one SKU, not stocked. service: not stocked.',
      ),
    manufacturer_id: id().nullable(),
    manufacturer: Manufacturer.nullable().optional().describe('Present when expanded with expand[]=manufacturer.'),
    uom_id: id().nullable().describe('The unit quantities of this product are counted in.'),
    uom: UnitOfMeasure.nullable().optional().describe('Present when expanded with expand[]=uom.'),
    list_price: z.number().nullable(),
    cost: z.number().nullable().describe('Standard cost; inventory itself is valued by FIFO cost layers.'),
    reorder_point: z
      .number()
      .nullable()
      .describe(
        "On-hand level at or below which a location balance is low on stock. With reorder_point_mode demand the server keeps it at demand_avg_per_day × the preferred vendor's lead_time_days (4 decimals; 0 without either).",
      ),
    reorder_point_mode: z
      .enum(REORDER_POINT_MODES)
      .describe(
        'manual (the default): reorder_point is what you set. demand: reorder_point follows demand × lead time, refreshed by every stock movement of the product and when the mode is set, and the stock events follow it; sending reorder_point then is 422 reorder_point_follows_demand.',
      ),
    demand_avg_per_day: z
      .number()
      .describe(
        "Average daily demand, summed over the product's location balances: fulfilled sales plus posted build_consume draws of the last 365 days, divided by the days since each balance's first movement (at most 365, at least 1). Each physical decrement counts once, for the product it drew: a kit counts its own sales, a kit component the builds that drew it.",
      ),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    external_source: z.string().nullable().describe('Source system of a migrated row.'),
    external_id: z.string().nullable().describe('Id in the source system; unique per external_source.'),
    migration_batch_id: id().nullable().describe('The import batch the product was created in.'),
    imported_at: timestamp().nullable().describe('When it was created in an import batch.'),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Product' });
export type Product = z.infer<typeof Product>;

const money = () => decimalInput({ scale: PRICE_SCALE, min: 0 });

const editable = () => ({
  description: optionalText(5000),
  manufacturer_id: id().nullable().optional(),
  uom_id: id().nullable().optional(),
  list_price: money().nullable().optional(),
  cost: money().nullable().optional(),
  reorder_point: decimalInput({ scale: QUANTITY_SCALE, min: 0 }).nullable().optional(),
  reorder_point_mode: z.enum(REORDER_POINT_MODES).optional().describe('Defaults to manual on create.'),
  is_active: z.boolean().optional(),
  metadata: metadata().optional(),
  external_source: optionalText(100),
  external_id: optionalText(200),
});

export const ProductCreate = z.strictObject({
  sku: z.string().trim().min(1).max(100),
  name: z.string().trim().min(1).max(300),
  product_type: z
    .enum(['simple', 'bundle', 'service'])
    .optional()
    .describe('Defaults to simple. Kits are created with POST /v1/kits, which writes the header and its components together.'),
  ...editable(),
  migration_batch_id: id()
    .optional()
    .describe("An open import batch of this entity: the product keeps it, imported_at is set, and external_source defaults to the batch's."),
});
export type ProductCreate = z.infer<typeof ProductCreate>;

export const ProductUpdate = z.strictObject({
  sku: z.string().trim().min(1).max(100).optional(),
  name: z.string().trim().min(1).max(300).optional(),
  product_type: z.enum(['simple', 'bundle', 'service']).optional().describe('A kit stays a kit, and no product becomes one.'),
  ...editable(),
});
export type ProductUpdate = z.infer<typeof ProductUpdate>;
