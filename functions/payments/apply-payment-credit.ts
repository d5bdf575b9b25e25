import { param, pathParams } from '../../shared/schemas/parameters';
import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { applyPaymentCredit } from '../../shared/payments/payment-credit';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Payment, PaymentCreditApply } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'payments.credit.apply',
  method: 'POST',
  path: '/v1/payments/{payment_id}/apply-credit',
  tag: 'Payments',
  summary: "Apply a payment's unapplied money to an invoice",
  description:
    "The way to apply what a payment still holds unapplied (its unapplied_amount: the remainder of a multi-invoice payment routed to credit, or of an unallocated payment applied in part with POST /v1/payments/{payment_id}/apply) to an open invoice of the payment's customer account, in parts, as often as needed until none is left, as a credit memo's credit is applied (POST /v1/orders/{id}/apply-credit). amount defaults to as much as both allow. Posts debit customer_credits, credit accounts_receivable (source_type payment_application, dated applied_date, default today; voiding the payment reverses it with the receipt); the invoice's amount_paid rises and its balance_due falls, the payment's unapplied_amount falls and its application to the invoice grows. 422 credit_not_available (param payment_id: nothing unapplied; param amount: more than is unapplied, with available_credit); 422 order_not_payable on invoice_id (not an open invoice of the account) or on amount (more than the invoice's balance_due); 404 on payment_id or invoice_id for another entity's or an unknown record; 409 payment_pending_clearance or payment_voided for a payment that is not cleared money; 400 on applied_date before the payment_date, 422 period_closed in a closed period. The payment row is locked, so concurrent applications never apply more than it holds. Response 200: the payment with its applications.",
  scopes: ['payments:write'],
  params: pathParams({ payment_id: param.id('The payment id.') }),
  body: PaymentCreditApply,
  response: Payment,
  errors: ['credit_not_available', 'order_not_payable', 'order_archived', 'period_closed', 'payment_pending_clearance', 'payment_voided'],
  handler: async (ctx, { params, body }) => {
    const result = await applyPaymentCredit(ctx.db, ctx, params.payment_id, body);
    await recordPaymentEvents(ctx, 'payment.applied', result);
    return result.payment;
  },
});

export const handler = lambdaHandler(route, idempotency);
