import { getApiKey, updateApiKey } from '../../shared/tenants/identity-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { ApiKey, ApiKeyUpdate } from '../../shared/tenants/schemas/api-key';
import { entityResourceParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'api_keys.update',
  method: 'PATCH',
  path: '/v1/entities/{entity_id}/api-keys/{id}',
  tag: 'API keys',
  summary: 'Update an API key',
  description: 'Only the name and metadata change; scopes are fixed at creation (create a new key for other scopes).',
  scopes: ['api_keys:write'],
  params: entityResourceParams,
  body: ApiKeyUpdate,
  response: ApiKey,
  current: (ctx, input) => {
    requireOwnEntity(ctx, input.params.entity_id);
    return getApiKey(ctx.db, ctx.entityId, input.params.id, { lock: true });
  },
  handler: (ctx, input) => {
    requireOwnEntity(ctx, input.params.entity_id);
    return updateApiKey(ctx.db, ctx.entityId, input.params.id, input.body);
  },
});

export const handler = lambdaHandler(route, idempotency);
