import { getTaxRate } from '../../shared/orders/tax-rates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { TaxRate } from '../../shared/orders/schemas/tax-rate';

export const route = defineRoute({
  id: 'tax_rates.get',
  method: 'GET',
  path: '/v1/tax-rates/{id}',
  tag: 'Tax rates',
  summary: 'Retrieve a tax rate',
  scopes: ['settings:read'],
  params: idParams,
  response: TaxRate,
  handler: (ctx, { params }) => getTaxRate(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
