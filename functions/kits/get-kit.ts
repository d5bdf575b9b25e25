import { getKit } from '../../shared/catalog/kits';
import { productDemand } from '../../shared/inventory/product-demand';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Kit } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.get',
  method: 'GET',
  path: '/v1/kits/{id}',
  tag: 'Kits',
  summary: 'Retrieve a kit',
  description:
    "The kit product with its components; 404 for a product that is not a kit. demand_avg_per_day is the kit's own demand (kits sold from stock), summed over its location balances with the balance rule (last 365 days, over the days since each balance's first movement, at most 365 and at least 1); the build_consume draws of its components count on the components, not on the kit.",
  scopes: ['products:read'],
  params: idParams,
  response: Kit,
  handler: (ctx, { params }) => getKit(ctx.db, ctx.entityId, params.id, productDemand),
});

export const handler = lambdaHandler(route);
