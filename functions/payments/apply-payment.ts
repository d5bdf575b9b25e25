import { param, pathParams } from '../../shared/schemas/parameters';
import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { applyPayment } from '../../shared/payments/record-payment';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Payment, PaymentApply } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'payments.apply',
  method: 'POST',
  path: '/v1/payments/{payment_id}/apply',
  tag: 'Payments',
  summary: 'Apply an unallocated payment to invoices',
  description:
    "E8. Applies a payment that has no applications yet. The payment must have no order_id and no applications (409 payment_already_applied otherwise: what a partly applied payment still holds unapplied is applied with POST /v1/payments/{payment_id}/apply-credit); account_id, when given, must be the payment's (400). Each application follows E6's rules (404, or 422 order_not_payable for a non-invoice or another customer's invoice, naming applications[i].order_id; 422 order_not_payable on applications[i].amount_applied beyond the invoice's balance_due); together they may not exceed the payment's unapplied_amount (400 on applications, with unapplied_amount). It posts one entry moving the applied total from customer deposits to receivables: debit customer_credits, credit accounts_receivable (source_type payment_application), dated applied_date (default today; before the payment_date 400, in a closed period 422 period_closed). The payment row is locked, so concurrent applications of one payment never apply more than it holds. Response 200: the payment with its applications.",
  scopes: ['payments:write'],
  params: pathParams({ payment_id: param.id('The payment id.') }),
  body: PaymentApply,
  response: Payment,
  errors: ['order_not_payable', 'payment_already_applied', 'period_closed'],
  handler: async (ctx, { params, body }) => {
    const result = await applyPayment(ctx.db, ctx, params.payment_id, body);
    await recordPaymentEvents(ctx, 'payment.applied', result);
    return result.payment;
  },
});

export const handler = lambdaHandler(route, idempotency);
