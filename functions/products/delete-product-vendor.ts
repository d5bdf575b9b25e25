import { deleteProductVendor, getProductVendor } from '../../shared/catalog/product-vendors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { productVendorParams as pvParams } from '../../shared/catalog/schemas/product-vendor';

export const route = defineRoute({
  id: 'products.vendors.delete',
  method: 'DELETE',
  path: '/v1/products/{id}/vendors/{pvid}',
  tag: 'Product vendors',
  summary: 'Unlink a vendor from a product',
  scopes: ['products:write'],
  params: pvParams,
  response: deletedObject('product_vendor'),
  current: (ctx, { params }) => getProductVendor(ctx.db, ctx.entityId, params.id, params.pvid, { lock: true }),
  handler: async (ctx, { params }) => {
    const relationship = await deleteProductVendor(ctx.db, ctx.entityId, params.id, params.pvid);
    await ctx.events.record('product_vendor.deleted', relationship);
    return { id: relationship.id, object: 'product_vendor' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
