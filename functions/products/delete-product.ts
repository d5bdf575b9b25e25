import { deleteProduct, getProduct } from '../../shared/catalog/products';
import { productDemand } from '../../shared/inventory/product-demand';
import { productHasTransactions } from '../../shared/inventory/stock-usage';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'products.delete',
  method: 'DELETE',
  path: '/v1/products/{id}',
  tag: 'Products',
  summary: 'Delete a product',
  description:
    'Permanently deletes a product nothing refers to (its options, vendor links, tags and, for a kit, its component rows go with it). A product that is a kit component, is priced by a pricing policy or has inventory history is refused with 409 product_in_use; set is_active false instead.',
  scopes: ['products:write'],
  params: idParams,
  response: deletedObject('product'),
  errors: ['product_in_use'],
  current: (ctx, { params }) => getProduct(ctx.db, ctx.entityId, params.id, productDemand, { lock: true }),
  handler: async (ctx, { params }) => {
    const product = await deleteProduct(ctx.db, ctx.entityId, params.id, () => productHasTransactions(ctx.db, ctx.entityId, params.id), productDemand);
    await ctx.events.record('product.deleted', product);
    return { id: product.id, object: 'product' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
