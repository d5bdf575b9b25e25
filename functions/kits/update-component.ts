import { getComponent, updateComponent } from '../../shared/catalog/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { KitComponent, kitComponentParams, KitComponentUpdate } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.components.update',
  method: 'PATCH',
  path: '/v1/kits/{id}/components/{component_id}',
  tag: 'Kits',
  summary: 'Update a kit component',
  description:
    "Send only the fields to change: quantity_per_kit (greater than 0, up to 4 decimals), sequence, is_assembled, metadata (replaced whole). The component product itself does not change; remove the component and add another instead. Returns the component; the kit's updated_at moves when anything changed.",
  scopes: ['products:write'],
  params: kitComponentParams,
  body: KitComponentUpdate,
  response: KitComponent,
  current: (ctx, { params }) => getComponent(ctx.db, ctx.entityId, params.id, params.component_id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { component, previous } = await updateComponent(ctx.db, ctx.entityId, params.id, params.component_id, body);
    if (Object.keys(previous).length) await ctx.events.record('kit_component.updated', component, previous);
    return component;
  },
});

export const handler = lambdaHandler(route, idempotency);
