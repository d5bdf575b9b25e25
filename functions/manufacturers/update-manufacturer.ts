import { getManufacturer, updateManufacturer } from '../../shared/catalog/manufacturers';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Manufacturer, ManufacturerUpdate } from '../../shared/catalog/schemas/manufacturer';

export const route = defineRoute({
  id: 'manufacturers.update',
  method: 'PATCH',
  path: '/v1/manufacturers/{id}',
  tag: 'Manufacturers',
  summary: 'Update a manufacturer',
  description: 'Send only the fields to change; null clears an optional field.',
  scopes: ['manufacturers:write'],
  params: idParams,
  body: ManufacturerUpdate,
  response: Manufacturer,
  errors: ['manufacturer_name_taken'],
  current: (ctx, { params }) => getManufacturer(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { manufacturer, previous } = await updateManufacturer(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('manufacturer.updated', manufacturer, previous);
    return manufacturer;
  },
});

export const handler = lambdaHandler(route, idempotency);
