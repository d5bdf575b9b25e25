import * as z from 'zod';
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
    kind: z.enum(['event', 'resend', 'test']).describe('event: sent because the endpoint subscribes to the type; resend: sent again on request; test: a ping.'),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempt_count: z.number().int(),
    next_attempt_at: timestamp().nullable(),
    created_at: timestamp(),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event queued for one endpoint, retried until it succeeds or the schedule runs out.' });
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
    attempt_number: z.number().int().describe('1 for the first attempt of the delivery.'),
    succeeded: z.boolean().describe('A 2xx answer within 15 seconds.'),
    status_code: z.number().int().nullable().describe('The HTTP status the endpoint answered; null when there was no answer (error says why).'),
    duration_ms: z.number().int(),
    response_excerpt: z.string().nullable().describe('The first 1 KB (UTF-8) of the response body.'),
    error: z.string().nullable().describe('Why no usable answer came: a timeout, a refused connection, a redirect (never followed), a refused address.'),
    next_attempt_at: timestamp().nullable().describe('When the next attempt is due; null when this one succeeded or was the last.'),
    created_at: timestamp(),
  })
  .meta({ id: 'WebhookDeliveryAttempt', description: 'One HTTP attempt of a webhook delivery and its outcome.' });
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;
