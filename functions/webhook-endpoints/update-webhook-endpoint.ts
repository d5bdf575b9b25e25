import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { getWebhookEndpoint, updateWebhookEndpoint } from '../../shared/webhooks/endpoint-store';
import { WebhookEndpoint, WebhookEndpointUpdate } from '../../shared/webhooks/schemas/webhook-endpoint';
import { checkEnabledEvents, checkUrl, URL_ERRORS, URL_RULES } from './endpoint-input';

export const route = defineRoute({
  id: 'webhook_endpoints.update',
  method: 'PATCH',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}',
  tag: 'Webhook endpoints',
  summary: 'Update a webhook endpoint',
  description: `Changes the url, enabled_events, description or metadata (metadata is replaced as a whole). ${URL_RULES} Use disable and enable to stop and resume deliveries.`,
  scopes: ['webhooks:write'],
  params: entityResourceParams,
  body: WebhookEndpointUpdate,
  response: WebhookEndpoint,
  errors: [...URL_ERRORS],
  current: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return getWebhookEndpoint(ctx.db, ctx.entityId, params.id, { lock: true });
  },
  handler: async (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    const enabledEvents = body.enabled_events && checkEnabledEvents(body.enabled_events);
    const url = body.url === undefined ? undefined : await checkUrl(body.url);
    return updateWebhookEndpoint(ctx.db, ctx.entityId, params.id, {
      url,
      enabled_events: enabledEvents,
      description: body.description,
      metadata: body.metadata,
    });
  },
});

export const handler = lambdaHandler(route, idempotency);
