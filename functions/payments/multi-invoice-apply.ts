import { recordPaymentEvents } from '../../shared/payments/payment-context';
import { createMultiInvoicePayment } from '../../shared/payments/record-payment';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { MultiInvoicePaymentCreate, MultiInvoicePaymentResult } from '../../shared/payments/schemas/payment';

const FIRST = ',"idempotent_replay":false}';

export const route = defineRoute({
  id: 'payments.multi_invoice_apply',
  method: 'POST',
  path: '/v1/payments/multi-invoice-apply',
  tag: 'Payments',
  summary: 'Receive one payment applied to several invoices',
  description:
    "E6. Atomic: one payment (debit undeposited_funds, credit accounts_receivable for the applied part and customer_credits for any unapplied remainder) and its applications, or nothing. Either applications [{order_id, amount_applied}] (each an invoice of account_id: another entity's or unknown id is 404, a non-invoice order 422 order_not_payable, another customer's invoice 422 order_not_payable, all naming applications[i].order_id; more than the invoice's balance_due is 422 order_not_payable on applications[i].amount_applied; applications adding up to more than amount is 400) or auto_apply true, which applies the amount oldest-first (order_date, then creation) over the account's open invoices. A remainder left unapplied needs route_unapplied 'credit' (the only value; it stays on the payment as unapplied customer credit, held in customer_credits, and is applied to open invoices later, in parts, with POST /v1/payments/{payment_id}/apply-credit); without it the request is 400 on route_unapplied. applied_date (default payment_date) dates the applications: a later one posts the receipt to customer_credits on payment_date and moves the applied part to accounts_receivable on applied_date (source_type payment_application); before payment_date or with an ach payment it is 400, in a closed period 422 period_closed. Amounts are in the entity's currency, 2 decimals. payment_method defaults to check when check_number is given, else other; an ach payment is status pending: it posts nothing and its invoices wait in awaiting_ach_clearance (accepting no other payment) until POST /v1/payments/{payment_id}/clear or /fail. idempotent_replay is false on the response that executed and true on an Idempotency-Key replay of it (the body is otherwise the original byte for byte). Response 201.",
  scopes: ['payments:write'],
  body: MultiInvoicePaymentCreate,
  response: MultiInvoicePaymentResult,
  successStatus: 201,
  errors: ['order_not_payable', 'period_closed', 'gl_account_inactive'],
  replayBody: (body) => (body.endsWith(FIRST) ? `${body.slice(0, -FIRST.length)},"idempotent_replay":true}` : body),
  handler: async (ctx, { body }) => {
    const result = await createMultiInvoicePayment(ctx.db, ctx, body);
    await recordPaymentEvents(ctx, 'payment.created', result);
    const { payment } = result;
    return {
      data: {
        id: payment.id,
        entity_id: payment.entity_id,
        amount: payment.amount,
        payment_method: payment.payment_method,
        status: payment.status,
        journal_entry_id: payment.journal_entry_id,
        applied_count: payment.applied_count,
        applications: payment.applications,
      },
      idempotent_replay: false,
    };
  },
});

export const handler = lambdaHandler(route, idempotency);
