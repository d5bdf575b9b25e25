import { param, pathParams } from '../../shared/schemas/parameters';
import { clearPayment } from '../../shared/payments/ach';
import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Payment } from '../../shared/payments/schemas/payment';
import { PaymentClear } from '../../shared/payments/schemas/refund';

export const route = defineRoute({
  id: 'payments.clear',
  method: 'POST',
  path: '/v1/payments/{payment_id}/clear',
  tag: 'Payments',
  summary: 'Record that a pending ACH payment cleared',
  description:
    "An ACH payment is received with status pending (like Stripe's processing): nothing posts, and the documents it pays wait in order_status awaiting_ach_clearance, accepting no other payment and no lifecycle operation. Clearing it posts the receipt (debit undeposited_funds, credit accounts_receivable for invoices and customer_credits for sales orders or an unapplied remainder, dated cleared_date, default today, not before payment_date), pays its documents (amount_paid, payment_status, balance_due) and returns each to the order_status it had. The payment becomes undeposited and can be deposited. A payment that is not pending is 409 payment_not_pending with current_status. Response 200: the payment.",
  scopes: ['payments:write'],
  params: pathParams({ payment_id: param.id('The payment id.') }),
  body: PaymentClear,
  response: Payment,
  errors: ['payment_not_pending', 'period_closed', 'gl_account_inactive'],
  handler: async (ctx, { params, body }) => {
    const result = await clearPayment(ctx.db, ctx, params.payment_id, body);
    await recordPaymentEvents(ctx, 'payment.cleared', result);
    return result.payment;
  },
});

export const handler = lambdaHandler(route, idempotency);
