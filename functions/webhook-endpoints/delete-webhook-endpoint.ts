import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { deleteWebhookEndpoint, getWebhookEndpoint } from '../../shared/webhooks/endpoint-store';

export const route = defineRoute({
  id: 'webhook_endpoints.delete',
  method: 'DELETE',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}',
  tag: 'Webhook endpoints',
  summary: 'Delete a webhook endpoint',
  description: 'No event is delivered to it afterwards, retries included. The events stay in the events feed.',
  scopes: ['webhooks:write'],
  params: entityResourceParams,
  response: deletedObject('webhook_endpoint'),
  current: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return getWebhookEndpoint(ctx.db, ctx.entityId, params.id, { lock: true });
  },
  handler: async (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    await deleteWebhookEndpoint(ctx.db, ctx.entityId, params.id);
    return { id: params.id, object: 'webhook_endpoint' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
