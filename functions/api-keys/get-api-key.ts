import { getApiKey } from '../../shared/tenants/identity-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { ApiKey } from '../../shared/tenants/schemas/api-key';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { apiKeyExpand } from './expand';

export const route = defineRoute({
  id: 'api_keys.get',
  method: 'GET',
  path: '/v1/entities/{entity_id}/api-keys/{id}',
  tag: 'API keys',
  summary: 'Retrieve an API key',
  description: 'The secret is never returned after creation.',
  scopes: ['api_keys:read'],
  params: entityResourceParams,
  response: ApiKey,
  expand: apiKeyExpand,
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return getApiKey(ctx.db, ctx.entityId, params.id);
  },
});

export const handler = lambdaHandler(route);
