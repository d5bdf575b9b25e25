import { revokeApiKey } from '../../shared/tenants/identity-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { ApiKey } from '../../shared/tenants/schemas/api-key';
import { entityResourceParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'api_keys.revoke',
  method: 'POST',
  path: '/v1/entities/{entity_id}/api-keys/{id}/revoke',
  tag: 'API keys',
  summary: 'Revoke an API key',
  description: 'The key stops working at once (on AWS, within the authorizer cache lifetime of 60 seconds). Revocation is final.',
  scopes: ['api_keys:write'],
  params: entityResourceParams,
  response: ApiKey,
  errors: ['api_key_already_revoked'],
  handler: async (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    const key = await revokeApiKey(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('api_key.revoked', key);
    return key;
  },
});

export const handler = lambdaHandler(route, idempotency);
