import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { queueDelivery } from '../../shared/webhooks/delivery';
import { getWebhookEndpoint } from '../../shared/webhooks/endpoint-store';
import { WebhookDelivery } from '../../shared/webhooks/schemas/webhook-delivery';
import { newId } from '../../shared/ids';
import { API_VERSION } from '../../shared/version';

export const route = defineRoute({
  id: 'webhook_endpoints.test',
  method: 'POST',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}/test',
  tag: 'Webhook endpoints',
  summary: 'Send a test ping to a webhook endpoint',
  description:
    'Queues a `ping` event for this endpoint alone, signed and retried like any delivery, whatever its enabled_events. The ping is not an event of the feed. Returns the queued delivery (202); its attempts appear under deliveries.',
  scopes: ['webhooks:write'],
  params: entityResourceParams,
  response: WebhookDelivery,
  successStatus: 202,
  handler: async (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    const endpoint = await getWebhookEndpoint(ctx.db, ctx.entityId, params.id);
    const ping = {
      id: newId(),
      object: 'event',
      type: 'ping',
      api_version: API_VERSION,
      payload_version: 1,
      created_at: new Date().toISOString(),
      entity_id: ctx.entityId,
      livemode: ctx.mode === 'live',
      data: { object: { id: endpoint.id, object: 'webhook_endpoint', livemode: ctx.mode === 'live', url: endpoint.url } },
      request: { id: ctx.requestId, idempotency_key: ctx.idempotencyKey ?? null },
    };
    return queueDelivery(ctx.db, ctx.entityId, { endpointId: endpoint.id, eventId: ping.id, eventType: 'ping', kind: 'test', payload: ping });
  },
});

export const handler = lambdaHandler(route, idempotency);
