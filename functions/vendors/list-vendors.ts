import { listParties } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { defineRoute } from '../../shared/http/route';
import { Vendor, partyListFilters } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'vendors.list',
  method: 'GET',
  path: '/v1/vendors',
  tag: 'Vendors',
  summary: 'List vendors',
  description: 'Newest first; archived vendors included unless is_archived=false. Filters combine with AND.',
  scopes: ['purchasing:read'],
  query: listQuery(partyListFilters('vendors')),
  response: listEnvelope(Vendor),
  list: true,
  handler: async (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return (await listParties(ctx.db, 'vendor', ctx.entityId, filters, { limit, starting_after, ending_before })) as {
      object: 'list';
      data: Vendor[];
      has_more: boolean;
      next_cursor: string | null;
      url: string;
    };
  },
});

export const handler = lambdaHandler(route);
