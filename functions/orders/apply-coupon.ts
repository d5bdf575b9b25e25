import { applyCoupon, COUPON_REDEMPTION_ERRORS } from '../../shared/orders/coupon-redemptions';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { ApplyCoupon } from '../../shared/orders/schemas/coupon';
import { answerNewAdjustment } from './adjustment-answer';
import { OrderAdjustmentResult } from '../../shared/orders/schemas/order-requests';

export const route = defineRoute({
  id: 'orders.apply_coupon',
  method: 'POST',
  path: '/v1/orders/{id}/apply-coupon',
  tag: 'Orders',
  summary: 'Apply a coupon to an order',
  description:
    "Body {code, notes?, created_by_user_id?}. Redeems the coupon with this code (case-insensitive) on a quote, sales order or invoice (other document types: 422 coupon_not_applicable) under the same rules as E2: any open order (draft, confirmed, partially fulfilled, on hold, awaiting ACH clearance), else (cancelled, voided, fulfilled, posted) 422 order_not_adjustable with current_status; an order not in the entity is 404 order_not_found. Then, on the code: 404 coupon_not_found, 409 coupon_already_applied, 422 coupon_inactive, coupon_not_yet_valid (before valid_from), coupon_expired (from valid_until), coupon_usage_limit_reached (max_redemptions, or max_redemptions_per_account for the document's account; details.limit says which), coupon_minimum_not_met (subtotal below min_order_subtotal). The coupon becomes an order-level discount adjustment with coupon_id, applied before the other order-level discounts (a percentage is of the merchandise after line discounts) and prorated over the lines into their coupon_adjustment (line adjustments with source_type coupon); times_redeemed increases in the same transaction under the coupon's row lock, so a usage limit is never exceeded by concurrent requests. Response 200: the adjustment with the order's new order_total, discount_total and fee_total (as E2). Removing the adjustment (DELETE /v1/orders/{id}/adjustments/{adjustment_id}) releases the redemption.",
  scopes: ['orders:write'],
  params: idParams,
  body: ApplyCoupon,
  response: OrderAdjustmentResult,
  errors: ['order_not_found', 'order_not_adjustable', ...COUPON_REDEMPTION_ERRORS],
  handler: async (ctx, { params, body }) => {
    return answerNewAdjustment(ctx, await applyCoupon(ctx.db, ctx, params.id, body));
  },
});

export const handler = lambdaHandler(route, idempotency);
