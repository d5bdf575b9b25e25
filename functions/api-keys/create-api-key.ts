import { hasScope } from '../../shared/auth/scopes';
import { getEntity, insertApiKey } from '../../shared/tenants/identity-store';
import { ApiError } from '../../shared/errors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { ApiKeyCreate, ApiKeyWithSecret } from '../../shared/tenants/schemas/api-key';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { apiKeyExpand } from './expand';

export const route = defineRoute({
  id: 'api_keys.create',
  method: 'POST',
  path: '/v1/entities/{entity_id}/api-keys',
  tag: 'API keys',
  summary: 'Create an API key',
  description:
    "The secret is returned once, in this response. The new key acts for the same user as the calling key, and may hold only scopes the calling key holds. A key creates keys of its own mode only: live and test data are apart, and so are their keys (a test key's entity is the account's test-mode entity). The operator's `create-key --mode` issues the first key of either mode.",
  scopes: ['api_keys:write'],
  params: entityScopedParams,
  body: ApiKeyCreate,
  response: ApiKeyWithSecret,
  successStatus: 201,
  expand: apiKeyExpand,
  errors: ['insufficient_permissions'],
  handler: async (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    const mode = body.mode ?? ctx.mode;
    if (mode !== ctx.mode) {
      throw new ApiError('insufficient_permissions', { param: 'mode', hint: `A ${ctx.mode}-mode key can create ${ctx.mode}-mode keys only.` });
    }
    body.scopes.forEach((scope, index) => {
      if (!hasScope(ctx.scopes, scope)) {
        throw new ApiError('insufficient_scope', {
          param: `scopes[${index}]`,
          required: scope,
          hint: `A key can grant only scopes it holds; this key lacks ${scope}.`,
        });
      }
    });
    if (body.expires_at && new Date(body.expires_at) <= new Date()) {
      throw new ApiError('parameter_invalid', { param: 'expires_at', hint: 'expires_at must be in the future.' });
    }
    const key = await insertApiKey(ctx.db, await getEntity(ctx.db, ctx.entityId), {
      userId: ctx.userId,
      mode,
      scopes: body.scopes,
      name: body.name,
      expiresAt: body.expires_at,
      metadata: body.metadata,
    });
    const { secret: _secret, ...withoutSecret } = key;
    await ctx.events.record('api_key.created', withoutSecret);
    return key;
  },
});

export const handler = lambdaHandler(route, idempotency);
