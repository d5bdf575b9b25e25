import { createCoupon } from '../../shared/orders/coupons';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Coupon, CouponCreate } from '../../shared/orders/schemas/coupon';

export const route = defineRoute({
  id: 'coupons.create',
  method: 'POST',
  path: '/v1/coupons',
  tag: 'Coupons',
  summary: 'Create a coupon',
  description:
    'A code customers redeem on quotes, sales orders and invoices through POST /v1/orders/{id}/apply-coupon. code is unique within the entity, case-insensitive. discount_type percentage takes a value above 0 up to 100 (of the merchandise after line discounts); fixed_amount a currency amount with 2 decimals (capped at the merchandise left). Optional validity window (valid_from, valid_until; until must be after from), max_redemptions (in total), max_redemptions_per_account, min_order_subtotal. times_redeemed is maintained by the server.',
  scopes: ['settings:write'],
  body: CouponCreate,
  response: Coupon,
  successStatus: 201,
  errors: ['coupon_code_taken'],
  handler: async (ctx, { body }) => {
    const coupon = await createCoupon(ctx.db, ctx.entityId, body);
    await ctx.events.record('coupon.created', coupon);
    return coupon;
  },
});

export const handler = lambdaHandler(route, idempotency);
