/** Product options, product-vendor relationships, pricing levels and policies, tags. */
import { z } from 'zod';
import { decimalInput, QUANTITY_SCALE } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { PRICE_SCALE } from './product';

export const ProductOption = z
  .object({
    id: id(),
    object: z.literal('product_option'),
    entity_id: id(),
    product_id: id(),
    name: z.string().describe('Unique per product (case-insensitive), e.g. Size.'),
    values: z.array(z.string()).describe('The choices, e.g. S, M, L.'),
    sequence: z.number().int().describe('Display order; set by POST .../options/reorder.'),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'ProductOption' });
export type ProductOption = z.infer<typeof ProductOption>;

export const ProductOptionCreate = z.strictObject({
  name: z.string().trim().min(1).max(100),
  values: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  metadata: metadata().optional(),
});
export type ProductOptionCreate = z.infer<typeof ProductOptionCreate>;

export const OptionReorder = z.strictObject({
  order: z.array(id()).min(1).max(500).describe('Option ids of this product; each gets its 1-based position as sequence. Options not listed keep theirs.'),
});

export const ProductVendor = z
  .object({
    id: id(),
    object: z.literal('product_vendor'),
    entity_id: id(),
    product_id: id(),
    vendor_id: id(),
    vendor_name: z.string(),
    vendor_sku: z.string().nullable(),
    vendor_cost: z.number().nullable(),
    lead_time_days: z.number().int().nullable(),
    order_multiple: z.number().describe('Purchase quantities are rounded up to a multiple of this (a case of 12: 12).'),
    minimum_order_quantity: z.number().nullable(),
    is_preferred: z.boolean().describe('At most one preferred vendor per product; the reorder report uses it.'),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'ProductVendor' });
export type ProductVendor = z.infer<typeof ProductVendor>;

const vendorTerms = {
  vendor_sku: optionalText(100),
  vendor_cost: decimalInput({ scale: PRICE_SCALE, min: 0 }).nullable().optional(),
  lead_time_days: z.number().int().min(0).max(3650).nullable().optional(),
  order_multiple: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }).optional().describe('Defaults to 1.'),
  minimum_order_quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0 }).nullable().optional(),
  is_preferred: z.boolean().optional().describe('true demotes the previous preferred vendor of the product in the same transaction.'),
  metadata: metadata().optional(),
};

export const ProductVendorCreate = z.strictObject({ vendor_id: id(), ...vendorTerms });
export type ProductVendorCreate = z.infer<typeof ProductVendorCreate>;
export const ProductVendorUpdate = z.strictObject(vendorTerms);
export type ProductVendorUpdate = z.infer<typeof ProductVendorUpdate>;

export const PricingLevel = z
  .object({
    id: id(),
    object: z.literal('pricing_level'),
    entity_id: id(),
    name: z.string(),
    description: z.string().nullable(),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'PricingLevel' });
export type PricingLevel = z.infer<typeof PricingLevel>;

export const PricingLevelCreate = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('Unique within the entity (case-insensitive), e.g. Wholesale.'),
  description: optionalText(1000),
  is_active: z.boolean().optional(),
  metadata: metadata().optional(),
});
export type PricingLevelCreate = z.infer<typeof PricingLevelCreate>;

export const PricingPolicy = z
  .object({
    id: id(),
    object: z.literal('pricing_policy'),
    entity_id: id(),
    product_id: id(),
    pricing_level_id: id().nullable(),
    account_id: id().nullable(),
    pricing_type: z.string().describe('regular unless stated.'),
    min_quantity: z.number().describe('The tier starts at this quantity.'),
    sell_price: z.number(),
    list_price: z.number().nullable().describe("Defaults to the product's list price when the policy is created."),
    adjustment: z.number().nullable().describe('list_price minus sell_price.'),
    margin_pct: z.number().nullable().describe('(sell_price - product cost) / sell_price x 100, 2 decimals; null without a cost or at a zero price.'),
    is_active: z.boolean(),
    is_default: z.boolean(),
    created_at: timestamp(),
    imported_at: timestamp().nullable(),
    updated_at: timestamp(),
    level_name: z.string().nullable(),
    product_name: z.string(),
    product_sku: z.string(),
    external_source: z.string().nullable(),
    external_id: z.string().nullable(),
    migration_batch_id: id().nullable(),
  })
  .meta({ id: 'PricingPolicy' });
export type PricingPolicy = z.infer<typeof PricingPolicy>;

export const PricingPolicyCreate = z.strictObject({
  product_id: id(),
  pricing_level_id: id().nullable().optional(),
  account_id: id().nullable().optional().describe('A customer-specific price.'),
  pricing_type: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/)
    .optional()
    .describe('Defaults to regular.'),
  min_quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }).optional().describe('Defaults to 1.'),
  sell_price: decimalInput({ scale: PRICE_SCALE, min: 0 }),
  list_price: decimalInput({ scale: PRICE_SCALE, min: 0 }).nullable().optional(),
  is_active: z.boolean().optional(),
  is_default: z.boolean().optional(),
  imported_at: timestamp().optional().describe('When a migrated policy was imported.'),
  external_source: optionalText(100),
  external_id: optionalText(200),
  migration_batch_id: id().optional(),
});
export type PricingPolicyCreate = z.infer<typeof PricingPolicyCreate>;

export const TAG_RESOURCE_TYPES = [
  'account',
  'product',
  'vendor',
  'order',
  'invoice',
  'return',
  'purchase_order',
  'vendor_bill',
  'contact',
  'package',
] as const;
export type TagResourceType = (typeof TAG_RESOURCE_TYPES)[number];

export const Tag = z
  .object({
    id: id(),
    object: z.literal('tag'),
    entity_id: id(),
    name: z.string(),
    color: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Tag' });
export type Tag = z.infer<typeof Tag>;

export const TagCreate = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('Unique within the entity (case-insensitive).'),
  color: z
    .string()
    .regex(/^#[0-9a-f]{6}$/, 'must be a lower-case hex colour such as #1a2b3c')
    .nullable()
    .optional(),
  metadata: metadata().optional(),
});
export type TagCreate = z.infer<typeof TagCreate>;

export const TagAttach = z.strictObject({ tag_id: id() });

export const TagList = z.object({ data: z.array(Tag) });

export const tagResourceParams = z.object({
  resourceType: z
    .enum(TAG_RESOURCE_TYPES)
    .describe(
      'account, product, vendor, order, invoice, return, purchase_order, vendor_bill, contact or package (the union of the two lists in the spec, plus vendor). order is a quote or sales order; invoice, return and purchase_order are orders of that document_type. vendor_bill, contact and package resources are not served yet (writes 422 resource_type_unavailable, reads an empty list).',
    ),
  resourceId: id(),
});

export const productVendorParams = z.object({ id: id().describe('The product id.'), pvid: id().describe('The product-vendor relationship id.') });
