import { getPricingLevel } from '../../shared/catalog/pricing';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { PricingLevel } from '../../shared/catalog/schemas/pricing';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'pricing_levels.get',
  method: 'GET',
  path: '/v1/pricing-levels/{id}',
  tag: 'Pricing',
  summary: 'Retrieve a pricing level',
  scopes: ['products:read'],
  params: idParams,
  response: PricingLevel,
  handler: (ctx, { params }) => getPricingLevel(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
