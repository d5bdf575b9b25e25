import * as z from 'zod/mini';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { id } from '../../shared/schemas/common';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { queueDelivery } from '../../shared/webhooks/delivery';
import { getWebhookEndpoint } from '../../shared/webhooks/endpoint-store';
import { getEvent } from '../../shared/webhooks/event-store';
import { WebhookDelivery } from '../../shared/webhooks/schemas/webhook-delivery';
import { ApiError } from '../../shared/errors';

export const route = defineRoute({
  id: 'events.resend',
  method: 'POST',
  path: '/v1/entities/{entity_id}/events/{id}/resend',
  tag: 'Events',
  summary: 'Send an event again to one webhook endpoint',
  description:
    'Queues one more delivery of this event to the endpoint named, whether or not it subscribes to the type (the endpoint must be enabled). It is signed and retried like any delivery and carries the same webhook-id, so a receiver that already processed the event can recognise it. Returns the queued delivery (202).',
  scopes: ['webhooks:write'],
  params: entityResourceParams,
  body: z.strictObject({ endpoint_id: id().check(z.describe('The webhook endpoint to send the event to.')) }),
  response: WebhookDelivery,
  successStatus: 202,
  errors: ['webhook_endpoint_disabled'],
  handler: async (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    const event = await getEvent(ctx.db, ctx.entityId, params.id);
    const endpoint = await getWebhookEndpoint(ctx.db, ctx.entityId, body.endpoint_id).catch((error: unknown) => {
      throw error instanceof ApiError && error.code === 'not_found'
        ? new ApiError('not_found', { param: 'endpoint_id', hint: 'No such webhook endpoint in this entity.' })
        : error;
    });
    if (endpoint.status !== 'enabled') {
      throw new ApiError('webhook_endpoint_disabled', { param: 'endpoint_id', hint: 'Enable the endpoint before resending events to it.' });
    }
    return queueDelivery(ctx.db, ctx.entityId, { endpointId: endpoint.id, eventId: event.id, eventType: event.type, kind: 'resend' });
  },
});

export const handler = lambdaHandler(route, idempotency);
