import { applyCoupon, COUPON_REDEMPTION_ERRORS } from '../../shared/orders/coupon-redemptions';
import { createAdjustment } from '../../shared/orders/order-adjustments';
import { ApiError } from '../../shared/errors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { OrderAdjustmentCreate, OrderAdjustmentResult, type ManualAdjustment } from '../../shared/orders/schemas/order-requests';
import { answerNewAdjustment } from './adjustment-answer';

const MANUAL_FIELDS = ['name', 'effect_type', 'discount_type', 'value'] as const;

/** A manual adjustment needs its four fields; coupon_code replaces all of them. */
function manualAdjustment(body: OrderAdjustmentCreate): ManualAdjustment {
  for (const field of MANUAL_FIELDS) {
    if (body[field] === undefined) throw new ApiError('parameter_missing', { param: field, hint: `${field} is required unless coupon_code is sent.` });
  }
  return body as ManualAdjustment;
}

export const route = defineRoute({
  id: 'orders.adjustments.create',
  method: 'POST',
  path: '/v1/orders/{id}/adjustments',
  tag: 'Orders',
  summary: 'Add an order-level discount or fee',
  description:
    "E2. Required: name, effect_type (discount | fee), discount_type (percentage | fixed_amount) and value (0 to 100 for a percentage, a currency amount with 2 decimals otherwise); optional notes and created_by_user_id (the acting user, an active user of the entity; defaults to the key's user). Instead of those four, coupon_code applies a coupon exactly as POST /v1/orders/{id}/apply-coupon does (same checks and errors, reported on coupon_code); sending it with any of them is 400 parameter_invalid. Percentages apply to the merchandise after line discounts; a discount is capped at what is left and prorated over the lines (their adjustments arrays). Allowed on every open order: draft, confirmed, partially fulfilled, on hold or awaiting ACH clearance, paid or not; cancelled, voided, fulfilled (every unit shipped) and posted documents (a non-draft invoice or return) are 422 order_not_adjustable with current_status, document_type and reason (document_cancelled, document_voided, document_fulfilled, document_posted). payment_status follows the new order_total: a discount below amount_paid makes the order overpaid (amount_due and balance_due negative; it takes no payment), a later increase makes it paid or partially_paid again. An order that is not in the entity is 404 order_not_found. Response 200: the adjustment with the order's new order_total, discount_total and fee_total.",
  scopes: ['orders:write'],
  params: idParams,
  body: OrderAdjustmentCreate,
  // The four manual fields or coupon_code: the schema leaves each optional, the handler needs one set.
  bodyRequired: true,
  response: OrderAdjustmentResult,
  errors: ['order_not_found', 'order_not_adjustable', ...COUPON_REDEMPTION_ERRORS],
  handler: async (ctx, { params, body }) => {
    if (body.coupon_code !== undefined) {
      const manual = MANUAL_FIELDS.find((field) => body[field] !== undefined);
      if (manual) throw new ApiError('parameter_invalid', { param: 'coupon_code', hint: `Send coupon_code or a manual adjustment (${manual} ...), not both.` });
    }
    const result =
      body.coupon_code !== undefined
        ? await applyCoupon(ctx.db, ctx, params.id, { code: body.coupon_code, notes: body.notes, created_by_user_id: body.created_by_user_id }, 'coupon_code')
        : await createAdjustment(ctx.db, ctx, params.id, manualAdjustment(body));
    return answerNewAdjustment(ctx, result);
  },
});

export const handler = lambdaHandler(route, idempotency);
