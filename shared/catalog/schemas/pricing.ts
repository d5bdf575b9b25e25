/**
 * Pricing levels (named price lists) and pricing policies (a product's price for a level, an
 * account or a quantity tier).
 */
import * as z from 'zod';
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
    livemode: livemode(),
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
  migration_batch_id: id()
    .optional()
    .describe("An open import batch of this entity: the policy keeps it, imported_at defaults to now, and external_source to the batch's."),
});
export type PricingPolicyCreate = z.infer<typeof PricingPolicyCreate>;
