import { createProductVendor } from '../../shared/catalog/product-vendors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { ProductVendor, ProductVendorCreate } from '../../shared/catalog/schemas/product-vendor';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'products.vendors.create',
  method: 'POST',
  path: '/v1/products/{id}/vendors',
  tag: 'Product vendors',
  summary: 'Link a vendor to a product',
  description: 'One relationship per vendor and product (409 product_vendor_exists). is_preferred true demotes the previous preferred vendor.',
  scopes: ['products:write'],
  params: idParams,
  body: ProductVendorCreate,
  response: ProductVendor,
  successStatus: 201,
  errors: ['product_vendor_exists'],
  handler: async (ctx, { params, body }) => {
    const relationship = await createProductVendor(ctx.db, ctx.entityId, params.id, body);
    await ctx.events.record('product_vendor.created', relationship);
    return relationship;
  },
});

export const handler = lambdaHandler(route, idempotency);
