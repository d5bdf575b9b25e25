/** Product options: a product's named choices (e.g. Size: S, M, L) in display order. */
import * as z from 'zod';
import { id, metadata, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const ProductOption = z
  .object({
    id: id(),
    object: z.literal('product_option'),
    livemode: livemode(),
    entity_id: id(),
    product_id: id(),
    name: z.string().describe('Unique per product (case-insensitive), e.g. Size.'),
    values: z.array(z.string()).describe('The choices, e.g. S, M, L.'),
    sequence: z.number().int().describe('Display order; set by POST .../options/reorder.'),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'ProductOption' });
export type ProductOption = z.infer<typeof ProductOption>;

export const ProductOptionCreate = z.strictObject({
  name: z.string().trim().min(1).max(100),
  values: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  metadata: metadata().optional(),
});
export type ProductOptionCreate = z.infer<typeof ProductOptionCreate>;

export const OptionReorder = z.strictObject({
  order: z.array(id()).min(1).max(500).describe('Option ids of this product; each gets its 1-based position as sequence. Options not listed keep theirs.'),
});
