/**
 * The Stripe adapter, through the official `stripe` package.
 *
 * Keys (stripe-keys.ts): live API keys use Stripe's live mode, test keys its test mode.
 * STRIPE_API_BASE overrides https://api.stripe.com (tests point it at a local stub).
 */
import type Stripe from 'stripe';
import type { KeyMode } from '../auth/api-key-format';
import type { CustomerRef, PaymentProcessor, ProcessorPaymentMethod, SetupIntent, SetupIntentStatus, SetupIntentType } from './processor';
import { PaymentProcessorError } from './processor';
import { stripeKeys } from './stripe-keys';

/**
 * The Stripe API version every request names. Pinned, not the package's own (its types follow the
 * newest version): moving to another version changes what Stripe reads and answers, so it is a
 * change of its own, tried against Stripe's test mode first.
 */
export const STRIPE_API_VERSION = '2024-06-20';

/** The pinned version's setup intent parameters: `payment_method_types` is what newer versions call `allowed_payment_method_types`. */
type SetupIntentCreateParams = Stripe.SetupIntentCreateParams & { payment_method_types: SetupIntentType[] };

/** One client per secret key and process, as Stripe's own examples keep one. */
const clients = new Map<string, Promise<Stripe>>();

function clientFor(secret: string, env: Record<string, string | undefined>): Promise<Stripe> {
  let client = clients.get(secret);
  if (!client) {
    // Loaded on the first card call: the routes that bundle the adapter but never call it (and
    // every stage on the sandbox processor) do not evaluate the package at cold start.
    client = import('stripe').then(({ default: StripeClient }) => {
      const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : undefined;
      return new StripeClient(secret, {
        apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
        // No automatic retries: one attempt of at most 10 s fits API Gateway's 29 s; the caller
        // retries with its Idempotency-Key.
        maxNetworkRetries: 0,
        timeout: 10_000,
        ...(base && { host: base.hostname, port: base.port || undefined, protocol: base.protocol === 'http:' ? 'http' : 'https' }),
      });
    });
    clients.set(secret, client);
  }
  return client;
}

/**
 * Runs one Stripe call: null when Stripe answers 404 (an unknown id), a PaymentProcessorError
 * carrying Stripe's status and error code for any other failure.
 */
async function call<T>(operation: string, request: () => Promise<T>): Promise<T | null> {
  try {
    return await request();
  } catch (error) {
    const { StripeError } = (await import('stripe')).default.errors;
    if (!(error instanceof StripeError)) throw error;
    if (error.statusCode === 404) return null;
    throw new PaymentProcessorError(`Stripe ${operation} answered ${error.statusCode ?? 'nothing'}: ${error.message}`, error.statusCode, error.code);
  }
}

const idOf = (value: string | { id: string } | null): string | null => (typeof value === 'string' || value === null ? value : value.id);

function toSetupIntent(intent: Stripe.SetupIntent, publishable: string): SetupIntent {
  return {
    setup_intent_id: intent.id,
    client_secret: intent.client_secret ?? '',
    // The six statuses of the pinned version; the package's type leaves room for newer ones.
    status: intent.status as SetupIntentStatus,
    publishable_key: publishable,
    type: intent.payment_method_types.includes('us_bank_account') ? 'us_bank_account' : 'card',
    processor_customer_id: idOf(intent.customer) ?? '',
    processor_payment_method_id: idOf(intent.payment_method),
    entity_id: intent.metadata?.entity_id ?? null,
    account_id: intent.metadata?.account_id ?? null,
  };
}

function noSuchPaymentMethod(id: string): PaymentProcessorError {
  return new PaymentProcessorError(`no such payment method ${id}`, 404, 'resource_missing');
}

export function stripeProcessor(mode: KeyMode, env: Record<string, string | undefined> = process.env): PaymentProcessor {
  async function connect(): Promise<{ stripe: Stripe; publishable: string }> {
    const keys = await stripeKeys(mode, env);
    return { stripe: await clientFor(keys.secret, env), publishable: keys.publishable };
  }

  return {
    name: 'stripe',

    async createSetupIntent(type: SetupIntentType, customer: CustomerRef, options = {}): Promise<SetupIntent> {
      const { stripe, publishable } = await connect();
      const metadata = { entity_id: customer.entityId, account_id: customer.accountId };
      let customerId = customer.processorCustomerId;
      if (!customerId) {
        const created = await call('POST /v1/customers', () =>
          stripe.customers.create({ name: customer.name, metadata }, { idempotencyKey: `bizops-customer-${customer.entityId}-${customer.accountId}` }),
        );
        customerId = created!.id;
      }
      const params: SetupIntentCreateParams = {
        customer: customerId,
        usage: 'off_session',
        payment_method_types: [type],
        metadata,
        ...(type === 'us_bank_account' && { payment_method_options: { us_bank_account: { verification_method: 'automatic' } } }),
      };
      const idempotencyKey = options.idempotencyKey ? `bizops-seti-${customer.entityId}-${options.idempotencyKey}` : undefined;
      const created = await call('POST /v1/setup_intents', () => stripe.setupIntents.create(params, { idempotencyKey }));
      return toSetupIntent(created!, publishable);
    },

    async retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent | null> {
      const { stripe, publishable } = await connect();
      const found = await call('GET /v1/setup_intents', () => stripe.setupIntents.retrieve(setupIntentId));
      return found && toSetupIntent(found, publishable);
    },

    async retrievePaymentMethod(processorPaymentMethodId: string): Promise<ProcessorPaymentMethod> {
      const { stripe } = await connect();
      const found = await call('GET /v1/payment_methods', () => stripe.paymentMethods.retrieve(processorPaymentMethodId));
      if (!found) throw noSuchPaymentMethod(processorPaymentMethodId);
      const { card, us_bank_account: bank } = found;
      return {
        processor_payment_method_id: found.id,
        type: found.type === 'us_bank_account' ? 'ach' : 'card',
        card_brand: card?.brand ?? null,
        last_four: card?.last4 ?? bank?.last4 ?? null,
        exp_month: card?.exp_month ?? null,
        exp_year: card?.exp_year ?? null,
        funding_type: card?.funding ?? null,
        bank_name: bank?.bank_name ?? null,
        // Only the last four digits are ever kept, even of a routing number.
        routing_last_four: bank?.routing_number ? bank.routing_number.slice(-4) : null,
        account_type: bank?.account_type ?? null,
        verification_status: bank ? (bank.status_details?.blocked ? 'blocked' : 'verified') : null,
      };
    },

    async detachPaymentMethod(processorPaymentMethodId: string): Promise<void> {
      const { stripe } = await connect();
      const detached = await call('POST /v1/payment_methods/detach', () => stripe.paymentMethods.detach(processorPaymentMethodId));
      if (!detached) throw noSuchPaymentMethod(processorPaymentMethodId);
    },
  };
}
