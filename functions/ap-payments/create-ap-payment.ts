import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { createApPayment } from '../../shared/payables/ap-payments';
import { ApPayment, ApPaymentCreate } from '../../shared/payables/schemas/ap-payment';

export const route = defineRoute({
  id: 'ap_payments.create',
  method: 'POST',
  path: '/v1/ap-payments',
  tag: 'AP payments',
  summary: 'Pay vendor bills',
  description:
    "Pays one or several bills of one vendor in one atomic step. bills[] names each bill and the amount its balance_due goes down by (at most that balance_due: 422 vendor_bill_overpayment with param bills[n].amount; a bill that is not open or partially_paid, or of another vendor, is 422 vendor_bill_not_payable with param bills[n].bill_id). vendor_credit_ids[] are applied first, in the order given, to the bills in their order; what they do not cover is paid in cash from bank_account_id (the bank_account_id of a bank GL account; required when any cash is paid) by method check, ach, wire or card, with a reference (check number, trace). A credit that is voided, expired, fully applied, of another vendor or dated after the payment is 422 vendor_credit_not_applicable with param vendor_credit_ids[n]; a credit is never applied beyond its remaining_amount. payment_date defaults to today and may not precede a bill's bill_date. Bills and credits are locked while the payment is made, so concurrent payments never overpay a bill nor over-apply a credit. Posts one entry dated payment_date: debit accounts payable per bill (cash and credits), credit the bank the cash, and for the credits applied credit vendor_returns_receivable (the claim on the vendor settles the payable) and debit vendor_credits, credit cost_of_goods_sold (the credit is realised as a lower purchase cost). Bills move open → partially_paid → paid (amount_paid, balance_due). Idempotency-Key supported. Emits ap_payment.created, vendor_credit.applied per credit used and vendor_bill.paid per bill paid in full.",
  scopes: ['purchasing:write'],
  body: ApPaymentCreate,
  response: ApPayment,
  successStatus: 201,
  errors: ['vendor_bill_not_payable', 'vendor_bill_overpayment', 'vendor_credit_not_applicable', 'period_closed'],
  handler: (ctx, { body }) => createApPayment(ctx.db, ctx, body),
});

export const handler = lambdaHandler(route, idempotency);
