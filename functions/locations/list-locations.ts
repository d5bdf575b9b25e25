import { listLocations } from '../../shared/inventory/locations';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { Location } from '../../shared/inventory/schemas/location';

export const route = defineRoute({
  id: 'locations.list',
  method: 'GET',
  path: '/v1/locations',
  tag: 'Locations',
  summary: 'List locations',
  description: 'Newest first.',
  scopes: ['settings:read'],
  query: listQuery({ is_active: param.flag('Only active (true) or inactive (false) locations.') }),
  response: listEnvelope(Location),
  list: true,
  handler: (ctx, { query }) => listLocations(ctx.db, ctx.entityId, { is_active: query.is_active }, query),
});

export const handler = lambdaHandler(route);
