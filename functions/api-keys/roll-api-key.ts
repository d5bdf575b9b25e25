import { rollApiKey } from '../../shared/tenants/identity-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { ApiKeyRoll, ApiKeyWithSecret } from '../../shared/tenants/schemas/api-key';
import { entityResourceParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'api_keys.roll',
  method: 'POST',
  path: '/v1/entities/{entity_id}/api-keys/{id}/roll',
  tag: 'API keys',
  summary: 'Roll an API key',
  description:
    'Issues a replacement key (same name, mode, scopes and user; its secret is returned once) and makes the old key expire after expires_in_seconds (default: now).',
  scopes: ['api_keys:write'],
  params: entityResourceParams,
  body: ApiKeyRoll,
  response: ApiKeyWithSecret,
  successStatus: 201,
  errors: ['api_key_already_revoked'],
  handler: async (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    const { replacement, old } = await rollApiKey(ctx.db, ctx.entityId, params.id, body?.expires_in_seconds ?? 0);
    const { secret: _secret, ...withoutSecret } = replacement;
    await ctx.events.record('api_key.rolled', { ...withoutSecret, rolled_from: old });
    return replacement;
  },
});

export const handler = lambdaHandler(route, idempotency);
