import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { getWebhookEndpoint } from '../../shared/webhooks/endpoint-store';
import { WebhookEndpoint } from '../../shared/webhooks/schemas/webhook-endpoint';

export const route = defineRoute({
  id: 'webhook_endpoints.get',
  method: 'GET',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}',
  tag: 'Webhook endpoints',
  summary: 'Retrieve a webhook endpoint',
  description: 'The secret is never returned after creation (roll-secret issues a new one).',
  scopes: ['webhooks:read'],
  params: entityResourceParams,
  response: WebhookEndpoint,
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return getWebhookEndpoint(ctx.db, ctx.entityId, params.id);
  },
});

export const handler = lambdaHandler(route);
