import * as z from 'zod/mini';
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
    phone: z.nullable(z.string()),
    is_active: z.boolean(),
    is_default: z.boolean().check(z.describe('The entity has exactly one default location once it has any; the first one created becomes it.')),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Location' });
export type Location = z.infer<typeof Location>;

export const LocationCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200), z.describe('Unique within the entity (case-insensitive).')),
  ...addressFields(),
  is_active: z.optional(z.boolean()).check(z.describe('Defaults to true.')),
  is_default: z
    .optional(z.boolean())
    .check(z.describe('Make this the default location (the previous default is demoted). The first location is the default regardless.')),
  metadata: z.optional(metadata()),
});
export type LocationCreate = z.infer<typeof LocationCreate>;

export const LocationUpdate = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  ...addressFields(),
  is_active: z.optional(z.boolean()),
  is_default: z
    .optional(z.literal(true))
    .check(z.describe('Only true: make this the default (the previous one is demoted). To move the default, set it on the new location.')),
  metadata: z.optional(metadata()),
});
export type LocationUpdate = z.infer<typeof LocationUpdate>;
