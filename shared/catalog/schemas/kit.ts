import { param, pathParams } from '../../schemas/parameters';
import * as z from 'zod/mini';
import { decimalInput, PRICE_SCALE, QUANTITY_SCALE } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { Product } from './product';
import { livemode } from '../../schemas/livemode';

export const KitComponent = z
  .object({
    id: id(),
    object: z.literal('kit_component'),
    livemode: livemode(),
    entity_id: id(),
    parent_product_id: id(),
    component_product_id: id(),
    component_product_title: z.string().check(z.describe("The component product's name.")),
    component_product_sku: z.string(),
    quantity_per_kit: z.number().check(z.describe('Units of the component in one kit (up to 4 decimals).')),
    sequence: z.number().check(z.int()),
    is_assembled: z.boolean().check(z.describe('Whether the component is assembled into the kit (true) or packed alongside it.')),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'KitComponent' });
export type KitComponent = z.infer<typeof KitComponent>;

export const Kit = z
  .extend(Product, {
    product_name: z.string().check(z.describe('The kit name as sent on create (equal to name).')),
    components: z.array(KitComponent).check(z.describe('Ordered by sequence.')),
  })
  .register(z.globalRegistry, { id: 'Kit' });
export type Kit = z.infer<typeof Kit>;

/** Components per kit, on create and when added later. */
export const KIT_COMPONENT_LIMIT = 200;

const quantityPerKit = () => decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true });
const componentSequence = () => z.number().check(z.int(), z.gte(0), z.lte(100_000));

export const KitComponentInput = z.strictObject({
  component_product_id: id(),
  quantity_per_kit: quantityPerKit(),
  sequence: z
    .optional(componentSequence())
    .check(z.describe('Defaults to the position in the list (1-based); a component added later defaults to the highest sequence + 1.')),
  is_assembled: z.optional(z.boolean()).check(z.describe('Defaults to false.')),
  metadata: z.optional(metadata()),
});
export type KitComponentInput = z.infer<typeof KitComponentInput>;

export const KitComponentUpdate = z.strictObject({
  quantity_per_kit: z.optional(quantityPerKit()).check(z.describe('Greater than 0, up to 4 decimals.')),
  sequence: z.optional(componentSequence()),
  is_assembled: z.optional(z.boolean()),
  metadata: z.optional(metadata()).check(z.describe('Replaces the metadata object.')),
});
export type KitComponentUpdate = z.infer<typeof KitComponentUpdate>;

export const kitComponentParams = pathParams({
  id: param.id('The kit product id.'),
  component_id: param.id('The id of the kit_component row (not of the component product).'),
});

export const KitCreate = z.strictObject({
  sku: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  product_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(300)),
  product_type: z
    .optional(z.enum(['kit', 'bundle']))
    .check(
      z.describe('kit (default): built from its components into stock of its own. bundle: never built nor stocked; selling it sells and draws its components.'),
    ),
  description: optionalText(5000),
  is_active: z.optional(z.boolean()),
  metadata: z.optional(metadata()),
  manufacturer_id: z.optional(z.nullable(id())),
  uom_id: z.optional(z.nullable(id())),
  list_price: z.optional(z.nullable(decimalInput({ scale: PRICE_SCALE, min: 0 }))),
  reorder_point: z.optional(z.nullable(decimalInput({ scale: QUANTITY_SCALE, min: 0 }))),
  external_source: optionalText(100),
  external_id: optionalText(200),
  components: z
    .array(KitComponentInput)
    .check(
      z.minLength(1),
      z.maxLength(KIT_COMPONENT_LIMIT),
      z.describe('Simple (stocked) products, each at most once. Any invalid component refuses the whole request.'),
    ),
});
export type KitCreate = z.infer<typeof KitCreate>;

export const ComponentList = z.object({
  object: z.literal('list'),
  data: z.array(KitComponent),
  total: z.number().check(z.int(), z.describe('Number of components of the kit.')),
  has_more: z.boolean(),
});

export const KitAvailability = z
  .object({
    object: z.literal('kit_availability'),
    livemode: livemode(),
    kit_product_id: id(),
    location_id: z.nullable(id()).check(z.describe('null: summed over every location.')),
    buildable_quantity: z
      .number()
      .check(z.int(), z.describe('Whole kits the available component stock can build: the minimum over components of floor(available / quantity_per_kit).')),
    components: z.array(
      z.object({
        component_product_id: id(),
        component_product_sku: z.string(),
        quantity_per_kit: z.number(),
        available: z.number(),
        buildable_quantity: z.number().check(z.int()),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'KitAvailability' });
