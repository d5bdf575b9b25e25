import { getParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Account } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'accounts.get',
  method: 'GET',
  path: '/v1/accounts/{id}',
  tag: 'Accounts',
  summary: 'Retrieve a account',
  description: 'Archived accounts are returned too (is_archived true).',
  scopes: ['accounts:read'],
  params: idParams,
  response: Account,
  handler: async (ctx, { params }) => (await getParty(ctx.db, 'account', ctx.entityId, params.id)) as Account,
});

export const handler = lambdaHandler(route);
