import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { listDeliveryAttempts } from '../../shared/webhooks/delivery';
import { WebhookDeliveryAttempt } from '../../shared/webhooks/schemas/webhook-delivery';

export const route = defineRoute({
  id: 'webhook_endpoints.deliveries.list',
  method: 'GET',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}/deliveries',
  tag: 'Webhook endpoints',
  summary: "List a webhook endpoint's delivery attempts",
  description:
    'Every attempt to deliver an event to this endpoint, newest first: the event, the attempt number, the status code, the duration, the first 1 KB of the response and when the next attempt is due. A delivery is retried with backoff for about three days (immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h and 10 h, each with 10% jitter) until the endpoint answers 2xx within 15 seconds; a 410 answer disables the endpoint at once. Deliveries are at least once and in no guaranteed order: de-duplicate on the event id (webhook-id header) and order by created_at, and use the events feed to catch up.',
  scopes: ['webhooks:read'],
  params: entityResourceParams,
  query: listQuery(),
  response: listEnvelope(WebhookDeliveryAttempt),
  list: true,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return listDeliveryAttempts(ctx.db, ctx.entityId, params.id, query);
  },
});

export const handler = lambdaHandler(route);
