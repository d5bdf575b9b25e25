import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { setWebhookEndpointStatus } from '../../shared/webhooks/endpoint-store';
import { WebhookEndpoint } from '../../shared/webhooks/schemas/webhook-endpoint';

export const route = defineRoute({
  id: 'webhook_endpoints.enable',
  method: 'POST',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}/enable',
  tag: 'Webhook endpoints',
  summary: 'Enable a webhook endpoint',
  description:
    'Resumes deliveries of events that happen from now on, whatever disabled the endpoint (a call, a 410 answer or three days of failures). Enabling an enabled endpoint changes nothing.',
  scopes: ['webhooks:write'],
  params: entityResourceParams,
  response: WebhookEndpoint,
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return setWebhookEndpointStatus(ctx.db, ctx.entityId, params.id, 'enabled');
  },
});

export const handler = lambdaHandler(route, idempotency);
