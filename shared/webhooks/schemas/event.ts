import * as z from 'zod/mini';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';
import { listQuery } from '../../schemas/list';
import { param } from '../../schemas/parameters';

export const Event = z
  .object({
    id: id().check(z.describe('The event id; webhook deliveries send it as the webhook-id header, so receivers de-duplicate on it.')),
    object: z.literal('event'),
    livemode: livemode(),
    type: z.string().check(z.describe('The event type, e.g. order.created (see the event catalog).')),
    api_version: z.string(),
    payload_version: z
      .number()
      .check(
        z.int(),
        z.gte(1),
        z.describe(
          "The version of this event type's payload (data.object), from the event catalog. It rises when the payload's shape or meaning changes (see the changelog); check it before relying on a field. A ping is at 1.",
        ),
      ),
    created_at: timestamp(),
    entity_id: id(),
    data: z.object({
      object: z.record(z.string(), z.unknown()).check(z.describe('The object concerned, as it was when the event happened.')),
      previous_attributes: z.optional(z.record(z.string(), z.unknown())).check(z.describe('For update events: the old values of the fields that changed.')),
    }),
    request: z.object({
      id: z.nullable(z.string()).check(z.describe('The request that caused the event; null for scheduled work.')),
      idempotency_key: z.nullable(z.string()),
    }),
  })
  .register(z.globalRegistry, {
    id: 'Event',
    description:
      'Something that happened in the entity: the object concerned as it was then. The same object is served by the events feed and POSTed to webhook endpoints.',
  });
export type Event = z.infer<typeof Event>;

/**
 * Types are checked against the catalog in the route (the catalog lives outside the platform),
 * so this schema only bounds their shape.
 */
const eventType = (description?: string) =>
  param.text({ pattern: { regex: /^[a-z_]+\.[a-z_]+$/, message: 'must be an event type such as order.created' } }, description);

export const EventListQuery = listQuery({
  type: eventType('Only events of this type.'),
  types: param.list(eventType(), { min: 1, max: 20 }, 'Only events of these types (types[]=a&types[]=b); not together with type.'),
  'created[gte]': param.timestamp('Only events created at or after this time.'),
  'created[lte]': param.timestamp('Only events created at or before this time.'),
  object_id: param.id('Only events about this object (data.object.id).'),
});
export type EventListQuery = z.infer<typeof EventListQuery>;
