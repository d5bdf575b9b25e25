import * as z from 'zod/mini';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const WebhookEndpoint = z
  .object({
    id: id(),
    object: z.literal('webhook_endpoint'),
    livemode: livemode(),
    entity_id: id(),
    url: z
      .string()
      .check(z.describe('Where events are POSTed. https; a host that resolves to a private, loopback, link-local or metadata address is refused.')),
    description: z.nullable(z.string()),
    enabled_events: z.array(z.string()).check(z.describe('The event types delivered here, or ["*"] for every type (types added later included).')),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z
      .nullable(z.enum(['user', 'gone', 'failing']))
      .check(
        z.describe(
          'Why a disabled endpoint is: user (disable was called), gone (it answered 410), failing (every attempt failed for three days). Null when enabled.',
        ),
      ),
    previous_secret_expires_at: z
      .nullable(timestamp())
      .check(z.describe('After roll-secret: until when deliveries are also signed with the previous secret (24 hours); null otherwise.')),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'WebhookEndpoint', description: 'A URL that receives the events of the enabled types as signed HTTP POSTs.' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = z
  .extend(WebhookEndpoint, {
    secret: z
      .string()
      .check(z.describe('The signing secret (whsec_...), for verifying deliveries with a Standard Webhooks library. Shown once, in this response only.')),
  })
  .register(z.globalRegistry, {
    id: 'WebhookEndpointWithSecret',
    description: 'A webhook endpoint with its signing secret, as creation and roll-secret return it once.',
  });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

const enabledEvents = () =>
  z
    .array(z.string().check(z.minLength(1), z.maxLength(100)))
    .check(z.minLength(1), z.maxLength(200), z.describe('Event types (such as order.created) or ["*"] for all; an unknown type is refused.'));

export const WebhookEndpointCreate = z.strictObject({
  url: z.string().check(z.minLength(1), z.maxLength(2048)),
  enabled_events: enabledEvents(),
  description: optionalText(1000),
  metadata: z.optional(metadata()),
});
export type WebhookEndpointCreate = z.infer<typeof WebhookEndpointCreate>;

export const WebhookEndpointUpdate = z.strictObject({
  url: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  enabled_events: z.optional(enabledEvents()),
  description: optionalText(1000),
  metadata: z.optional(metadata()),
});
export type WebhookEndpointUpdate = z.infer<typeof WebhookEndpointUpdate>;
