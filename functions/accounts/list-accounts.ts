import { listParties } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { defineRoute } from '../../shared/http/route';
import { Account, partyListFilters } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'accounts.list',
  method: 'GET',
  path: '/v1/accounts',
  tag: 'Accounts',
  summary: 'List accounts',
  description: 'Newest first; archived accounts included unless is_archived=false. Filters combine with AND.',
  scopes: ['accounts:read'],
  query: listQuery(partyListFilters('accounts')),
  response: listEnvelope(Account),
  list: true,
  handler: async (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return (await listParties(ctx.db, 'account', ctx.entityId, filters, { limit, starting_after, ending_before })) as {
      object: 'list';
      data: Account[];
      has_more: boolean;
      next_cursor: string | null;
      url: string;
    };
  },
});

export const handler = lambdaHandler(route);
