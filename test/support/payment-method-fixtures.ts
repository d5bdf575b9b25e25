/**
 * Account payment method fixtures (spread into route-fixtures.ts): an account with a saved method,
 * confirmed through the sandbox processor's test helper route, as an integrator would with curl.
 */
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;

let sequence = 0;

export async function seedAccount(api: TestApi, owner: TestEntity): Promise<string> {
  const account = await api.post(owner, '/v1/accounts', { name: `Card holder ${Date.now().toString(36)}-${sequence++}` });
  return account.id;
}

/** A setup intent for the account, confirmed with a sandbox test token (pm_card_visa unless stated). */
export async function confirmedSetupIntent(api: TestApi, owner: TestEntity, accountId: string, token = 'pm_card_visa'): Promise<string> {
  const type = token.startsWith('pm_usBankAccount') ? 'us_bank_account' : 'card';
  const intent = await api.post(owner, `/v1/accounts/${accountId}/payment-methods`, { type });
  await api.post(owner, `/v1/test_helpers/setup_intents/${intent.setup_intent_id}/confirm`, { payment_method: token }, 200);
  return intent.setup_intent_id;
}

async function seedPaymentMethod(api: TestApi, owner: TestEntity, token = 'pm_card_visa'): Promise<Params> {
  const accountId = await seedAccount(api, owner);
  const setupIntentId = await confirmedSetupIntent(api, owner, accountId, token);
  const attached = await api.post(owner, `/v1/accounts/${accountId}/payment-methods/attach`, { setup_intent_id: setupIntentId });
  return { id: accountId, payment_method_id: attached.id };
}

export const PAYMENT_METHOD_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/accounts/{id}/payment-methods': async (api, owner) => ({ id: await seedAccount(api, owner) }),
  '/v1/accounts/{id}/payment-methods/attach': async (api, owner) => ({ id: await seedAccount(api, owner) }),
  '/v1/accounts/{id}/payment-methods/{payment_method_id}': (api, owner) => seedPaymentMethod(api, owner),
  '/v1/test_helpers/setup_intents/{setup_intent_id}/confirm': async (api, owner) => {
    const accountId = await seedAccount(api, owner);
    const intent = await api.post(owner, `/v1/accounts/${accountId}/payment-methods`, { type: 'card' });
    return { setup_intent_id: intent.setup_intent_id };
  },
};

export const PAYMENT_METHOD_SAMPLE_BODIES: Record<string, unknown> = {
  'accounts.payment_methods.setup': { type: 'card' },
  'accounts.payment_methods.attach': { setup_intent_id: 'seti_sbx_unknown' },
  'accounts.payment_methods.update': { is_default: true },
  'test_helpers.setup_intents.confirm': { payment_method: 'pm_card_visa' },
};
