import { getPaymentMethod, lockAccount, makeDefault } from '../../shared/payments/payment-methods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { AccountPaymentMethod, PaymentMethodUpdate, paymentMethodParams } from '../../shared/payments/schemas/payment-method';

export const route = defineRoute({
  id: 'accounts.payment_methods.update',
  method: 'PATCH',
  path: '/v1/accounts/{id}/payment-methods/{payment_method_id}',
  tag: 'Account payment methods',
  summary: "Make a payment method the account's default",
  description:
    'Only is_default true is accepted: the previous default of the account is demoted in the same transaction. A removed method cannot become the default (409 payment_method_inactive). Card details change only by saving a new method.',
  scopes: ['payments:write'],
  params: paymentMethodParams,
  body: PaymentMethodUpdate,
  response: AccountPaymentMethod,
  errors: ['payment_method_inactive'],
  current: (ctx, { params }) => getPaymentMethod(ctx.db, ctx.entityId, params.id, params.payment_method_id, { lock: true }),
  handler: async (ctx, { params }) => {
    await lockAccount(ctx.db, ctx.entityId, params.id);
    const { method, changed, demoted } = await makeDefault(ctx.db, ctx.entityId, params.id, params.payment_method_id);
    if (demoted) await ctx.events.record('payment_method.updated', demoted.method, demoted.previous);
    if (changed) await ctx.events.record('payment_method.updated', changed.method, changed.previous);
    return method;
  },
});

export const handler = lambdaHandler(route, idempotency);
