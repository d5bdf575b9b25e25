import * as z from 'zod/mini';
import { decimalInput } from '../../money';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const TaxRate = z
  .object({
    id: id(),
    object: z.literal('tax_rate'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    rate: z.number().check(z.describe('A percentage with up to 4 decimals: 8.25 means 8.25 %.')),
    description: z.nullable(z.string()),
    is_active: z.boolean().check(z.describe('Inactive rates stay on the lines that use them but cannot be set on lines.')),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'TaxRate' });
export type TaxRate = z.infer<typeof TaxRate>;

export const TaxRateCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100), z.describe('Unique within the entity (case-insensitive).')),
  rate: decimalInput({ scale: 4, min: 0, max: 100 }).check(z.describe('A percentage, 0 to 100, up to 4 decimals.')),
  description: optionalText(1000),
  is_active: z.optional(z.boolean()).check(z.describe('Defaults to true.')),
  metadata: z.optional(metadata()),
});
export type TaxRateCreate = z.infer<typeof TaxRateCreate>;

export const TaxRateUpdate = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  rate: z
    .optional(decimalInput({ scale: 4, min: 0, max: 100 }))
    .check(z.describe('Lines keep the rate they were given (a snapshot); the new rate applies to lines the rate is set on from now on.')),
  description: optionalText(1000),
  is_active: z.optional(z.boolean()),
  metadata: z.optional(metadata()),
});
export type TaxRateUpdate = z.infer<typeof TaxRateUpdate>;
