/** Product-vendor relationships: who supplies a product and on what terms. */
import { param, pathParams } from '../../schemas/parameters';
import * as z from 'zod/mini';
import { decimalInput, PRICE_SCALE, QUANTITY_SCALE } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const ProductVendor = z
  .object({
    id: id(),
    object: z.literal('product_vendor'),
    livemode: livemode(),
    entity_id: id(),
    product_id: id(),
    vendor_id: id(),
    vendor_name: z.string(),
    vendor_sku: z.nullable(z.string()),
    vendor_cost: z.nullable(z.number()),
    lead_time_days: z.nullable(z.number().check(z.int())),
    order_multiple: z.number().check(z.describe('Purchase quantities are rounded up to a multiple of this (a case of 12: 12).')),
    minimum_order_quantity: z.nullable(z.number()),
    is_preferred: z.boolean().check(z.describe('At most one preferred vendor per product; the reorder report uses it.')),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'ProductVendor' });
export type ProductVendor = z.infer<typeof ProductVendor>;

const vendorTerms = () => ({
  vendor_sku: optionalText(100),
  vendor_cost: z.optional(z.nullable(decimalInput({ scale: PRICE_SCALE, min: 0 }))),
  lead_time_days: z.optional(z.nullable(z.number().check(z.int(), z.gte(0), z.lte(3650)))),
  order_multiple: z.optional(decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true })).check(z.describe('Defaults to 1.')),
  minimum_order_quantity: z.optional(z.nullable(decimalInput({ scale: QUANTITY_SCALE, min: 0 }))),
  is_preferred: z.optional(z.boolean()).check(z.describe('true demotes the previous preferred vendor of the product in the same transaction.')),
  metadata: z.optional(metadata()),
});

export const ProductVendorCreate = z.strictObject({ vendor_id: id(), ...vendorTerms() });
export type ProductVendorCreate = z.infer<typeof ProductVendorCreate>;
export const ProductVendorUpdate = z.strictObject(vendorTerms());
export type ProductVendorUpdate = z.infer<typeof ProductVendorUpdate>;

export const productVendorParams = pathParams({ id: param.id('The product id.'), pvid: param.id('The product-vendor relationship id.') });
