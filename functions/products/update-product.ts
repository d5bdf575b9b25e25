import { getProduct, updateProduct } from '../../shared/catalog/products';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
import { productDemand } from '../../shared/inventory/product-demand';
import { refreshStockConditions } from '../../shared/inventory/stock-movements';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Product, ProductUpdate } from '../../shared/catalog/schemas/product';
import { PRODUCT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'products.update',
  method: 'PATCH',
  path: '/v1/products/{id}',
  tag: 'Products',
  summary: 'Update a product',
  description:
    'Send only the fields to change; null clears an optional field. A changed reorder_point re-evaluates the stock condition of every location balance of the product and emits the low-stock events that crossing causes. Setting reorder_point_mode demand sets reorder_point to demand × lead time at once (then the server keeps it; sending reorder_point is 422 reorder_point_follows_demand until the mode is manual again).',
  scopes: ['products:write'],
  params: idParams,
  body: ProductUpdate,
  response: Product,
  errors: ['product_sku_taken', 'external_id_taken', 'reorder_point_follows_demand'],
  expand: PRODUCT_EXPAND,
  current: (ctx, { params }) => getProduct(ctx.db, ctx.entityId, params.id, productDemand, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { product, previous } = await updateProduct(ctx.db, ctx.entityId, params.id, body, productDemand);
    if (Object.keys(previous).length) await ctx.events.record('product.updated', product, previous);
    if ('reorder_point' in previous) await refreshStockConditions(ctx.db, ctx.entityId, product.id, ctx.events, openOrderQuantitiesSql);
    return product;
  },
});

export const handler = lambdaHandler(route, idempotency);
