import { createProduct } from '../../shared/catalog/products';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { Product, ProductCreate } from '../../shared/catalog/schemas/product';
import { PRODUCT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'products.create',
  method: 'POST',
  path: '/v1/products',
  tag: 'Products',
  summary: 'Create a product',
  description:
    'SKUs are unique within the entity (case-insensitive); external_source + external_id identify a migrated row and are unique too. Kits are created with POST /v1/kits.',
  scopes: ['products:write'],
  body: ProductCreate,
  response: Product,
  successStatus: 201,
  errors: ['product_sku_taken', 'external_id_taken'],
  expand: PRODUCT_EXPAND,
  handler: async (ctx, { body }) => {
    const product = await createProduct(ctx.db, ctx.entityId, body);
    await ctx.events.record('product.created', product);
    return product;
  },
});

export const handler = lambdaHandler(route);
