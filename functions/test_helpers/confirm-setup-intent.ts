import { param, pathParams } from '../../shared/schemas/parameters';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { paymentProcessor } from '../../shared/payments/select-processor';
import { confirmSandboxSetupIntent, SANDBOX_TOKEN_NAMES } from '../../shared/payments/sandbox-processor';
import { livemode } from '../../shared/schemas/livemode';

const TestSetupIntentConfirm = z.strictObject({
  payment_method: z
    .enum(SANDBOX_TOKEN_NAMES)
    .check(
      z.describe(
        'A Stripe test payment method token standing in for the numbers a customer types: pm_card_visa, pm_card_mastercard, ... (card intents), pm_usBankAccount_success or pm_usBankAccount_microdeposits (us_bank_account intents); pm_card_chargeDeclined leaves the intent requires_payment_method.',
      ),
    ),
});

const TestSetupIntent = z
  .object({
    object: z.literal('setup_intent'),
    livemode: livemode(),
    setup_intent_id: z.string(),
    status: z.string().check(z.describe('succeeded, requires_action (ACH awaiting micro-deposits) or requires_payment_method (declined).')),
    type: z.enum(['card', 'us_bank_account']),
    payment_method: z.nullable(z.string()).check(z.describe("The sandbox processor's payment method id, once the intent has one.")),
  })
  .register(z.globalRegistry, { id: 'TestHelperSetupIntent' });

export const route = defineRoute({
  id: 'test_helpers.setup_intents.confirm',
  method: 'POST',
  path: '/v1/test_helpers/setup_intents/{setup_intent_id}/confirm',
  tag: 'Account payment methods',
  summary: 'Test helper: confirm a sandbox setup intent',
  description:
    "Test mode only (as Stripe's test helpers): does what the processor's client library does when a customer submits the payment form, with a Stripe test token in place of the numbers, so an integrator can finish E12 → confirm → POST /v1/accounts/{id}/payment-methods/attach with curl on the sandbox stage. Live keys get 403 test_mode_required. Works with the sandbox processor only: where the stage uses Stripe, confirm with Stripe.js in Stripe's test mode (this route answers 404). Unknown setup intents (or another entity's) are 404 on setup_intent_id; a token of the other method type is 400 on payment_method; an intent already confirmed is 409 setup_intent_unexpected_state. Nothing is saved on the account until attach.",
  scopes: ['payments:write'],
  params: pathParams({ setup_intent_id: param.text({ min: 1, max: 255 }, 'The setup_intent_id from POST /v1/accounts/{id}/payment-methods.') }),
  body: TestSetupIntentConfirm,
  response: TestSetupIntent,
  errors: ['test_mode_required', 'setup_intent_unexpected_state'],
  handler: async (ctx, { params, body }) => {
    if (ctx.mode !== 'test') throw new ApiError('test_mode_required');
    if (paymentProcessor(ctx.mode, ctx.db).name !== 'sandbox') {
      throw new ApiError('not_found', {
        param: 'setup_intent_id',
        hint: "This stage uses Stripe: confirm the setup intent with Stripe.js in Stripe's test mode.",
      });
    }
    const intent = await confirmSandboxSetupIntent(ctx.db, params.setup_intent_id, body.payment_method);
    return {
      object: 'setup_intent' as const,
      setup_intent_id: intent.setup_intent_id,
      status: intent.status,
      type: intent.type,
      payment_method: intent.processor_payment_method_id,
    };
  },
});

export const handler = lambdaHandler(route, idempotency);
