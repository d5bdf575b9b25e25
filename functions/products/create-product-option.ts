import { createOption } from '../../shared/catalog/product-options';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { ProductOption, ProductOptionCreate } from '../../shared/catalog/schemas/product-option';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'products.options.create',
  method: 'POST',
  path: '/v1/products/{id}/options',
  tag: 'Product options',
  summary: 'Add an option to a product',
  description: 'Names are unique per product (case-insensitive). A new option goes last (sequence = highest + 1).',
  scopes: ['products:write'],
  params: idParams,
  body: ProductOptionCreate,
  response: ProductOption,
  successStatus: 201,
  errors: ['option_name_taken'],
  handler: async (ctx, { params, body }) => {
    const option = await createOption(ctx.db, ctx.entityId, params.id, body);
    await ctx.events.record('product_option.created', option);
    return option;
  },
});

export const handler = lambdaHandler(route, idempotency);
