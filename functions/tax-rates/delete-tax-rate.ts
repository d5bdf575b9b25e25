import { deleteTaxRate, getTaxRate } from '../../shared/orders/tax-rates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'tax_rates.delete',
  method: 'DELETE',
  path: '/v1/tax-rates/{id}',
  tag: 'Tax rates',
  summary: 'Delete a tax rate',
  description:
    'Permanently deletes a tax rate no order line uses. A rate in use is 409 tax_rate_in_use (references.order_lines counts the lines): archive it with PATCH is_active false instead.',
  scopes: ['settings:write'],
  params: idParams,
  response: deletedObject('tax_rate'),
  errors: ['tax_rate_in_use'],
  current: (ctx, { params }) => getTaxRate(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const taxRate = await deleteTaxRate(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('tax_rate.deleted', taxRate);
    return { id: taxRate.id, object: 'tax_rate' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
