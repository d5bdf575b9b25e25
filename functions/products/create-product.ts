import { createProduct } from '../../shared/catalog/products';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Product, ProductCreate } from '../../shared/catalog/schemas/product';
import { PRODUCT_EXPAND } from './expand';
import { asBatchRecord } from '../../shared/migration/batches';

export const route = defineRoute({
  id: 'products.create',
  method: 'POST',
  path: '/v1/products',
  tag: 'Products',
  summary: 'Create a product',
  description:
    'SKUs are unique within the entity (case-insensitive); external_source + external_id identify a migrated row and are unique too (a missing external_source counts as the empty one). Kits are created with POST /v1/kits. With migration_batch_id (an open import batch of this entity) the record keeps the batch id and gets imported_at; a repeated external_source + external_id answers 409 external_id_taken with existing_id, so an import re-run can skip what is in.',
  scopes: ['products:write'],
  body: ProductCreate,
  response: Product,
  successStatus: 201,
  errors: ['product_sku_taken', 'external_id_taken', 'migration_batch_closed', 'reorder_point_follows_demand'],
  expand: PRODUCT_EXPAND,
  handler: async (ctx, { body }) => {
    const product = await createProduct(ctx.db, ctx.entityId, await asBatchRecord(ctx.db, ctx.entityId, body));
    await ctx.events.record('product.created', product);
    return product;
  },
});

export const handler = lambdaHandler(route, idempotency);
