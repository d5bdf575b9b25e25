import * as z from 'zod';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const Manufacturer = z
  .object({
    id: id(),
    object: z.literal('manufacturer'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    website: z.string().nullable(),
    notes: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Manufacturer' });
export type Manufacturer = z.infer<typeof Manufacturer>;

const editable = () => ({
  website: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable()
    .optional(),
  notes: optionalText(2000),
  metadata: metadata().optional(),
});

export const ManufacturerCreate = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('Unique within the entity (case-insensitive).'),
  ...editable(),
});
export type ManufacturerCreate = z.infer<typeof ManufacturerCreate>;

export const ManufacturerUpdate = z.strictObject({ name: z.string().trim().min(1).max(200).optional(), ...editable() });
export type ManufacturerUpdate = z.infer<typeof ManufacturerUpdate>;

export const DeletedManufacturer = z.object({
  data: z.object({ id: id(), object: z.literal('manufacturer'), livemode: livemode(), name: z.string(), deleted: z.literal(true) }),
});
