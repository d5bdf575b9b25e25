import { param, pathParams } from '../../shared/schemas/parameters';
import { failPayment } from '../../shared/payments/ach';
import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Payment } from '../../shared/payments/schemas/payment';
import { PaymentFail } from '../../shared/payments/schemas/refund';

export const route = defineRoute({
  id: 'payments.fail',
  method: 'POST',
  path: '/v1/payments/{payment_id}/fail',
  tag: 'Payments',
  summary: 'Record that a pending ACH payment failed (was returned)',
  description:
    'The ACH debit of a pending payment was returned (failure_reason, e.g. an R01 return code). Nothing had posted, so nothing is reversed: the documents it was to pay return to the order_status they had before awaiting_ach_clearance, unpaid by it, and the payment becomes failed (no unapplied credit). A payment that is not pending is 409 payment_not_pending with current_status. Response 200: the payment.',
  scopes: ['payments:write'],
  params: pathParams({ payment_id: param.id('The payment id.') }),
  body: PaymentFail,
  response: Payment,
  errors: ['payment_not_pending'],
  handler: async (ctx, { params, body }) => {
    const result = await failPayment(ctx.db, ctx, params.payment_id, body);
    await recordPaymentEvents(ctx, 'payment.failed', result);
    return result.payment;
  },
});

export const handler = lambdaHandler(route, idempotency);
