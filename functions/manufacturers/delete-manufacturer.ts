import { deleteManufacturer, getManufacturer } from '../../shared/catalog/manufacturers';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { DeletedManufacturer } from '../../shared/catalog/schemas/manufacturer';

export const route = defineRoute({
  id: 'manufacturers.delete',
  method: 'DELETE',
  path: '/v1/manufacturers/{id}',
  tag: 'Manufacturers',
  summary: 'Delete a manufacturer',
  description:
    'Permanently deletes a manufacturer. Refused with 409 manufacturer_in_use while any product references it (the error carries references.products); reassign or clear the manufacturer on those products first.',
  scopes: ['manufacturers:write'],
  params: idParams,
  response: DeletedManufacturer,
  errors: ['manufacturer_in_use'],
  current: (ctx, { params }) => getManufacturer(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const manufacturer = await deleteManufacturer(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('manufacturer.deleted', manufacturer);
    return { data: { id: manufacturer.id, object: 'manufacturer' as const, name: manufacturer.name, deleted: true as const } };
  },
});

export const handler = lambdaHandler(route, idempotency);
