/**
 * The sandbox payment processor: deterministic, no network. It behaves like Stripe's test mode for
 * the calls the API makes, and accepts Stripe's test payment method tokens at the confirm step
 * (`POST /v1/test_helpers/setup_intents/{setup_intent_id}/confirm`, test keys only), which stands
 * in for the processor's client library:
 *
 *   card: pm_card_visa, pm_card_mastercard, pm_card_amex, pm_card_discover, pm_card_visa_debit,
 *         pm_card_chargeDeclined (confirm fails: the intent stays requires_payment_method)
 *   us_bank_account: pm_usBankAccount_success (verified), pm_usBankAccount_microdeposits
 *         (the intent waits for micro-deposit verification: requires_action)
 *
 * Ids are `seti_sbx_…`, `pm_sbx_…`, `cus_sbx_…`. State lives in PostgreSQL (sandbox_setup_intents,
 * row level security by entity), so create, confirm, attach and detach may run in different
 * Lambdas; it is written in the caller's transaction, so a refused request leaves no intent behind.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { CustomerRef, PaymentProcessor, ProcessorPaymentMethod, SetupIntent, SetupIntentType } from './processor';
import { PaymentProcessorError } from './processor';

const SANDBOX_PUBLISHABLE_KEY = 'pk_test_sandbox';

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
const SANDBOX_TEST_TOKENS: Record<string, { intentType: SetupIntentType; method?: MethodTemplate; outcome: SetupIntent['status'] }> = {
  pm_card_visa: { intentType: 'card', method: card('visa', '4242'), outcome: 'succeeded' },
  pm_card_mastercard: { intentType: 'card', method: card('mastercard', '4444'), outcome: 'succeeded' },
  pm_card_amex: { intentType: 'card', method: card('amex', '8431'), outcome: 'succeeded' },
  pm_card_discover: { intentType: 'card', method: card('discover', '1117'), outcome: 'succeeded' },
  pm_card_visa_debit: { intentType: 'card', method: card('visa', '5556', 'debit'), outcome: 'succeeded' },
  pm_card_chargeDeclined: { intentType: 'card', outcome: 'requires_payment_method' },
  pm_usBankAccount_success: { intentType: 'us_bank_account', method: bank('verified'), outcome: 'succeeded' },
  pm_usBankAccount_microdeposits: { intentType: 'us_bank_account', method: bank('pending'), outcome: 'requires_action' },
};

/** The test tokens, for request validation. */
export const SANDBOX_TOKEN_NAMES = Object.keys(SANDBOX_TEST_TOKENS) as [string, ...string[]];

interface IntentRow {
  id: string;
  entity_id: string;
  account_id: string;
  type: SetupIntentType;
  status: SetupIntent['status'];
  client_secret: string;
  processor_customer_id: string;
  payment_method_token: string | null;
  payment_method_id: string | null;
  payment_method_detached: boolean;
}

const randomId = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString('hex')}`;

const toIntent = (row: IntentRow): SetupIntent => ({
  setup_intent_id: row.id,
  client_secret: row.client_secret,
  status: row.status,
  publishable_key: SANDBOX_PUBLISHABLE_KEY,
  type: row.type,
  processor_customer_id: row.processor_customer_id,
  processor_payment_method_id: row.payment_method_id,
  entity_id: row.entity_id,
  account_id: row.account_id,
});

const INTENT_COLUMNS =
  'id, entity_id, account_id, type, status, client_secret, processor_customer_id, payment_method_token, payment_method_id, payment_method_detached';

async function methodRow(db: Db, processorPaymentMethodId: string): Promise<IntentRow> {
  const row = await db.maybeOne<IntentRow>(`SELECT ${INTENT_COLUMNS} FROM sandbox_setup_intents WHERE payment_method_id = $1`, [processorPaymentMethodId]);
  if (!row) throw new PaymentProcessorError(`no such payment method ${processorPaymentMethodId}`, 404, 'resource_missing');
  return row;
}

/** The sandbox adapter over the caller's transaction (row level security limits it to the caller's entity). */
export function sandboxProcessor(db: Db): PaymentProcessor {
  return {
    name: 'sandbox',

    async createSetupIntent(type: SetupIntentType, customer: CustomerRef): Promise<SetupIntent> {
      const id = randomId('seti');
      const row = await db.one<IntentRow>(
        `INSERT INTO sandbox_setup_intents (id, entity_id, account_id, type, status, client_secret, processor_customer_id)
         VALUES ($1, $2, $3, $4, 'requires_payment_method', $5, $6) RETURNING ${INTENT_COLUMNS}`,
        [
          id,
          customer.entityId,
          customer.accountId,
          type,
          `${id}_secret_${randomBytes(12).toString('hex')}`,
          customer.processorCustomerId ?? `cus_sbx_${customer.accountId.replace(/-/g, '')}`,
        ],
      );
      return toIntent(row);
    },

    async retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent | null> {
      const row = await db.maybeOne<IntentRow>(`SELECT ${INTENT_COLUMNS} FROM sandbox_setup_intents WHERE id = $1`, [setupIntentId]);
      return row ? toIntent(row) : null;
    },

    async retrievePaymentMethod(processorPaymentMethodId: string): Promise<ProcessorPaymentMethod> {
      const row = await methodRow(db, processorPaymentMethodId);
      return { processor_payment_method_id: processorPaymentMethodId, ...SANDBOX_TEST_TOKENS[row.payment_method_token!].method! };
    },

    async detachPaymentMethod(processorPaymentMethodId: string): Promise<void> {
      await methodRow(db, processorPaymentMethodId);
      await db.query('UPDATE sandbox_setup_intents SET payment_method_detached = true, updated_at = now() WHERE payment_method_id = $1', [
        processorPaymentMethodId,
      ]);
    },
  };
}

/**
 * The test helper: what the processor's client library does when the customer submits the form,
 * with a Stripe test token in place of the numbers. Unknown intents (or another entity's) are 404
 * on setup_intent_id; a token of the other method type is 400 on payment_method; an intent that
 * already succeeded is 409 setup_intent_unexpected_state (Stripe's code). A declined card leaves
 * the intent requires_payment_method, so it may be confirmed again with another token.
 */
export async function confirmSandboxSetupIntent(db: Db, setupIntentId: string, token: string): Promise<SetupIntent> {
  const row = await db.maybeOne<IntentRow>(`SELECT ${INTENT_COLUMNS} FROM sandbox_setup_intents WHERE id = $1 FOR UPDATE`, [setupIntentId]);
  if (!row) throw new ApiError('not_found', { param: 'setup_intent_id', hint: 'No such sandbox setup intent in this entity.' });
  const test = SANDBOX_TEST_TOKENS[token];
  if (!test) throw new ApiError('parameter_invalid', { param: 'payment_method', hint: `Use a test token: ${SANDBOX_TOKEN_NAMES.join(', ')}.` });
  if (test.intentType !== row.type) {
    throw new ApiError('parameter_invalid', { param: 'payment_method', hint: `${token} does not fit a ${row.type} setup intent.` });
  }
  if (row.status !== 'requires_payment_method') {
    throw new ApiError('setup_intent_unexpected_state', { param: 'setup_intent_id', details: { setup_intent_status: row.status } });
  }
  const methodId = test.method ? randomId('pm') : null;
  const updated = await db.one<IntentRow>(
    `UPDATE sandbox_setup_intents SET status = $2, payment_method_token = $3, payment_method_id = $4, updated_at = now() WHERE id = $1
     RETURNING ${INTENT_COLUMNS}`,
    [row.id, test.outcome, methodId ? token : null, methodId],
  );
  return toIntent(updated);
}

/** Test-only: whether the sandbox has detached a method. */
export async function isSandboxMethodDetached(db: Db, processorPaymentMethodId: string): Promise<boolean> {
  const row = await db.maybeOne<{ payment_method_detached: boolean }>(
    'SELECT payment_method_detached FROM sandbox_setup_intents WHERE payment_method_id = $1',
    [processorPaymentMethodId],
  );
  return row?.payment_method_detached === true;
}
