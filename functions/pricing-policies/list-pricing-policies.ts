import { listPricingPolicies } from '../../shared/catalog/pricing';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { PricingPolicy } from '../../shared/catalog/schemas/pricing';

export const route = defineRoute({
  id: 'pricing_policies.list',
  method: 'GET',
  path: '/v1/pricing-policies',
  tag: 'Pricing',
  summary: 'List pricing policies',
  description: 'Newest first; filters combine with AND.',
  scopes: ['products:read'],
  query: listQuery({
    product_id: param.id(),
    pricing_level_id: param.id(),
    account_id: param.id(),
    is_active: param.flag('Only active (true) or inactive (false) policies.'),
    migration_batch_id: param.id('The policies of one migration batch.'),
  }),
  response: listEnvelope(PricingPolicy),
  list: true,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listPricingPolicies(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
