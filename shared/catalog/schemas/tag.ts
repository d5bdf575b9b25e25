/** Tags and the resources they attach to. */
import { param, pathParams } from '../../schemas/parameters';
import * as z from 'zod/mini';
import { id, metadata, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

const TAG_RESOURCE_TYPES = ['account', 'product', 'vendor', 'order', 'invoice', 'return', 'purchase_order', 'vendor_bill', 'contact', 'package'] as const;
export type TagResourceType = (typeof TAG_RESOURCE_TYPES)[number];

export const Tag = z
  .object({
    id: id(),
    object: z.literal('tag'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string(),
    color: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Tag' });
export type Tag = z.infer<typeof Tag>;

export const TagCreate = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100), z.describe('Unique within the entity (case-insensitive).')),
  color: z.optional(z.nullable(z.string().check(z.regex(/^#[0-9a-f]{6}$/, 'must be a lower-case hex colour such as #1a2b3c')))),
  metadata: z.optional(metadata()),
});
export type TagCreate = z.infer<typeof TagCreate>;

export const TagAttach = z.strictObject({ tag_id: id() });

export const TagList = z.object({ data: z.array(Tag) });

/** The path parameters naming the tagged resource. */
export const tagResourceFields = {
  resourceType: param.oneOf(
    TAG_RESOURCE_TYPES,
    'account, product, vendor, order, invoice, return, purchase_order, vendor_bill, contact or package (the union of the two lists in the spec, plus vendor). order is a quote or sales order; invoice, return and purchase_order are orders of that document_type. contact and package resources are not served yet (writes 422 resource_type_unavailable, reads an empty list).',
  ),
  resourceId: param.id(),
};
export const tagResourceParams = pathParams(tagResourceFields);
