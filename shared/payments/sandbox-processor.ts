/**
 * The sandbox payment processor: deterministic, in-process, no network. It behaves like Stripe's
 * test mode for the calls the API makes, and accepts Stripe's test payment method tokens at the
 * (test-only) confirm step, which stands in for the processor's client library:
 *
 *   card: pm_card_visa, pm_card_mastercard, pm_card_amex, pm_card_discover, pm_card_visa_debit,
 *         pm_card_chargeDeclined (confirm fails: the intent stays requires_payment_method)
 *   us_bank_account: pm_usBankAccount_success (verified), pm_usBankAccount_microdeposits
 *         (the intent waits for micro-deposit verification: requires_action)
 *
 * Ids are `seti_sbx_…`, `pm_sbx_…`, `cus_sbx_…`; state lives in this process (a restart forgets
 * unattached intents, which then read as unknown).
 */
import { createHash } from 'node:crypto';
import type { CustomerRef, PaymentProcessor, ProcessorPaymentMethod, SetupIntent, SetupIntentType } from './processor';
import { PaymentProcessorError } from './processor';

export const SANDBOX_PUBLISHABLE_KEY = 'pk_test_sandbox';

type MethodTemplate = Omit<ProcessorPaymentMethod, 'processor_payment_method_id'>;

const card = (brand: string, lastFour: string, funding = 'credit'): MethodTemplate => ({
  type: 'card',
  card_brand: brand,
  last_four: lastFour,
  exp_month: 12,
  exp_year: 2034,
  funding_type: funding,
  bank_name: null,
  routing_last_four: null,
  account_type: null,
  verification_status: null,
});
const bank = (verification: string): MethodTemplate => ({
  type: 'ach',
  card_brand: null,
  last_four: '6789',
  exp_month: null,
  exp_year: null,
  funding_type: null,
  bank_name: 'STRIPE TEST BANK',
  routing_last_four: '0000',
  account_type: 'checking',
  verification_status: verification,
});

/** The test tokens the confirm step accepts, and the method each one yields. */
export const SANDBOX_TEST_TOKENS: Record<string, { intentType: SetupIntentType; method?: MethodTemplate; outcome: SetupIntent['status'] }> = {
  pm_card_visa: { intentType: 'card', method: card('visa', '4242'), outcome: 'succeeded' },
  pm_card_mastercard: { intentType: 'card', method: card('mastercard', '4444'), outcome: 'succeeded' },
  pm_card_amex: { intentType: 'card', method: card('amex', '8431'), outcome: 'succeeded' },
  pm_card_discover: { intentType: 'card', method: card('discover', '1117'), outcome: 'succeeded' },
  pm_card_visa_debit: { intentType: 'card', method: card('visa', '5556', 'debit'), outcome: 'succeeded' },
  pm_card_chargeDeclined: { intentType: 'card', outcome: 'requires_payment_method' },
  pm_usBankAccount_success: { intentType: 'us_bank_account', method: bank('verified'), outcome: 'succeeded' },
  pm_usBankAccount_microdeposits: { intentType: 'us_bank_account', method: bank('pending'), outcome: 'requires_action' },
};

const intents = new Map<string, SetupIntent>();
const methods = new Map<string, ProcessorPaymentMethod & { detached: boolean }>();
let sequence = 0;

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
const nextId = (prefix: string, seed: string) => `${prefix}_sbx_${digest(`${seed}:${++sequence}`).slice(0, 24)}`;

export const sandboxProcessor: PaymentProcessor = {
  name: 'sandbox',

  async createSetupIntent(type: SetupIntentType, customer: CustomerRef): Promise<SetupIntent> {
    const id = nextId('seti', `${customer.entityId}:${customer.accountId}:${type}`);
    const intent: SetupIntent = {
      setup_intent_id: id,
      client_secret: `${id}_secret_${digest(`secret:${id}`).slice(0, 24)}`,
      status: 'requires_payment_method',
      publishable_key: SANDBOX_PUBLISHABLE_KEY,
      type,
      processor_customer_id: customer.processorCustomerId ?? `cus_sbx_${customer.accountId.replace(/-/g, '')}`,
      processor_payment_method_id: null,
      entity_id: customer.entityId,
      account_id: customer.accountId,
    };
    intents.set(id, intent);
    return { ...intent };
  },

  async retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent | null> {
    const intent = intents.get(setupIntentId);
    return intent ? { ...intent } : null;
  },

  async retrievePaymentMethod(processorPaymentMethodId: string): Promise<ProcessorPaymentMethod> {
    const method = methods.get(processorPaymentMethodId);
    if (!method) throw new PaymentProcessorError(`no such payment method ${processorPaymentMethodId}`, 404, 'resource_missing');
    const { detached: _detached, ...details } = method;
    return details;
  },

  async detachPaymentMethod(processorPaymentMethodId: string): Promise<void> {
    const method = methods.get(processorPaymentMethodId);
    if (!method) throw new PaymentProcessorError(`no such payment method ${processorPaymentMethodId}`, 404, 'resource_missing');
    method.detached = true;
  },
};

/**
 * Test-only: what the processor's client library does when the customer submits the form, with a
 * test token in place of the numbers the customer would type.
 */
export function confirmSandboxSetupIntent(setupIntentId: string, token: string): SetupIntent {
  const intent = intents.get(setupIntentId);
  if (!intent) throw new PaymentProcessorError(`no such setup intent ${setupIntentId}`, 404, 'resource_missing');
  const test = SANDBOX_TEST_TOKENS[token];
  if (!test) throw new PaymentProcessorError(`unknown test token ${token}`, 400, 'payment_method_invalid');
  if (test.intentType !== intent.type) throw new PaymentProcessorError(`${token} does not fit a ${intent.type} setup intent`, 400, 'payment_method_invalid');
  if (intent.status === 'succeeded') throw new PaymentProcessorError('setup intent already succeeded', 400, 'setup_intent_unexpected_state');
  intent.status = test.outcome;
  if (test.method) {
    const id = nextId('pm', `${setupIntentId}:${token}`);
    methods.set(id, { processor_payment_method_id: id, ...test.method, detached: false });
    intent.processor_payment_method_id = id;
  }
  return { ...intent };
}

/** Test-only: whether the sandbox has detached a method. */
export function isSandboxMethodDetached(processorPaymentMethodId: string): boolean {
  return methods.get(processorPaymentMethodId)?.detached === true;
}
