import { getParty, updateParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Account } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'accounts.unarchive',
  method: 'POST',
  path: '/v1/accounts/{id}/unarchive',
  tag: 'Accounts',
  summary: 'Unarchive a account',
  description: 'Restores an archived account. Restoring a current account changes nothing.',
  scopes: ['accounts:write'],
  params: idParams,
  response: Account,
  current: (ctx, { params }) => getParty(ctx.db, 'account', ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const { party, previous } = await updateParty(ctx.db, 'account', ctx.entityId, params.id, { is_archived: false });
    if (Object.keys(previous).length) await ctx.events.record('account.unarchived', party, previous);
    return party as Account;
  },
});

export const handler = lambdaHandler(route, idempotency);
