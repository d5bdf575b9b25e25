import { addComponent } from '../../shared/catalog/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { param, pathParams } from '../../shared/schemas/parameters';
import { KitComponent, KitComponentInput } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.components.create',
  method: 'POST',
  path: '/v1/kits/{id}/components',
  tag: 'Kits',
  summary: 'Add a component to a kit',
  description:
    "The rules of POST /v1/kits for one component: a simple (stocked) product of the entity (another entity's or an unknown id is a 404 naming component_product_id; another type, or the kit itself, is a 400), quantity_per_kit greater than 0 with up to 4 decimals, at most 200 components. A product already in the kit is 409 kit_component_exists (change that component instead). sequence defaults to the highest sequence + 1. Returns 201 with the kit_component; the kit's updated_at moves.",
  scopes: ['products:write'],
  params: pathParams({ id: param.id('The kit product id.') }),
  body: KitComponentInput,
  response: KitComponent,
  successStatus: 201,
  errors: ['kit_component_exists', 'kit_component_limit'],
  handler: async (ctx, { params, body }) => {
    const component = await addComponent(ctx.db, ctx.entityId, params.id, body);
    await ctx.events.record('kit_component.created', component);
    return component;
  },
});

export const handler = lambdaHandler(route, idempotency);
