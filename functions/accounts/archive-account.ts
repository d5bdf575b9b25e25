import { getParty, updateParty } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Account } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'accounts.archive',
  method: 'POST',
  path: '/v1/accounts/{id}/archive',
  tag: 'Accounts',
  summary: 'Archive a account',
  description:
    'Archives the account: it stays on existing documents and in lists (is_archived true) and can be restored with unarchive. Archiving an archived account changes nothing.',
  scopes: ['accounts:write'],
  params: idParams,
  response: Account,
  current: (ctx, { params }) => getParty(ctx.db, 'account', ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const { party, previous } = await updateParty(ctx.db, 'account', ctx.entityId, params.id, { is_archived: true });
    if (Object.keys(previous).length) await ctx.events.record('account.archived', party, previous);
    return party as Account;
  },
});

export const handler = lambdaHandler(route, idempotency);
