import { param, pathParams } from '../../schemas/parameters';
import * as z from 'zod';
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
    component_product_title: z.string().describe("The component product's name."),
    component_product_sku: z.string(),
    quantity_per_kit: z.number().describe('Units of the component in one kit (up to 4 decimals).'),
    sequence: z.number().int(),
    is_assembled: z.boolean().describe('Whether the component is assembled into the kit (true) or packed alongside it.'),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'KitComponent' });
export type KitComponent = z.infer<typeof KitComponent>;

export const Kit = Product.extend({
  product_name: z.string().describe('The kit name as sent on create (equal to name).'),
  components: z.array(KitComponent).describe('Ordered by sequence.'),
}).meta({ id: 'Kit' });
export type Kit = z.infer<typeof Kit>;

/** Components per kit, on create and when added later. */
export const KIT_COMPONENT_LIMIT = 200;

const quantityPerKit = () => decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true });
const componentSequence = () => z.number().int().min(0).max(100_000);

export const KitComponentInput = z.strictObject({
  component_product_id: id(),
  quantity_per_kit: quantityPerKit(),
  sequence: componentSequence()
    .optional()
    .describe('Defaults to the position in the list (1-based); a component added later defaults to the highest sequence + 1.'),
  is_assembled: z.boolean().optional().describe('Defaults to false.'),
  metadata: metadata().optional(),
});
export type KitComponentInput = z.infer<typeof KitComponentInput>;

export const KitComponentUpdate = z.strictObject({
  quantity_per_kit: quantityPerKit().optional().describe('Greater than 0, up to 4 decimals.'),
  sequence: componentSequence().optional(),
  is_assembled: z.boolean().optional(),
  metadata: metadata().optional().describe('Replaces the metadata object.'),
});
export type KitComponentUpdate = z.infer<typeof KitComponentUpdate>;

export const kitComponentParams = pathParams({
  id: param.id('The kit product id.'),
  component_id: param.id('The id of the kit_component row (not of the component product).'),
});

export const KitCreate = z.strictObject({
  sku: z.string().trim().min(1).max(100),
  product_name: z.string().trim().min(1).max(300),
  product_type: z
    .enum(['kit', 'bundle'])
    .optional()
    .describe('kit (default): built from its components into stock of its own. bundle: never built nor stocked; selling it sells and draws its components.'),
  description: optionalText(5000),
  is_active: z.boolean().optional(),
  metadata: metadata().optional(),
  manufacturer_id: id().nullable().optional(),
  uom_id: id().nullable().optional(),
  list_price: decimalInput({ scale: PRICE_SCALE, min: 0 }).nullable().optional(),
  reorder_point: decimalInput({ scale: QUANTITY_SCALE, min: 0 }).nullable().optional(),
  external_source: optionalText(100),
  external_id: optionalText(200),
  components: z
    .array(KitComponentInput)
    .min(1)
    .max(KIT_COMPONENT_LIMIT)
    .describe('Simple (stocked) products, each at most once. Any invalid component refuses the whole request.'),
});
export type KitCreate = z.infer<typeof KitCreate>;

export const ComponentList = z.object({
  object: z.literal('list'),
  data: z.array(KitComponent),
  total: z.number().int().describe('Number of components of the kit.'),
  has_more: z.boolean(),
});

export const KitAvailability = z
  .object({
    object: z.literal('kit_availability'),
    livemode: livemode(),
    kit_product_id: id(),
    location_id: id().nullable().describe('null: summed over every location.'),
    buildable_quantity: z
      .number()
      .int()
      .describe('Whole kits the available component stock can build: the minimum over components of floor(available / quantity_per_kit).'),
    components: z.array(
      z.object({
        component_product_id: id(),
        component_product_sku: z.string(),
        quantity_per_kit: z.number(),
        available: z.number(),
        buildable_quantity: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'KitAvailability' });
