import { param, queryParams, idParams } from '../../shared/schemas/parameters';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
import { kitAvailability } from '../../shared/inventory/kit-availability';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { KitAvailability } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.availability.get',
  method: 'GET',
  path: '/v1/kits/{id}/availability',
  tag: 'Kits',
  summary: 'How many kits the component stock can build',
  description: 'buildable_quantity = min over components of floor(available / quantity_per_kit), at one location or summed over all.',
  scopes: ['products:read'],
  params: idParams,
  query: queryParams({ location_id: param.id('Count stock at this location only.') }),
  response: KitAvailability,
  handler: (ctx, { params, query }) => kitAvailability(ctx.db, ctx.entityId, params.id, openOrderQuantitiesSql, query.location_id),
});

export const handler = lambdaHandler(route);
