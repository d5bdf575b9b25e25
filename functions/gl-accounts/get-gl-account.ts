import { getGlAccount } from '../../shared/ledger/gl-accounts';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { GlAccount } from '../../shared/ledger/schemas/gl-account';

export const route = defineRoute({
  id: 'gl_accounts.get',
  method: 'GET',
  path: '/v1/gl-accounts/{id}',
  tag: 'General ledger',
  summary: 'Retrieve a GL account',
  scopes: ['accounting:read'],
  params: idParams,
  response: GlAccount,
  handler: (ctx, { params }) => getGlAccount(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
