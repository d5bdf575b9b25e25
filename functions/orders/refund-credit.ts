import { refundCreditMemo } from '../../shared/orders/credit-memo-moves';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { CreditMemoRefund } from '../../shared/orders/schemas/order-requests';

export const route = defineRoute({
  id: 'orders.credit.refund',
  method: 'POST',
  path: '/v1/orders/{id}/refund-credit',
  tag: 'Orders',
  summary: 'Refund credit-memo credit',
  description:
    "Pays back the credit a posted credit memo (a return, confirmed, its goods received or not) still holds beyond its own invoice, out of a bank account: debit customer_credits, credit the bank's GL account (source_type credit_memo_refund, dated refund_date, default today; 422 period_closed in a closed period). The credit memo's credit_refunded rises and its balance_due moves toward 0. amount defaults to all the credit left. 422 credit_not_available (param id: not a posted credit memo, or no credit left; param amount: more than is left, with available_credit); 404 on bank_account_id. Answers the credit memo; emits order.updated.",
  scopes: ['payments:write'],
  params: idParams,
  body: CreditMemoRefund,
  response: Order,
  errors: ['credit_not_available', 'order_archived', 'period_closed'],
  handler: async (ctx, { params, body }) => {
    const result = await refundCreditMemo(ctx.db, ctx, params.id, body);
    await ctx.events.record('order.updated', result.creditMemo, result.previousCreditMemo);
    return result.creditMemo;
  },
});

export const handler = lambdaHandler(route, idempotency);
