import * as z from 'zod/mini';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const WebhookDelivery = z
  .object({
    id: id(),
    object: z.literal('webhook_delivery'),
    livemode: livemode(),
    endpoint_id: id(),
    event_id: id(),
    event_type: z.string(),
    kind: z
      .enum(['event', 'resend', 'test'])
      .check(z.describe('event: sent because the endpoint subscribes to the type; resend: sent again on request; test: a ping.')),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempt_count: z.number().check(z.int()),
    next_attempt_at: z.nullable(timestamp()),
    created_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'WebhookDelivery', description: 'One event queued for one endpoint, retried until it succeeds or the schedule runs out.' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryAttempt = z
  .object({
    id: id(),
    object: z.literal('webhook_delivery_attempt'),
    livemode: livemode(),
    delivery_id: id(),
    endpoint_id: id(),
    event_id: id(),
    event_type: z.string(),
    attempt_number: z.number().check(z.int(), z.describe('1 for the first attempt of the delivery.')),
    succeeded: z.boolean().check(z.describe('A 2xx answer within 15 seconds.')),
    status_code: z
      .nullable(z.number().check(z.int()))
      .check(z.describe('The HTTP status the endpoint answered; null when there was no answer (error says why).')),
    duration_ms: z.number().check(z.int()),
    response_excerpt: z.nullable(z.string()).check(z.describe('The first 1 KB (UTF-8) of the response body.')),
    error: z
      .nullable(z.string())
      .check(z.describe('Why no usable answer came: a timeout, a refused connection, a redirect (never followed), a refused address.')),
    next_attempt_at: z.nullable(timestamp()).check(z.describe('When the next attempt is due; null when this one succeeded or was the last.')),
    created_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'WebhookDeliveryAttempt', description: 'One HTTP attempt of a webhook delivery and its outcome.' });
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;
