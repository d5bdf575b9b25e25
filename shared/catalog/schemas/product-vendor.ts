/** Product-vendor relationships: who supplies a product and on what terms. */
import { param, pathParams } from '../../schemas/parameters';
import * as z from 'zod';
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

const vendorTerms = () => ({
  vendor_sku: optionalText(100),
  vendor_cost: decimalInput({ scale: PRICE_SCALE, min: 0 }).nullable().optional(),
  lead_time_days: z.number().int().min(0).max(3650).nullable().optional(),
  order_multiple: decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true }).optional().describe('Defaults to 1.'),
  minimum_order_quantity: decimalInput({ scale: QUANTITY_SCALE, min: 0 }).nullable().optional(),
  is_preferred: z.boolean().optional().describe('true demotes the previous preferred vendor of the product in the same transaction.'),
  metadata: metadata().optional(),
});

export const ProductVendorCreate = z.strictObject({ vendor_id: id(), ...vendorTerms() });
export type ProductVendorCreate = z.infer<typeof ProductVendorCreate>;
export const ProductVendorUpdate = z.strictObject(vendorTerms());
export type ProductVendorUpdate = z.infer<typeof ProductVendorUpdate>;

export const productVendorParams = pathParams({ id: param.id('The product id.'), pvid: param.id('The product-vendor relationship id.') });
