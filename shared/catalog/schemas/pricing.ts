/**
 * Pricing levels (named price lists) and pricing policies (a product's price for a level, an
 * account or a quantity tier).
 */
import * as z from 'zod/mini';
import { decimalInput, PRICE_SCALE, QUANTITY_SCALE } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const PricingLevel = z
  .object({
    id: id(),
    object: z.literal('pricing_level'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    description: z.nullable(z.string()),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'PricingLevel' });
export type PricingLevel = z.infer<typeof PricingLevel>;

export const PricingLevelCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100), z.describe('Unique within the entity (case-insensitive), e.g. Wholesale.')),
  description: optionalText(1000),
  is_active: z.optional(z.boolean()),
  metadata: z.optional(metadata()),
});
export type PricingLevelCreate = z.infer<typeof PricingLevelCreate>;

export const PricingPolicy = z
  .object({
    id: id(),
    object: z.literal('pricing_policy'),
    livemode: livemode(),
    entity_id: id(),
    product_id: id(),
    pricing_level_id: z.nullable(id()),
    account_id: z.nullable(id()),
    pricing_type: z.string().check(z.describe('regular unless stated.')),
    min_quantity: z.number().check(z.describe('The tier starts at this quantity.')),
    sell_price: z.number(),
    list_price: z.nullable(z.number()).check(z.describe("Defaults to the product's list price when the policy is created.")),
    adjustment: z.nullable(z.number()).check(z.describe('list_price minus sell_price.')),
    margin_pct: z.nullable(z.number()).check(z.describe('(sell_price - product cost) / sell_price x 100, 2 decimals; null without a cost or at a zero price.')),
    is_active: z.boolean(),
    is_default: z.boolean(),
    created_at: timestamp(),
    imported_at: z.nullable(timestamp()),
    updated_at: timestamp(),
    level_name: z.nullable(z.string()),
    product_name: z.string(),
    product_sku: z.string(),
    external_source: z.nullable(z.string()),
    external_id: z.nullable(z.string()),
    migration_batch_id: z.nullable(id()),
  })
  .register(z.globalRegistry, { id: 'PricingPolicy' });
export type PricingPolicy = z.infer<typeof PricingPolicy>;

export const PricingPolicyCreate = z.strictObject({
  product_id: id(),
  pricing_level_id: z.optional(z.nullable(id())),
  account_id: z.optional(z.nullable(id())).check(z.describe('A customer-specific price.')),
  pricing_type: z.optional(z.string().check(z.regex(/^[a-z][a-z0-9_]{0,39}$/))).check(z.describe('Defaults to regular.')),
  min_quantity: z.optional(decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true })).check(z.describe('Defaults to 1.')),
  sell_price: decimalInput({ scale: PRICE_SCALE, min: 0 }),
  list_price: z.optional(z.nullable(decimalInput({ scale: PRICE_SCALE, min: 0 }))),
  is_active: z.optional(z.boolean()),
  is_default: z.optional(z.boolean()),
  imported_at: z.optional(timestamp()).check(z.describe('When a migrated policy was imported.')),
  external_source: optionalText(100),
  external_id: optionalText(200),
  migration_batch_id: z
    .optional(id())
    .check(z.describe("An open import batch of this entity: the policy keeps it, imported_at defaults to now, and external_source to the batch's.")),
});
export type PricingPolicyCreate = z.infer<typeof PricingPolicyCreate>;
