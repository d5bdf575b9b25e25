import { createPricingPolicy } from '../../shared/catalog/pricing';
import { asBatchRecord } from '../../shared/migration/batches';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { PricingPolicy, PricingPolicyCreate } from '../../shared/catalog/schemas/pricing';

export const route = defineRoute({
  id: 'pricing_policies.create',
  method: 'POST',
  path: '/v1/pricing-policies',
  tag: 'Pricing',
  summary: 'Create a pricing policy',
  description:
    "A price for a product, optionally for a pricing level and/or a customer account, from min_quantity up (quantity tiers). One active policy per product, level, account, pricing_type and min_quantity (409 pricing_tier_exists). list_price defaults to the product's; adjustment and margin_pct are derived. Returns the bare policy with the joined names. With migration_batch_id (an open import batch of this entity) the record keeps the batch id and gets imported_at (unless given); a repeated external_source + external_id answers 409 external_id_taken with existing_id, so an import re-run can skip what is in.",
  scopes: ['products:write'],
  body: PricingPolicyCreate,
  response: PricingPolicy,
  successStatus: 201,
  errors: ['pricing_tier_exists', 'external_id_taken', 'migration_batch_closed'],
  handler: async (ctx, { body }) => {
    const policy = await createPricingPolicy(ctx.db, ctx.entityId, await asBatchRecord(ctx.db, ctx.entityId, body));
    await ctx.events.record('pricing_policy.created', policy);
    return policy;
  },
});

export const handler = lambdaHandler(route, idempotency);
