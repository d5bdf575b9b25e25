import * as z from 'zod/mini';
import { listOptions } from '../../shared/catalog/product-options';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { ProductOption } from '../../shared/catalog/schemas/product-option';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'products.options.list',
  method: 'GET',
  path: '/v1/products/{id}/options',
  tag: 'Product options',
  summary: "List a product's options",
  description: 'All options of the product in one response, ordered by sequence.',
  scopes: ['products:read'],
  params: idParams,
  response: z.object({ object: z.literal('list'), data: z.array(ProductOption), has_more: z.boolean() }),
  handler: (ctx, { params }) => listOptions(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
