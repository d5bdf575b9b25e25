import { createTaxRate } from '../../shared/orders/tax-rates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { TaxRate, TaxRateCreate } from '../../shared/orders/schemas/tax-rate';

export const route = defineRoute({
  id: 'tax_rates.create',
  method: 'POST',
  path: '/v1/tax-rates',
  tag: 'Tax rates',
  summary: 'Create a tax rate',
  description:
    'A percentage (0 to 100, up to 4 decimals) that order lines point at by tax_rate_id; the line copies the rate when it is set. name is unique within the entity (case-insensitive).',
  scopes: ['settings:write'],
  body: TaxRateCreate,
  response: TaxRate,
  successStatus: 201,
  errors: ['tax_rate_name_taken'],
  handler: async (ctx, { body }) => {
    const taxRate = await createTaxRate(ctx.db, ctx.entityId, body);
    await ctx.events.record('tax_rate.created', taxRate);
    return taxRate;
  },
});

export const handler = lambdaHandler(route, idempotency);
