import * as z from 'zod';
import { addressFields, id, metadata, postalAddressOutput, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const Location = z
  .object({
    id: id(),
    object: z.literal('location'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    ...postalAddressOutput(),
    phone: z.string().nullable(),
    is_active: z.boolean(),
    is_default: z.boolean().describe('The entity has exactly one default location once it has any; the first one created becomes it.'),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Location' });
export type Location = z.infer<typeof Location>;

export const LocationCreate = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('Unique within the entity (case-insensitive).'),
  ...addressFields(),
  is_active: z.boolean().optional().describe('Defaults to true.'),
  is_default: z
    .boolean()
    .optional()
    .describe('Make this the default location (the previous default is demoted). The first location is the default regardless.'),
  metadata: metadata().optional(),
});
export type LocationCreate = z.infer<typeof LocationCreate>;

export const LocationUpdate = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  ...addressFields(),
  is_active: z.boolean().optional(),
  is_default: z
    .literal(true)
    .optional()
    .describe('Only true: make this the default (the previous one is demoted). To move the default, set it on the new location.'),
  metadata: metadata().optional(),
});
export type LocationUpdate = z.infer<typeof LocationUpdate>;
