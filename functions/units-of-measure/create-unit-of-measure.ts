import { createUnitOfMeasure } from '../../shared/catalog/units-of-measure';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { UnitOfMeasure, UnitOfMeasureCreate } from '../../shared/catalog/schemas/unit-of-measure';

export const route = defineRoute({
  id: 'units_of_measure.create',
  method: 'POST',
  path: '/v1/units-of-measure',
  tag: 'Units of measure',
  summary: 'Create a unit of measure',
  description:
    'The first unit of a uom_type becomes the base unit of that type (conversion_factor 1); later units of the type state how many base units they hold. Abbreviations are unique within the entity.',
  scopes: ['settings:write'],
  body: UnitOfMeasureCreate,
  response: UnitOfMeasure,
  successStatus: 201,
  errors: ['uom_abbreviation_taken'],
  handler: async (ctx, { body }) => {
    const unit = await createUnitOfMeasure(ctx.db, ctx.entityId, body);
    await ctx.events.record('unit_of_measure.created', unit);
    return unit;
  },
});

export const handler = lambdaHandler(route, idempotency);
