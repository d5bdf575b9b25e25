import { param, pathParams } from '../../shared/schemas/parameters';
import { deleteOption, getOption } from '../../shared/catalog/product-options';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';

const params = pathParams({ id: param.id('The product id.'), option_id: param.id('The option id.') });

export const route = defineRoute({
  id: 'products.options.delete',
  method: 'DELETE',
  path: '/v1/products/{id}/options/{option_id}',
  tag: 'Product options',
  summary: 'Delete a product option',
  scopes: ['products:write'],
  params,
  response: deletedObject('product_option'),
  current: (ctx, { params }) => getOption(ctx.db, ctx.entityId, params.id, params.option_id, { lock: true }),
  handler: async (ctx, { params }) => {
    const option = await deleteOption(ctx.db, ctx.entityId, params.id, params.option_id);
    await ctx.events.record('product_option.deleted', option);
    return { id: option.id, object: 'product_option' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
