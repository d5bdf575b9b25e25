import { deactivatePaymentMethod, getPaymentMethod, lockAccount } from '../../shared/payments/payment-methods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { paymentProcessor } from '../../shared/payments/select-processor';
import { AccountPaymentMethod, paymentMethodParams } from '../../shared/payments/schemas/payment-method';

export const route = defineRoute({
  id: 'accounts.payment_methods.delete',
  method: 'DELETE',
  path: '/v1/accounts/{id}/payment-methods/{payment_method_id}',
  tag: 'Account payment methods',
  summary: 'Remove a payment method',
  description:
    'Soft removal: the method is detached at the payment processor (it can no longer be charged) and kept with is_active false, so history that used it still resolves. When the default is removed, the newest remaining active method becomes the default. Removing a removed method is 409 payment_method_inactive. Returns the method in its removed state.',
  scopes: ['payments:write'],
  // It calls the card processor, which a rollback cannot undo.
  transactional: false,
  params: paymentMethodParams,
  response: AccountPaymentMethod,
  errors: ['payment_method_inactive'],
  current: (ctx, { params }) => getPaymentMethod(ctx.db, ctx.entityId, params.id, params.payment_method_id, { lock: true }),
  handler: async (ctx, { params }) => {
    await lockAccount(ctx.db, ctx.entityId, params.id);
    const { method, previous, promoted } = await deactivatePaymentMethod(ctx.db, ctx.entityId, params.id, params.payment_method_id);
    // After the row changed and before commit: a processor failure rolls the removal back.
    await paymentProcessor(ctx.mode, ctx.db).detachPaymentMethod(method.processor_payment_method_id);
    await ctx.events.record('payment_method.detached', method, previous);
    if (promoted) await ctx.events.record('payment_method.updated', promoted.method, promoted.previous);
    return method;
  },
});

export const handler = lambdaHandler(route, idempotency);
