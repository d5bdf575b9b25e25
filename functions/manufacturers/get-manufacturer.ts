import { getManufacturer } from '../../shared/catalog/manufacturers';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Manufacturer } from '../../shared/catalog/schemas/manufacturer';

export const route = defineRoute({
  id: 'manufacturers.get',
  method: 'GET',
  path: '/v1/manufacturers/{id}',
  tag: 'Manufacturers',
  summary: 'Retrieve a manufacturer',
  scopes: ['manufacturers:read'],
  params: idParams,
  response: Manufacturer,
  handler: (ctx, { params }) => getManufacturer(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
