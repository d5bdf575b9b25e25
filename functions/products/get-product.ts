import { getProduct } from '../../shared/catalog/products';
import { productDemand } from '../../shared/inventory/product-demand';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Product } from '../../shared/catalog/schemas/product';
import { PRODUCT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'products.get',
  method: 'GET',
  path: '/v1/products/{id}',
  tag: 'Products',
  summary: 'Retrieve a product',
  description:
    "demand_avg_per_day is the sum of the product's location balances' demand_avg_per_day (GET /v1/inventory/balances): fulfilled sales plus posted build_consume draws of the last 365 days, divided by the days since each balance's first movement (at most 365, at least 1); each physical decrement counts once, for the product it drew.",
  scopes: ['products:read'],
  params: idParams,
  response: Product,
  expand: PRODUCT_EXPAND,
  handler: (ctx, { params }) => getProduct(ctx.db, ctx.entityId, params.id, productDemand),
});

export const handler = lambdaHandler(route);
