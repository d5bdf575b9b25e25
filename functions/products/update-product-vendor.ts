import { getProductVendor, updateProductVendor } from '../../shared/catalog/product-vendors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { ProductVendor, ProductVendorUpdate, productVendorParams as pvParams } from '../../shared/catalog/schemas/product-vendor';

export const route = defineRoute({
  id: 'products.vendors.update',
  method: 'PATCH',
  path: '/v1/products/{id}/vendors/{pvid}',
  tag: 'Product vendors',
  summary: 'Update a product-vendor relationship',
  description:
    'Send only the fields to change. is_preferred true demotes the previous preferred vendor of the product in the same transaction; order_multiple is accepted and returned. Returns the updated relationship.',
  scopes: ['products:write'],
  params: pvParams,
  body: ProductVendorUpdate,
  response: ProductVendor,
  current: (ctx, { params }) => getProductVendor(ctx.db, ctx.entityId, params.id, params.pvid, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { relationship, previous } = await updateProductVendor(ctx.db, ctx.entityId, params.id, params.pvid, body);
    if (Object.keys(previous).length) await ctx.events.record('product_vendor.updated', relationship, previous);
    return relationship;
  },
});

export const handler = lambdaHandler(route, idempotency);
