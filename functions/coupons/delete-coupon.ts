import { deleteCoupon, getCoupon } from '../../shared/orders/coupons';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'coupons.delete',
  method: 'DELETE',
  path: '/v1/coupons/{id}',
  tag: 'Coupons',
  summary: 'Delete a coupon',
  description:
    'Permanently deletes a coupon that no document carries. A coupon that was applied is kept for the documents and their history (409 coupon_in_use with references.orders): archive it with PATCH is_active false instead.',
  scopes: ['settings:write'],
  params: idParams,
  response: deletedObject('coupon'),
  errors: ['coupon_in_use'],
  current: (ctx, { params }) => getCoupon(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const coupon = await deleteCoupon(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('coupon.deleted', coupon);
    return { id: coupon.id, object: 'coupon' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
