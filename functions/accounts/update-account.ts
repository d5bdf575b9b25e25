import { getParty, updateParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Account, PartyUpdate } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'accounts.update',
  method: 'PATCH',
  path: '/v1/accounts/{id}',
  tag: 'Accounts',
  summary: 'Update a account',
  description: 'Send only the fields to change; null clears an optional field. Archived accounts can be edited.',
  scopes: ['accounts:write'],
  params: idParams,
  body: PartyUpdate,
  response: Account,
  errors: ['account_number_taken', 'external_id_taken'],
  current: (ctx, { params }) => getParty(ctx.db, 'account', ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { party, previous } = await updateParty(ctx.db, 'account', ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('account.updated', party, previous);
    return party as Account;
  },
});

export const handler = lambdaHandler(route, idempotency);
