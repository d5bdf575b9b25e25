import { createKit } from '../../shared/catalog/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Kit, KitCreate } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.create',
  method: 'POST',
  path: '/v1/kits',
  tag: 'Kits',
  summary: 'Create a kit with its components',
  description:
    'Atomic: the kit product and every component row are written together, or nothing is (an unknown or foreign component is a 404 naming components[n].component_product_id; a non-simple or repeated component is a 400). Returns 201 with the kit product and its embedded components. product_type bundle creates a bundle instead: its components are sold, committed and drawn like those of a kit, but it is never built nor stocked.',
  scopes: ['products:write'],
  body: KitCreate,
  response: Kit,
  successStatus: 201,
  errors: ['product_sku_taken', 'external_id_taken'],
  handler: async (ctx, { body }) => {
    const kit = await createKit(ctx.db, ctx.entityId, body);
    const { product_name: _name, components: _components, ...product } = kit;
    await ctx.events.record('product.created', product);
    return kit;
  },
});

export const handler = lambdaHandler(route, idempotency);
