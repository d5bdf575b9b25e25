import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { voidApPayment } from '../../shared/payables/ap-payments';
import { ApPayment, ApPaymentVoid } from '../../shared/payables/schemas/ap-payment';

export const route = defineRoute({
  id: 'ap_payments.void',
  method: 'POST',
  path: '/v1/ap-payments/{id}/void',
  tag: 'AP payments',
  summary: 'Void an AP payment',
  description:
    "posted → voided. Reverses the payment's entry, dated today (or payment_date if later; void_date), stamps its applications voided_on, lowers each bill's amount_paid (paid or partially_paid → partially_paid or open) and restores each vendor credit's remaining_amount (applied → partially_applied or open). A credit voided or expired since the payment keeps its status; the amount coming back is voided or forfeited with it at once. A voided payment is 409 ap_payment_invalid_transition. Emits ap_payment.voided.",
  scopes: ['purchasing:write'],
  params: idParams,
  body: ApPaymentVoid,
  response: ApPayment,
  errors: ['ap_payment_invalid_transition', 'period_closed'],
  handler: (ctx, { params, body }) => voidApPayment(ctx.db, ctx, params.id, body.reason),
});

export const handler = lambdaHandler(route, idempotency);
