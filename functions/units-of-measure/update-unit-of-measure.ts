import { getUnitOfMeasure, updateUnitOfMeasure } from '../../shared/catalog/units-of-measure';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { UnitOfMeasure, UnitOfMeasureUpdate } from '../../shared/catalog/schemas/unit-of-measure';

export const route = defineRoute({
  id: 'units_of_measure.update',
  method: 'PATCH',
  path: '/v1/units-of-measure/{id}',
  tag: 'Units of measure',
  summary: 'Update a unit of measure',
  description: 'Send only the fields to change. uom_type cannot change, and the base unit keeps conversion_factor 1.',
  scopes: ['settings:write'],
  params: idParams,
  body: UnitOfMeasureUpdate,
  response: UnitOfMeasure,
  errors: ['uom_abbreviation_taken'],
  current: (ctx, { params }) => getUnitOfMeasure(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { unit, previous } = await updateUnitOfMeasure(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('unit_of_measure.updated', unit, previous);
    return unit;
  },
});

export const handler = lambdaHandler(route, idempotency);
