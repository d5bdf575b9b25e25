import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { setWebhookEndpointStatus } from '../../shared/webhooks/endpoint-store';
import { WebhookEndpoint } from '../../shared/webhooks/schemas/webhook-endpoint';

export const route = defineRoute({
  id: 'webhook_endpoints.disable',
  method: 'POST',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}/disable',
  tag: 'Webhook endpoints',
  summary: 'Disable a webhook endpoint',
  description:
    'Stops deliveries to the endpoint (disabled_reason user) until enable is called; events meanwhile are not queued for it, and stay in the events feed to catch up from. Disabling a disabled endpoint changes nothing.',
  scopes: ['webhooks:write'],
  params: entityResourceParams,
  response: WebhookEndpoint,
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return setWebhookEndpointStatus(ctx.db, ctx.entityId, params.id, 'disabled');
  },
});

export const handler = lambdaHandler(route, idempotency);
