import * as z from 'zod/mini';
import { reorderOptions } from '../../shared/catalog/product-options';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { OptionReorder } from '../../shared/catalog/schemas/product-option';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'products.options.reorder',
  method: 'POST',
  path: '/v1/products/{id}/options/reorder',
  tag: 'Product options',
  summary: "Reorder a product's options",
  description:
    "Atomically sets the sequence of each listed option to its 1-based position; options not listed keep their sequence. An id that is not an option of this product (another product's, another entity's, unknown) is a 404 naming order[n], a repeated id a 400, and nothing changes.",
  scopes: ['products:write'],
  params: idParams,
  body: OptionReorder,
  response: z.object({ reordered: z.number().check(z.int()) }),
  handler: async (ctx, { params, body }) => {
    const result = await reorderOptions(ctx.db, ctx.entityId, params.id, body.order);
    await ctx.events.record('product_option.reordered', { product_id: params.id, order: body.order });
    return result;
  },
});

export const handler = lambdaHandler(route, idempotency);
