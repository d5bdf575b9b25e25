import { createParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { Account, PartyCreate } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'accounts.create',
  method: 'POST',
  path: '/v1/accounts',
  tag: 'Accounts',
  summary: 'Create a account',
  description:
    'Customer accounts: the parties sales documents are for. account_number and external_source + external_id are unique within the entity when set.',
  scopes: ['accounts:write'],
  body: PartyCreate,
  response: Account,
  successStatus: 201,
  errors: ['account_number_taken', 'external_id_taken'],
  handler: async (ctx, { body }) => {
    const account = await createParty(ctx.db, 'account', ctx.entityId, body);
    await ctx.events.record('account.created', account);
    return account as Account;
  },
});

export const handler = lambdaHandler(route);
