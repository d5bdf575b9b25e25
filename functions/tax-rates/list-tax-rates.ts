import { listTaxRates } from '../../shared/orders/tax-rates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { TaxRate } from '../../shared/orders/schemas/tax-rate';

export const route = defineRoute({
  id: 'tax_rates.list',
  method: 'GET',
  path: '/v1/tax-rates',
  tag: 'Tax rates',
  summary: 'List tax rates',
  description: 'Newest first.',
  scopes: ['settings:read'],
  query: listQuery({ is_active: param.flag('Only active (true) or inactive (false) rates.') }),
  response: listEnvelope(TaxRate),
  list: true,
  handler: (ctx, { query }) => listTaxRates(ctx.db, ctx.entityId, { is_active: query.is_active }, query),
});

export const handler = lambdaHandler(route);
