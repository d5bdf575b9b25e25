import { listApiKeys } from '../../shared/tenants/identity-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param, entityScopedParams } from '../../shared/schemas/parameters';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { ApiKey } from '../../shared/tenants/schemas/api-key';
import { apiKeyExpand } from './expand';

export const route = defineRoute({
  id: 'api_keys.list',
  method: 'GET',
  path: '/v1/entities/{entity_id}/api-keys',
  tag: 'API keys',
  summary: 'List API keys',
  description: 'Newest first; revoked and expired keys included unless filtered by status.',
  scopes: ['api_keys:read'],
  params: entityScopedParams,
  query: listQuery({ mode: param.oneOf(['live', 'test']), status: param.oneOf(['active', 'expired', 'revoked']) }),
  response: listEnvelope(ApiKey),
  list: true,
  expand: apiKeyExpand,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return listApiKeys(ctx.db, ctx.entityId, { mode: query.mode, status: query.status }, query);
  },
});

export const handler = lambdaHandler(route);
