import { listKits } from '../../shared/catalog/kits';
import { productDemand } from '../../shared/inventory/product-demand';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { Kit } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.list',
  method: 'GET',
  path: '/v1/kits',
  tag: 'Kits',
  summary: 'List kits',
  description:
    "Products of type kit or bundle (a bundle's components are sold with it; it is never built) with their components, newest first. demand_avg_per_day is each kit's own demand (kits sold from stock; the build_consume draws of its components count on the components), summed over its location balances with the balance rule (last 365 days, over the days since each balance's first movement, at most 365 and at least 1). Components and demand of a page are loaded in one query each.",
  scopes: ['products:read'],
  query: listQuery({
    is_active: param.flag('Only active (true) or inactive (false) kits.'),
    q: param.text({ min: 1, max: 100, trim: true }, 'SKU starting with, or name containing, this text (case-insensitive).'),
  }),
  response: listEnvelope(Kit),
  list: true,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listKits(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before }, productDemand);
  },
});

export const handler = lambdaHandler(route);
