import { findProcessorCustomer, lockAccount, saveProcessorCustomer } from '../../shared/payments/payment-methods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { paymentProcessor } from '../../shared/payments/select-processor';
import { idParams } from '../../shared/schemas/parameters';
import { SetupIntentCreate, SetupIntentResponse } from '../../shared/payments/schemas/payment-method';

export const route = defineRoute({
  id: 'accounts.payment_methods.setup',
  method: 'POST',
  path: '/v1/accounts/{id}/payment-methods',
  tag: 'Account payment methods',
  summary: 'Start saving a payment method (setup intent)',
  description:
    "Step 1 of saving a card or ACH debit account (E12). Creates a setup intent at the payment processor for the account and returns its client_secret and the publishable key: the client collects the numbers with the processor's client library (they never reach this API) and confirms the intent there, then calls POST /v1/accounts/{id}/payment-methods/attach with the setup_intent_id. Test API keys use the processor's test mode. Archived accounts take no new methods (422 party_archived). Raw card or bank numbers in any request body are refused with 400 raw_card_data_refused / raw_bank_data_refused.",
  scopes: ['payments:write'],
  // It calls the card processor, which a rollback cannot undo.
  transactional: false,
  params: idParams,
  body: SetupIntentCreate,
  response: SetupIntentResponse,
  successStatus: 201,
  errors: ['party_archived'],
  handler: async (ctx, { params, body }) => {
    const account = await lockAccount(ctx.db, ctx.entityId, params.id, { forNewMethod: true });
    const processor = paymentProcessor(ctx.mode, ctx.db);
    const customerKey = { accountId: account.id, processor: processor.name, mode: ctx.mode };
    const customerId = await findProcessorCustomer(ctx.db, ctx.entityId, customerKey);
    const intent = await processor.createSetupIntent(
      body.type,
      { entityId: ctx.entityId, accountId: account.id, processorCustomerId: customerId, name: account.name },
      { idempotencyKey: ctx.idempotencyKey },
    );
    if (!customerId) await saveProcessorCustomer(ctx.db, ctx.entityId, customerKey, intent.processor_customer_id);
    return {
      object: 'setup_intent' as const,
      client_secret: intent.client_secret,
      setup_intent_id: intent.setup_intent_id,
      status: intent.status,
      publishable_key: intent.publishable_key,
    };
  },
});

export const handler = lambdaHandler(route, idempotency);
