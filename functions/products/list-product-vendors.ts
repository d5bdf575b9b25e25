import * as z from 'zod/mini';
import { listProductVendors } from '../../shared/catalog/product-vendors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { ProductVendor } from '../../shared/catalog/schemas/product-vendor';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'products.vendors.list',
  method: 'GET',
  path: '/v1/products/{id}/vendors',
  tag: 'Product vendors',
  summary: "List a product's vendors",
  description: 'All relationships of the product in one response, the preferred vendor first.',
  scopes: ['products:read'],
  params: idParams,
  response: z.object({ object: z.literal('list'), data: z.array(ProductVendor), has_more: z.boolean() }),
  handler: (ctx, { params }) => listProductVendors(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
