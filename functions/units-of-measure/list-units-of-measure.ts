import { listUnitsOfMeasure } from '../../shared/catalog/units-of-measure';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { UnitOfMeasure } from '../../shared/catalog/schemas/unit-of-measure';

export const route = defineRoute({
  id: 'units_of_measure.list',
  method: 'GET',
  path: '/v1/units-of-measure',
  tag: 'Units of measure',
  summary: 'List units of measure',
  description: 'Newest first.',
  scopes: ['settings:read'],
  query: listQuery({ uom_type: param.text({ min: 1, max: 40 }, 'Only units of this type.') }),
  response: listEnvelope(UnitOfMeasure),
  list: true,
  handler: (ctx, { query }) => listUnitsOfMeasure(ctx.db, ctx.entityId, { uom_type: query.uom_type }, query),
});

export const handler = lambdaHandler(route);
