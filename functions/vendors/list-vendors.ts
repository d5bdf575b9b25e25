import { onFirstUse } from '../../shared/schemas/lazy';
import { z } from 'zod';
import { listParties } from '../../shared/parties/parties';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { defineRoute } from '../../shared/http/route';
import { Vendor } from '../../shared/parties/schemas/party';

export const route = defineRoute({
  id: 'vendors.list',
  method: 'GET',
  path: '/v1/vendors',
  tag: 'Vendors',
  summary: 'List vendors',
  description: 'Newest first; archived vendors included unless is_archived=false. Filters combine with AND.',
  scopes: ['purchasing:read'],
  query: listQuery(
    () => ({
      email: z.string().min(1).max(254).optional().describe('Exact email, case-insensitive.'),
      account_number: z.string().min(1).max(50).optional().describe('Exact account_number, case-insensitive.'),
      external_id: z.string().min(1).max(200).optional().describe('Exact external_id of a migrated row.'),
      q: z.string().trim().min(1).max(100).optional().describe('Name contains this text (case-insensitive).'),
    }),
    { flags: { is_archived: 'Only archived (true) or only current (false) vendors.' } },
  ),
  response: onFirstUse(() => listEnvelope(Vendor)),
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
