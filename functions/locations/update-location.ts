import { getLocation, updateLocation } from '../../shared/inventory/locations';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Location, LocationUpdate } from '../../shared/inventory/schemas/location';

export const route = defineRoute({
  id: 'locations.update',
  method: 'PATCH',
  path: '/v1/locations/{id}',
  tag: 'Locations',
  summary: 'Update a location',
  description: 'Send only the fields to change; null clears an optional field.',
  scopes: ['settings:write'],
  params: idParams,
  body: LocationUpdate,
  response: Location,
  errors: ['location_name_taken', 'location_is_default'],
  current: (ctx, { params }) => getLocation(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { location, previous } = await updateLocation(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('location.updated', location, previous);
    return location;
  },
});

export const handler = lambdaHandler(route, idempotency);
