import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { rollWebhookEndpointSecret } from '../../shared/webhooks/endpoint-store';
import { WebhookEndpointWithSecret } from '../../shared/webhooks/schemas/webhook-endpoint';

export const route = defineRoute({
  id: 'webhook_endpoints.roll_secret',
  method: 'POST',
  path: '/v1/entities/{entity_id}/webhook-endpoints/{id}/roll-secret',
  tag: 'Webhook endpoints',
  summary: "Roll a webhook endpoint's secret",
  description:
    'Issues a new signing secret, returned once in this response. The previous secret stays valid for 24 hours (previous_secret_expires_at): meanwhile every delivery carries a signature with each secret in its webhook-signature header, so a receiver can switch secrets without missing a delivery. Rolling again within the 24 hours retires the older of the two at once.',
  scopes: ['webhooks:write'],
  params: entityResourceParams,
  response: WebhookEndpointWithSecret,
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return rollWebhookEndpointSecret(ctx.db, ctx.entityId, params.id);
  },
});

export const handler = lambdaHandler(route, idempotency);
