import { createManufacturer } from '../../shared/catalog/manufacturers';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Manufacturer, ManufacturerCreate } from '../../shared/catalog/schemas/manufacturer';

export const route = defineRoute({
  id: 'manufacturers.create',
  method: 'POST',
  path: '/v1/manufacturers',
  tag: 'Manufacturers',
  summary: 'Create a manufacturer',
  scopes: ['manufacturers:write'],
  body: ManufacturerCreate,
  response: Manufacturer,
  successStatus: 201,
  errors: ['manufacturer_name_taken'],
  handler: async (ctx, { body }) => {
    const manufacturer = await createManufacturer(ctx.db, ctx.entityId, body);
    await ctx.events.record('manufacturer.created', manufacturer);
    return manufacturer;
  },
});

export const handler = lambdaHandler(route, idempotency);
