import { getComponent, removeComponent } from '../../shared/catalog/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { kitComponentParams } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.components.delete',
  method: 'DELETE',
  path: '/v1/kits/{id}/components/{component_id}',
  tag: 'Kits',
  summary: 'Remove a component from a kit',
  description:
    "Removes the component row (the component product and past builds are untouched). A kit keeps at least one component: removing the last is 409 kit_component_last (a bundle may lose its last one). The kit's updated_at moves.",
  scopes: ['products:write'],
  params: kitComponentParams,
  response: deletedObject('kit_component'),
  errors: ['kit_component_last'],
  current: (ctx, { params }) => getComponent(ctx.db, ctx.entityId, params.id, params.component_id, { lock: true }),
  handler: async (ctx, { params }) => {
    const component = await removeComponent(ctx.db, ctx.entityId, params.id, params.component_id);
    await ctx.events.record('kit_component.deleted', component);
    return { id: component.id, object: 'kit_component' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
