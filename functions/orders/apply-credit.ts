import { applyCreditMemo } from '../../shared/orders/credit-memo-moves';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { CreditMemoApply } from '../../shared/orders/schemas/order-requests';

export const route = defineRoute({
  id: 'orders.credit.apply',
  method: 'POST',
  path: '/v1/orders/{id}/apply-credit',
  tag: 'Orders',
  summary: 'Apply credit-memo credit to another invoice',
  description:
    "The credit a posted credit memo (a return, confirmed, its goods received or not) still holds beyond its own invoice (its negative balance_due) is applied to another open invoice of the same customer account: debit customer_credits, credit accounts_receivable (source_type credit_memo_application, dated applied_date, default today; before the credit memo's order_date 400 on applied_date, in a closed period 422 period_closed); the invoice's amount_credited rises and its balance_due falls, the credit memo's amount_credited rises and its balance_due moves toward 0. The credit stays available until it is applied or refunded, whatever its goods' state. amount defaults to as much as both allow. 422 credit_not_available (param id: not a posted credit memo, or no credit left; param amount: more than is left, with available_credit); 422 order_not_payable on invoice_id (not an open invoice of the account) or on amount (more than the invoice's balance_due); 404 on invoice_id for another entity's or an unknown document. Answers the credit memo; emits order.updated for both documents.",
  scopes: ['payments:write'],
  params: idParams,
  body: CreditMemoApply,
  response: Order,
  errors: ['credit_not_available', 'order_not_payable', 'order_archived', 'period_closed'],
  handler: async (ctx, { params, body }) => {
    const result = await applyCreditMemo(ctx.db, ctx, params.id, body);
    await ctx.events.record('order.updated', result.creditMemo, result.previousCreditMemo);
    if (result.invoice) await ctx.events.record('order.updated', result.invoice, result.previousInvoice);
    return result.creditMemo;
  },
});

export const handler = lambdaHandler(route, idempotency);
