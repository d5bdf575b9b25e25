import { param, pathParams } from '../../shared/schemas/parameters';
import * as z from 'zod/mini';
import { id } from '../../shared/schemas/common';
import { deleteOrder } from '../../shared/orders/delete-order';
import { getOrder } from '../../shared/orders/order-reads';
import { findOrderIdByReference } from '../../shared/orders/order-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';

const params = pathParams({ id: param.text({ trim: true, min: 1, max: 64 }, "The order's uuid or its order_number (e.g. SO-000042).") });

export const route = defineRoute({
  id: 'orders.delete',
  method: 'DELETE',
  path: '/v1/orders/{id}',
  tag: 'Orders',
  summary: 'Delete a draft order or a quote',
  description:
    'E17. Soft delete: the order disappears from reads and lists; its number stays taken. Only a draft, or a quote, without payments can be deleted; anything else is 409 order_not_deletable (cancel it instead). Response {deleted: true, id}.',
  scopes: ['orders:write'],
  params,
  response: z.object({ deleted: z.literal(true), id: id() }),
  errors: ['order_not_deletable'],
  current: async (ctx, { params }) => getOrder(ctx.db, ctx.entityId, await findOrderIdByReference(ctx.db, ctx.entityId, params.id), { lock: true }),
  handler: async (ctx, { params }) => {
    const order = await deleteOrder(ctx.db, ctx.entityId, await findOrderIdByReference(ctx.db, ctx.entityId, params.id));
    await ctx.events.record('order.deleted', order);
    return { deleted: true as const, id: order.id };
  },
});

export const handler = lambdaHandler(route, idempotency);
