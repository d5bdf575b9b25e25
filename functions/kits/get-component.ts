import { getComponent } from '../../shared/catalog/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { KitComponent, kitComponentParams } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.components.get',
  method: 'GET',
  path: '/v1/kits/{id}/components/{component_id}',
  tag: 'Kits',
  summary: 'Retrieve a kit component',
  description: 'One component row of a kit; its ETag is the one PATCH and DELETE of the component check in If-Match.',
  scopes: ['products:read'],
  params: kitComponentParams,
  response: KitComponent,
  handler: (ctx, { params }) => getComponent(ctx.db, ctx.entityId, params.id, params.component_id),
});

export const handler = lambdaHandler(route);
