import { param, pathParams } from '../../shared/schemas/parameters';
import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { voidPayment } from '../../shared/payments/refunds';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Payment } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'payments.void',
  method: 'POST',
  path: '/v1/payments/{payment_id}/void',
  tag: 'Payments',
  summary: 'Void an undeposited payment',
  description:
    "Undoes a payment that has not reached the bank (QuickBooks' void): its receipt entry is reversed (dated like the original), every document it paid gets the amount back (amount_paid, payment_status and balance_due move back), its unapplied credit is gone, and its status becomes voided. A document whose only payment was voided can then be cancelled or voided. Refused with 409 payment_deposited once deposited (refund it instead), 409 payment_refunded when it has refunds, 409 payment_pending_clearance for an uncleared ACH payment (POST /v1/payments/{payment_id}/fail instead) and 409 payment_voided when already voided or failed. The payment row is locked, so a void and a deposit of the same payment never both succeed. Response 200: the payment.",
  scopes: ['payments:write'],
  params: pathParams({ payment_id: param.id('The payment id.') }),
  response: Payment,
  errors: ['payment_deposited', 'payment_refunded', 'payment_pending_clearance', 'payment_voided', 'period_closed'],
  handler: async (ctx, { params }) => {
    const result = await voidPayment(ctx.db, ctx, params.payment_id);
    await recordPaymentEvents(ctx, 'payment.voided', result);
    return result.payment;
  },
});

export const handler = lambdaHandler(route, idempotency);
