/** Product options: a product's named choices (e.g. Size: S, M, L) in display order. */
import * as z from 'zod/mini';
import { id, metadata, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const ProductOption = z
  .object({
    id: id(),
    object: z.literal('product_option'),
    livemode: livemode(),
    entity_id: id(),
    product_id: id(),
    name: z.string().check(z.describe('Unique per product (case-insensitive), e.g. Size.')),
    values: z.array(z.string()).check(z.describe('The choices, e.g. S, M, L.')),
    sequence: z.number().check(z.int(), z.describe('Display order; set by POST .../options/reorder.')),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'ProductOption' });
export type ProductOption = z.infer<typeof ProductOption>;

export const ProductOptionCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  values: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.maxLength(100))),
  metadata: z.optional(metadata()),
});
export type ProductOptionCreate = z.infer<typeof ProductOptionCreate>;

export const OptionReorder = z.strictObject({
  order: z
    .array(id())
    .check(
      z.minLength(1),
      z.maxLength(500),
      z.describe('Option ids of this product; each gets its 1-based position as sequence. Options not listed keep theirs.'),
    ),
});
