import { z } from 'zod';
import { listKits } from '../../shared/data/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, paginationQuery } from '../../shared/http/pagination';
import { defineRoute } from '../../shared/http/route';
import { queryBoolean } from '../../shared/schemas/common';
import { Kit } from '../../shared/schemas/kit';

export const route = defineRoute({
  id: 'kits.list',
  method: 'GET',
  path: '/v1/kits',
  tag: 'Kits',
  summary: 'List kits',
  description: 'Products of type kit with their components, newest first.',
  scopes: ['products:read'],
  query: z.object({
    ...paginationQuery(),
    is_active: queryBoolean().optional(),
    q: z.string().trim().min(1).max(100).optional().describe('SKU starting with, or name containing, this text (case-insensitive).'),
  }),
  response: listEnvelope(Kit),
  list: true,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listKits(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
