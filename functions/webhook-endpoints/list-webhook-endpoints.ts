import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { listWebhookEndpoints } from '../../shared/webhooks/endpoint-store';
import { WebhookEndpoint } from '../../shared/webhooks/schemas/webhook-endpoint';

export const route = defineRoute({
  id: 'webhook_endpoints.list',
  method: 'GET',
  path: '/v1/entities/{entity_id}/webhook-endpoints',
  tag: 'Webhook endpoints',
  summary: 'List webhook endpoints',
  description: 'Newest first, enabled and disabled alike. Secrets are never listed.',
  scopes: ['webhooks:read'],
  params: entityScopedParams,
  query: listQuery(),
  response: listEnvelope(WebhookEndpoint),
  list: true,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return listWebhookEndpoints(ctx.db, ctx.entityId, query);
  },
});

export const handler = lambdaHandler(route);
