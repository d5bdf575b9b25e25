import { getCoupon, updateCoupon } from '../../shared/orders/coupons';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Coupon, CouponUpdate } from '../../shared/orders/schemas/coupon';

export const route = defineRoute({
  id: 'coupons.update',
  method: 'PATCH',
  path: '/v1/coupons/{id}',
  tag: 'Coupons',
  summary: 'Update a coupon',
  description:
    'Send only the fields to change; null clears an optional field. Documents that already carry the coupon keep the terms they were given (the adjustment copied discount_type and value); the new terms apply to later redemptions. max_redemptions cannot go below times_redeemed. Set is_active false to retire a coupon that was used.',
  scopes: ['settings:write'],
  params: idParams,
  body: CouponUpdate,
  response: Coupon,
  errors: ['coupon_code_taken'],
  current: (ctx, { params }) => getCoupon(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { coupon, previous } = await updateCoupon(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('coupon.updated', coupon, previous);
    return coupon;
  },
});

export const handler = lambdaHandler(route, idempotency);
