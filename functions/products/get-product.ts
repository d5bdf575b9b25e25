import { getProduct } from '../../shared/data/products';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/common';
import { Product } from '../../shared/schemas/product';
import { PRODUCT_EXPAND } from '../../shared/schemas/product-expand';

export const route = defineRoute({
  id: 'products.get',
  method: 'GET',
  path: '/v1/products/{id}',
  tag: 'Products',
  summary: 'Retrieve a product',
  scopes: ['products:read'],
  params: idParams,
  response: Product,
  expand: PRODUCT_EXPAND,
  handler: (ctx, { params }) => getProduct(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
