import { listComponents } from '../../shared/catalog/kits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { ComponentList } from '../../shared/catalog/schemas/kit';

export const route = defineRoute({
  id: 'products.components.list',
  method: 'GET',
  path: '/v1/products/{id}/components',
  tag: 'Kits',
  summary: 'List the components of a kit',
  description:
    "Only valid for product_type kit; any other product (a bundle included) is a 404. A bundle's components are listed by GET /v1/kits/{id}/components. All components in one response (total counts them), ordered by sequence.",
  scopes: ['products:read'],
  params: idParams,
  response: ComponentList,
  handler: (ctx, { params }) => listComponents(ctx.db, ctx.entityId, params.id, { kitsOnly: true }),
});

export const handler = lambdaHandler(route);
