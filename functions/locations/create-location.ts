import { createLocation } from '../../shared/inventory/locations';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Location, LocationCreate } from '../../shared/inventory/schemas/location';

export const route = defineRoute({
  id: 'locations.create',
  method: 'POST',
  path: '/v1/locations',
  tag: 'Locations',
  summary: 'Create a location',
  description:
    'Name must be unique within the entity. The first location of an entity becomes the default. Inventory balances of a new location start at zero.',
  scopes: ['settings:write'],
  body: LocationCreate,
  response: Location,
  successStatus: 201,
  errors: ['location_name_taken', 'location_is_default'],
  handler: async (ctx, { body }) => {
    const location = await createLocation(ctx.db, ctx.entityId, body);
    await ctx.events.record('location.created', location);
    return location;
  },
});

export const handler = lambdaHandler(route, idempotency);
