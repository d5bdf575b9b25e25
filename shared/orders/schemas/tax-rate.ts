import * as z from 'zod';
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
    rate: z.number().describe('A percentage with up to 4 decimals: 8.25 means 8.25 %.'),
    description: z.string().nullable(),
    is_active: z.boolean().describe('Inactive rates stay on the lines that use them but cannot be set on lines.'),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'TaxRate' });
export type TaxRate = z.infer<typeof TaxRate>;

export const TaxRateCreate = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('Unique within the entity (case-insensitive).'),
  rate: decimalInput({ scale: 4, min: 0, max: 100 }).describe('A percentage, 0 to 100, up to 4 decimals.'),
  description: optionalText(1000),
  is_active: z.boolean().optional().describe('Defaults to true.'),
  metadata: metadata().optional(),
});
export type TaxRateCreate = z.infer<typeof TaxRateCreate>;

export const TaxRateUpdate = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  rate: decimalInput({ scale: 4, min: 0, max: 100 })
    .optional()
    .describe('Lines keep the rate they were given (a snapshot); the new rate applies to lines the rate is set on from now on.'),
  description: optionalText(1000),
  is_active: z.boolean().optional(),
  metadata: metadata().optional(),
});
export type TaxRateUpdate = z.infer<typeof TaxRateUpdate>;
