import { deleteLocation, getLocation } from '../../shared/inventory/locations';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'locations.delete',
  method: 'DELETE',
  path: '/v1/locations/{id}',
  tag: 'Locations',
  summary: 'Delete a location',
  description:
    'Permanently deletes a location. The default location can be deleted only when it is the last one; a location that inventory or documents reference is kept (409 location_in_use): deactivate it instead.',
  scopes: ['settings:write'],
  params: idParams,
  response: deletedObject('location'),
  errors: ['location_is_default', 'location_in_use'],
  current: (ctx, { params }) => getLocation(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const location = await deleteLocation(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('location.deleted', location);
    return { id: location.id, object: 'location' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
