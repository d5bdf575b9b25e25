import { createPricingLevel } from '../../shared/catalog/pricing';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { PricingLevel, PricingLevelCreate } from '../../shared/catalog/schemas/pricing';

export const route = defineRoute({
  id: 'pricing_levels.create',
  method: 'POST',
  path: '/v1/pricing-levels',
  tag: 'Pricing',
  summary: 'Create a pricing level',
  description: 'A named price list (Retail, Wholesale, ...) that pricing policies price products for. Names are unique within the entity.',
  scopes: ['products:write'],
  body: PricingLevelCreate,
  response: PricingLevel,
  successStatus: 201,
  errors: ['pricing_level_name_taken'],
  handler: async (ctx, { body }) => {
    const level = await createPricingLevel(ctx.db, ctx.entityId, body);
    await ctx.events.record('pricing_level.created', level);
    return level;
  },
});

export const handler = lambdaHandler(route, idempotency);
