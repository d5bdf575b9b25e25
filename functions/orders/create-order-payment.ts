import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { createOrderPayment } from '../../shared/payments/record-payment';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { OrderPaymentCreate, Payment } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'orders.payments.create',
  method: 'POST',
  path: '/v1/orders/{id}/payments',
  tag: 'Payments',
  summary: 'Receive a payment against one sales order or invoice',
  description:
    "A payment against one document. The document accepts at most its balance_due: confirmed (or later, not cancelled or voided) sales orders and invoices accept up to order_total − amount_paid; drafts, cancelled, voided or refunded documents, quotes, returns and purchase orders accept nothing. More than that is 422 order_not_payable with payable_amount (amount_due is not the test: it stays positive on documents that accept no payment). The order row is locked, so concurrent payments never overpay it. Posts debit undeposited_funds, credit accounts_receivable for an invoice or customer_credits (a customer deposit) for a sales order (dated payment_date, default today), updates the order's amount_paid, payment_status and balance_due, and answers 201 with the payment (order_id set, one application). An ach payment is status pending instead: nothing posts, amount_paid does not move, and the document waits in order_status awaiting_ach_clearance (no other payment, no lifecycle operation) until POST /v1/payments/{payment_id}/clear or /fail returns it to its previous status.",
  scopes: ['payments:write'],
  params: idParams,
  body: OrderPaymentCreate,
  response: Payment,
  successStatus: 201,
  errors: ['order_not_payable', 'period_closed', 'gl_account_inactive'],
  handler: async (ctx, { params, body }) => {
    const result = await createOrderPayment(ctx.db, ctx, params.id, body);
    await recordPaymentEvents(ctx, 'payment.created', result);
    return result.payment;
  },
});

export const handler = lambdaHandler(route, idempotency);
