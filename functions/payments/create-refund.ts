import { param, pathParams } from '../../shared/schemas/parameters';
import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { createRefund } from '../../shared/payments/refunds';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Refund, RefundCreate } from '../../shared/payments/schemas/refund';

export const route = defineRoute({
  id: 'payments.refunds.create',
  method: 'POST',
  path: '/v1/payments/{payment_id}/refunds',
  tag: 'Payments',
  summary: 'Refund a payment in full or in part',
  description:
    "Gives money of a cleared payment back to the customer (Stripe-style: a refund belongs to its payment). amount defaults to everything not yet refunded; more than amount − amount_refunded is 422 refund_exceeds_refundable on amount (with refundable_amount). A pending ACH payment is 409 payment_pending_clearance; a voided or failed one 409 payment_voided. The refund splits: first the payment's unapplied customer credit, then its applications newest first; on each document customer credit first (a sales order's prepayment, an invoice's overpayment: debit accounts receivable, amount_paid falls, balance_due rises), the rest of an invoice is an allowance that reduces the sale (debit sales_revenue and, pro rata to the invoice's tax, sales_tax_payable; amount_paid and balance_due unchanged). Cash is credited where the money is: undeposited_funds, or the bank account of the payment's deposit. The documents' payment_status becomes partially_refunded, or refunded once refunds give back the whole document (an invoice: refunds reach order_total and nothing is due, so its balance_due stays 0). refund_date defaults to today and is not before the payment (or its deposit). The payment row is locked, so concurrent refunds never exceed it. Response 201: the refund with its lines.",
  scopes: ['payments:write'],
  params: pathParams({ payment_id: param.id('The payment id.') }),
  body: RefundCreate,
  response: Refund,
  successStatus: 201,
  errors: ['refund_exceeds_refundable', 'payment_pending_clearance', 'payment_voided', 'period_closed', 'gl_account_inactive'],
  handler: async (ctx, { params, body }) => {
    const result = await createRefund(ctx.db, ctx, params.payment_id, body);
    await ctx.events.record('refund.created', result.refund);
    await recordPaymentEvents(ctx, 'payment.refunded', result);
    return result.refund;
  },
});

export const handler = lambdaHandler(route, idempotency);
