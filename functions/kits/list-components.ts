import { listComponents } from '../../shared/catalog/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { ComponentList } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'kits.components.list',
  method: 'GET',
  path: '/v1/kits/{id}/components',
  tag: 'Kits',
  summary: 'List the components of a kit or bundle',
  description:
    "The component rows of a kit or a bundle, all in one response (total counts them), ordered by sequence. GET /v1/products/{id}/components answers for kits only; this route is where a bundle's components are read. Any other product is a 404.",
  scopes: ['products:read'],
  params: idParams,
  response: ComponentList,
  handler: (ctx, { params }) => listComponents(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
