/**
 * The Stripe adapter, over Stripe's REST API with fetch (form-encoded bodies, `Authorization:
 * Bearer <secret key>`, a pinned Stripe-Version). The official SDK is ~246 KB minified on its own,
 * a cost every payment-method route would pay at cold start; the four calls below are all we need.
 *
 * Keys (stripe-keys.ts): live API keys use Stripe's live mode, test keys its test mode.
 * STRIPE_API_BASE overrides https://api.stripe.com (tests point it at a local stub).
 */
import type { KeyMode } from '../auth/api-key-format';
import type { CustomerRef, PaymentProcessor, ProcessorPaymentMethod, SetupIntent, SetupIntentStatus, SetupIntentType } from './processor';
import { PaymentProcessorError } from './processor';
import { stripeKeys } from './stripe-keys';

export const STRIPE_API_VERSION = '2024-06-20';

/** Stripe's form encoding: nested keys in brackets, arrays indexed (`a[0]=x`). */
export function formEncode(params: Record<string, unknown>, prefix?: string, out = new URLSearchParams()): URLSearchParams {
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (Array.isArray(value)) value.forEach((item: unknown, index) => formEncode({ [index]: item }, name, out));
    else if (typeof value === 'object') formEncode(value as Record<string, unknown>, name, out);
    else out.append(name, `${value as string | number | boolean}`);
  }
  return out;
}

interface StripeSetupIntent {
  id: string;
  client_secret: string;
  status: SetupIntentStatus;
  customer: string | null;
  payment_method: string | null;
  payment_method_types: string[];
  metadata: Record<string, string>;
}

export function stripeProcessor(mode: KeyMode, env: Record<string, string | undefined> = process.env): PaymentProcessor {
  const base = (env.STRIPE_API_BASE ?? 'https://api.stripe.com').replace(/\/$/, '');

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    params?: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<{ status: number; body: T }> {
    const keys = await stripeKeys(mode, env);
    const headers: Record<string, string> = { Authorization: `Bearer ${keys.secret}`, 'Stripe-Version': STRIPE_API_VERSION };
    let body: string | undefined;
    if (method === 'POST') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = formEncode(params ?? {}).toString();
      if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    }
    const response = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(10_000) });
    const json = (await response.json().catch(() => ({}))) as T & { error?: { code?: string; message?: string } };
    if (!response.ok && response.status !== 404) {
      throw new PaymentProcessorError(`Stripe ${method} ${path} answered ${response.status}: ${json.error?.message ?? ''}`, response.status, json.error?.code);
    }
    return { status: response.status, body: json };
  }

  function toSetupIntent(intent: StripeSetupIntent, publishable: string): SetupIntent {
    return {
      setup_intent_id: intent.id,
      client_secret: intent.client_secret,
      status: intent.status,
      publishable_key: publishable,
      type: intent.payment_method_types.includes('us_bank_account') ? 'us_bank_account' : 'card',
      processor_customer_id: intent.customer ?? '',
      processor_payment_method_id: intent.payment_method,
      entity_id: intent.metadata?.entity_id ?? null,
      account_id: intent.metadata?.account_id ?? null,
    };
  }

  return {
    name: 'stripe',

    async createSetupIntent(type: SetupIntentType, customer: CustomerRef, options = {}): Promise<SetupIntent> {
      const keys = await stripeKeys(mode, env);
      const metadata = { entity_id: customer.entityId, account_id: customer.accountId };
      let customerId = customer.processorCustomerId;
      if (!customerId) {
        const created = await call<{ id: string }>(
          'POST',
          '/v1/customers',
          { name: customer.name, metadata },
          `bizops-customer-${customer.entityId}-${customer.accountId}`,
        );
        customerId = created.body.id;
      }
      const created = await call<StripeSetupIntent>(
        'POST',
        '/v1/setup_intents',
        {
          customer: customerId,
          usage: 'off_session',
          payment_method_types: [type],
          metadata,
          ...(type === 'us_bank_account' && { payment_method_options: { us_bank_account: { verification_method: 'automatic' } } }),
        },
        options.idempotencyKey ? `bizops-seti-${customer.entityId}-${options.idempotencyKey}` : undefined,
      );
      return toSetupIntent(created.body, keys.publishable);
    },

    async retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent | null> {
      const keys = await stripeKeys(mode, env);
      const found = await call<StripeSetupIntent>('GET', `/v1/setup_intents/${encodeURIComponent(setupIntentId)}`);
      return found.status === 404 ? null : toSetupIntent(found.body, keys.publishable);
    },

    async retrievePaymentMethod(processorPaymentMethodId: string): Promise<ProcessorPaymentMethod> {
      const found = await call<{
        id: string;
        type: string;
        card?: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string };
        us_bank_account?: {
          bank_name: string | null;
          last4: string;
          routing_number: string | null;
          account_type: string | null;
          status_details?: { blocked?: unknown };
        };
      }>('GET', `/v1/payment_methods/${encodeURIComponent(processorPaymentMethodId)}`);
      if (found.status === 404) throw new PaymentProcessorError(`no such payment method ${processorPaymentMethodId}`, 404, 'resource_missing');
      const { card, us_bank_account: bank } = found.body;
      return {
        processor_payment_method_id: found.body.id,
        type: found.body.type === 'us_bank_account' ? 'ach' : 'card',
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
      const detached = await call('POST', `/v1/payment_methods/${encodeURIComponent(processorPaymentMethodId)}/detach`, {});
      if (detached.status === 404) throw new PaymentProcessorError(`no such payment method ${processorPaymentMethodId}`, 404, 'resource_missing');
    },
  };
}
