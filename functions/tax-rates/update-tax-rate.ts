import { getTaxRate, updateTaxRate } from '../../shared/orders/tax-rates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { TaxRate, TaxRateUpdate } from '../../shared/orders/schemas/tax-rate';

export const route = defineRoute({
  id: 'tax_rates.update',
  method: 'PATCH',
  path: '/v1/tax-rates/{id}',
  tag: 'Tax rates',
  summary: 'Update a tax rate',
  description:
    "Send only the fields to change; null clears description. A new rate applies to lines the rate is set on from now on: existing lines keep the rate they copied, so no document's tax changes, whether posted or draft (set tax_rate_id on a draft's line again to take the new rate). is_active false archives the rate: lines keep it, new lines cannot be given it.",
  scopes: ['settings:write'],
  params: idParams,
  body: TaxRateUpdate,
  response: TaxRate,
  errors: ['tax_rate_name_taken'],
  current: (ctx, { params }) => getTaxRate(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { taxRate, previous } = await updateTaxRate(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('tax_rate.updated', taxRate, previous);
    return taxRate;
  },
});

export const handler = lambdaHandler(route, idempotency);
