import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { insertWebhookEndpoint } from '../../shared/webhooks/endpoint-store';
import { WebhookEndpointCreate, WebhookEndpointWithSecret } from '../../shared/webhooks/schemas/webhook-endpoint';
import { checkEnabledEvents, checkUrl, URL_ERRORS, URL_RULES } from './endpoint-input';

export const route = defineRoute({
  id: 'webhook_endpoints.create',
  method: 'POST',
  path: '/v1/entities/{entity_id}/webhook-endpoints',
  tag: 'Webhook endpoints',
  summary: 'Create a webhook endpoint',
  description: `Events of the enabled types are POSTed to the url, signed the Standard Webhooks way (webhook-id, webhook-timestamp and webhook-signature headers) with the endpoint's secret, which is returned once, in this response. Delivery is at least once and ordering is not guaranteed: a retried event can arrive after later ones, so order by the event's created_at, de-duplicate on its id (the webhook-id header), and catch up on what an endpoint missed through the events feed. ${URL_RULES} Each mode has its own endpoints: a test key's endpoint receives test-mode events only.`,
  scopes: ['webhooks:write'],
  params: entityScopedParams,
  body: WebhookEndpointCreate,
  response: WebhookEndpointWithSecret,
  successStatus: 201,
  errors: [...URL_ERRORS],
  handler: async (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    const enabledEvents = checkEnabledEvents(body.enabled_events);
    const url = await checkUrl(body.url);
    return insertWebhookEndpoint(ctx.db, ctx.entityId, { url, enabledEvents, description: body.description, metadata: body.metadata });
  },
});

export const handler = lambdaHandler(route, idempotency);
