import { getUnitOfMeasure } from '../../shared/catalog/units-of-measure';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { UnitOfMeasure } from '../../shared/catalog/schemas/unit-of-measure';

export const route = defineRoute({
  id: 'units_of_measure.get',
  method: 'GET',
  path: '/v1/units-of-measure/{id}',
  tag: 'Units of measure',
  summary: 'Retrieve a unit of measure',
  scopes: ['settings:read'],
  params: idParams,
  response: UnitOfMeasure,
  handler: (ctx, { params }) => getUnitOfMeasure(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
