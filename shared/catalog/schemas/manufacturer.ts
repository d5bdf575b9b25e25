import * as z from 'zod/mini';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const Manufacturer = z
  .object({
    id: id(),
    object: z.literal('manufacturer'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    website: z.nullable(z.string()),
    notes: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Manufacturer' });
export type Manufacturer = z.infer<typeof Manufacturer>;

const editable = () => ({
  website: z.optional(z.nullable(z.url({ protocol: /^https?$/ }).check(z.maxLength(500)))),
  notes: optionalText(2000),
  metadata: z.optional(metadata()),
});

export const ManufacturerCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200), z.describe('Unique within the entity (case-insensitive).')),
  ...editable(),
});
export type ManufacturerCreate = z.infer<typeof ManufacturerCreate>;

export const ManufacturerUpdate = z.strictObject({ name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))), ...editable() });
export type ManufacturerUpdate = z.infer<typeof ManufacturerUpdate>;

export const DeletedManufacturer = z.object({
  data: z.object({ id: id(), object: z.literal('manufacturer'), livemode: livemode(), name: z.string(), deleted: z.literal(true) }),
});
