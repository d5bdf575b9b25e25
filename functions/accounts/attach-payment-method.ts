import { insertPaymentMethod, lockAccount } from '../../shared/payments/payment-methods';
import { ApiError } from '../../shared/errors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { paymentProcessor } from '../../shared/payments/select-processor';
import { idParams } from '../../shared/schemas/parameters';
import { AccountPaymentMethod, PaymentMethodAttach } from '../../shared/payments/schemas/payment-method';

export const route = defineRoute({
  id: 'accounts.payment_methods.attach',
  method: 'POST',
  path: '/v1/accounts/{id}/payment-methods/attach',
  tag: 'Account payment methods',
  summary: 'Save a confirmed payment method on an account',
  description:
    "Step 2 of saving a payment method. Checks with the payment processor that the setup intent exists, was created for this account (otherwise 404 not_found on setup_intent_id) and has succeeded (otherwise 422 setup_intent_not_succeeded with setup_intent_status, e.g. an ACH account still awaiting micro-deposit verification), then stores the method's display details (brand, last four, expiry, bank name, routing last four): never the numbers. The account's first method becomes its default; is_default true demotes the previous default in the same transaction. A setup intent is attached once (409 payment_method_already_attached).",
  scopes: ['payments:write'],
  // It calls the card processor, which a rollback cannot undo.
  transactional: false,
  params: idParams,
  body: PaymentMethodAttach,
  response: AccountPaymentMethod,
  successStatus: 201,
  errors: ['party_archived', 'setup_intent_not_succeeded', 'payment_method_already_attached'],
  handler: async (ctx, { params, body }) => {
    const account = await lockAccount(ctx.db, ctx.entityId, params.id, { forNewMethod: true });
    const processor = paymentProcessor(ctx.mode, ctx.db);
    const intent = await processor.retrieveSetupIntent(body.setup_intent_id);
    if (!intent || intent.entity_id !== ctx.entityId || intent.account_id !== account.id) {
      throw new ApiError('not_found', { param: 'setup_intent_id', hint: 'No such setup intent for this account.' });
    }
    if (intent.status !== 'succeeded' || !intent.processor_payment_method_id) {
      throw new ApiError('setup_intent_not_succeeded', { param: 'setup_intent_id', details: { setup_intent_status: intent.status } });
    }
    const details = await processor.retrievePaymentMethod(intent.processor_payment_method_id);
    const { method, demoted } = await insertPaymentMethod(ctx.db, ctx.entityId, account.id, {
      processor: processor.name,
      setupIntentId: intent.setup_intent_id,
      method: details,
      isDefault: body.is_default,
    });
    if (demoted) await ctx.events.record('payment_method.updated', demoted.method, demoted.previous);
    await ctx.events.record('payment_method.attached', method);
    return method;
  },
});

export const handler = lambdaHandler(route, idempotency);
