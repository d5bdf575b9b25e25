import { listPricingLevels } from '../../shared/catalog/pricing';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { PricingLevel } from '../../shared/catalog/schemas/pricing';

export const route = defineRoute({
  id: 'pricing_levels.list',
  method: 'GET',
  path: '/v1/pricing-levels',
  tag: 'Pricing',
  summary: 'List pricing levels',
  description: 'Newest first.',
  scopes: ['products:read'],
  query: listQuery({ is_active: param.flag('Only active (true) or inactive (false) pricing levels.') }),
  response: listEnvelope(PricingLevel),
  list: true,
  handler: (ctx, { query }) => listPricingLevels(ctx.db, ctx.entityId, { is_active: query.is_active }, query),
});

export const handler = lambdaHandler(route);
