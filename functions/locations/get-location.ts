import { getLocation } from '../../shared/inventory/locations';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Location } from '../../shared/inventory/schemas/location';

export const route = defineRoute({
  id: 'locations.get',
  method: 'GET',
  path: '/v1/locations/{id}',
  tag: 'Locations',
  summary: 'Retrieve a location',
  scopes: ['settings:read'],
  params: idParams,
  response: Location,
  handler: (ctx, { params }) => getLocation(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
