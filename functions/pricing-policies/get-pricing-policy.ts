import * as z from 'zod/mini';
import { getPricingPolicy } from '../../shared/catalog/pricing';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { PricingPolicy } from '../../shared/catalog/schemas/pricing';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'pricing_policies.get',
  method: 'GET',
  path: '/v1/pricing-policies/{id}',
  tag: 'Pricing',
  summary: 'Retrieve a pricing policy',
  description: 'Wrapped as {data: pricing policy}, with the joined product name, SKU and level name. 404 if the policy is not in the entity.',
  scopes: ['products:read'],
  params: idParams,
  response: z.object({ data: PricingPolicy }),
  handler: async (ctx, { params }) => ({ data: await getPricingPolicy(ctx.db, ctx.entityId, params.id) }),
});

export const handler = lambdaHandler(route);
