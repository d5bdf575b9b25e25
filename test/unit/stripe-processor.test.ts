/**
 * The Stripe adapter (the `stripe` package, pointed at a local HTTP stub of Stripe's REST API by
 * STRIPE_API_BASE): the requests it sends (method, path, form-encoded body, bearer key, version and
 * idempotency headers) and how it reads the answers. No network.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PaymentProcessorError } from '../../shared/payments/processor';
import { paymentProcessor } from '../../shared/payments/select-processor';
import { STRIPE_API_VERSION, stripeProcessor } from '../../shared/payments/stripe-processor';
import type { Db } from '../../shared/db/database';

/** Choosing the adapter touches no database. */
const NO_DB = {} as Db;

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: Record<string, string>;
  raw: string;
}

let server: http.Server;
let base: string;
let requests: Recorded[];
const answers = new Map<string, { status: number; body: unknown }>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      requests.push({ method: req.method!, path: req.url!, headers: req.headers, form: Object.fromEntries(new URLSearchParams(raw)), raw });
      const answer = answers.get(`${req.method} ${req.url}`) ?? { status: 404, body: { error: { code: 'resource_missing', message: 'No such object' } } };
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  requests = [];
  answers.clear();
});

const env = () => ({ PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_stub', STRIPE_PUBLISHABLE_KEY: 'pk_test_stub', STRIPE_API_BASE: base });
const ref = { entityId: 'ent-1', accountId: 'acc-1', name: 'Acme' };
const intent = (overrides: Record<string, unknown> = {}) => ({
  id: 'seti_123',
  object: 'setup_intent',
  client_secret: 'seti_123_secret_abc',
  status: 'requires_payment_method',
  customer: 'cus_1',
  payment_method: null,
  payment_method_types: ['card'],
  metadata: { entity_id: 'ent-1', account_id: 'acc-1' },
  ...overrides,
});

describe('the Stripe adapter', () => {
  it('is selected by PAYMENT_PROCESSOR=stripe; otherwise the sandbox serves, and never live keys in production', () => {
    expect(paymentProcessor('test', NO_DB, env()).name).toBe('stripe');
    expect(paymentProcessor('test', NO_DB, {}).name).toBe('sandbox');
    expect(paymentProcessor('live', NO_DB, {}).name).toBe('sandbox');
    expect(() => paymentProcessor('live', NO_DB, { NODE_ENV: 'production' })).toThrow(PaymentProcessorError);
  });

  it('creates the customer once, then a setup intent for it, with bearer key, version and idempotency keys', async () => {
    answers.set('POST /v1/customers', { status: 200, body: { id: 'cus_1' } });
    answers.set('POST /v1/setup_intents', { status: 200, body: intent({ payment_method_types: ['us_bank_account'] }) });
    const created = await stripeProcessor('test', env()).createSetupIntent('us_bank_account', ref, { idempotencyKey: 'key-1' });
    expect(created).toEqual({
      setup_intent_id: 'seti_123',
      client_secret: 'seti_123_secret_abc',
      status: 'requires_payment_method',
      publishable_key: 'pk_test_stub',
      type: 'us_bank_account',
      processor_customer_id: 'cus_1',
      processor_payment_method_id: null,
      entity_id: 'ent-1',
      account_id: 'acc-1',
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/customers', 'POST /v1/setup_intents']);
    for (const request of requests) {
      expect(request.headers.authorization).toBe('Bearer sk_test_stub');
      expect(request.headers['stripe-version']).toBe(STRIPE_API_VERSION);
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    }
    expect(requests[0].form).toEqual({ name: 'Acme', 'metadata[entity_id]': 'ent-1', 'metadata[account_id]': 'acc-1' });
    expect(requests[0].headers['idempotency-key']).toBe('bizops-customer-ent-1-acc-1');
    expect(requests[1].form).toEqual({
      customer: 'cus_1',
      usage: 'off_session',
      'payment_method_types[0]': 'us_bank_account',
      'metadata[entity_id]': 'ent-1',
      'metadata[account_id]': 'acc-1',
      'payment_method_options[us_bank_account][verification_method]': 'automatic',
    });
    expect(requests[1].headers['idempotency-key']).toBe('bizops-seti-ent-1-key-1');
  });

  it('reuses a known customer', async () => {
    answers.set('POST /v1/setup_intents', { status: 200, body: intent() });
    await stripeProcessor('test', env()).createSetupIntent('card', { ...ref, processorCustomerId: 'cus_9' });
    expect(requests.map((r) => r.path)).toEqual(['/v1/setup_intents']);
    expect(requests[0].form.customer).toBe('cus_9');
    expect(requests[0].form['payment_method_types[0]']).toBe('card');
    // Without the caller's key none of ours: the package keys every POST itself.
    expect(requests[0].headers['idempotency-key']).toMatch(/^stripe-node-retry-/);
  });

  it('retrieves setup intents (null when unknown) and maps card and bank methods to display details only', async () => {
    answers.set('GET /v1/setup_intents/seti_123', { status: 200, body: intent({ status: 'succeeded', payment_method: 'pm_1' }) });
    answers.set('GET /v1/payment_methods/pm_1', {
      status: 200,
      body: { id: 'pm_1', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031, funding: 'debit' } },
    });
    answers.set('GET /v1/payment_methods/pm_2', {
      status: 200,
      body: {
        id: 'pm_2',
        type: 'us_bank_account',
        us_bank_account: { bank_name: 'STRIPE TEST BANK', last4: '6789', routing_number: '110000000', account_type: 'savings' },
      },
    });
    const stripe = stripeProcessor('test', env());
    expect(await stripe.retrieveSetupIntent('seti_123')).toMatchObject({ status: 'succeeded', processor_payment_method_id: 'pm_1', account_id: 'acc-1' });
    expect(await stripe.retrieveSetupIntent('seti_missing')).toBeNull();
    expect(await stripe.retrievePaymentMethod('pm_1')).toEqual({
      processor_payment_method_id: 'pm_1',
      type: 'card',
      card_brand: 'visa',
      last_four: '4242',
      exp_month: 8,
      exp_year: 2031,
      funding_type: 'debit',
      bank_name: null,
      routing_last_four: null,
      account_type: null,
      verification_status: null,
    });
    expect(await stripe.retrievePaymentMethod('pm_2')).toMatchObject({
      type: 'ach',
      last_four: '6789',
      routing_last_four: '0000',
      bank_name: 'STRIPE TEST BANK',
      account_type: 'savings',
      verification_status: 'verified',
    });
    expect(requests.every((r) => r.method === 'GET' && r.headers.authorization === 'Bearer sk_test_stub')).toBe(true);
    await expect(stripe.retrievePaymentMethod('pm_missing')).rejects.toThrow(PaymentProcessorError);
  });

  it('detaches with a POST, and turns Stripe errors into PaymentProcessorError', async () => {
    answers.set('POST /v1/payment_methods/pm_1/detach', { status: 200, body: { id: 'pm_1', customer: null } });
    answers.set('POST /v1/setup_intents', { status: 402, body: { error: { code: 'card_declined', message: 'Your card was declined.' } } });
    const stripe = stripeProcessor('test', env());
    await stripe.detachPaymentMethod('pm_1');
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/payment_methods/pm_1/detach' });
    const failure = await stripe.createSetupIntent('card', { ...ref, processorCustomerId: 'cus_1' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PaymentProcessorError);
    expect(failure).toMatchObject({ status: 402, processorCode: 'card_declined' });
  });

  it('reads the keys from the Secrets Manager secret once, with one signed GetSecretValue', async () => {
    // The stub answers Secrets Manager's JSON protocol on its root path and Stripe's API under /v1.
    const keys = { secret_key_test: 'sk_test_from_secret', publishable_key_test: 'pk_test_from_secret', secret_key_live: 'sk_live_from_secret' };
    answers.set('POST /', { status: 200, body: { ARN: 'arn', Name: 'stripe', SecretString: JSON.stringify(keys) } });
    answers.set('GET /v1/setup_intents/seti_123', { status: 200, body: intent() });
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:bizops/stripe';
    const secretEnv = { STRIPE_SECRET_ARN: arn, AWS_ENDPOINT_URL_SECRETS_MANAGER: base, STRIPE_API_BASE: base, AWS_REGION: 'eu-west-1' };
    await stripeProcessor('test', secretEnv).retrieveSetupIntent('seti_123');
    await stripeProcessor('live', secretEnv).retrieveSetupIntent('seti_123');
    const secretCalls = requests.filter((request) => request.path === '/');
    expect(secretCalls).toHaveLength(1);
    expect(secretCalls[0].headers).toMatchObject({ 'x-amz-target': 'secretsmanager.GetSecretValue', 'content-type': 'application/x-amz-json-1.1' });
    expect(secretCalls[0].headers.authorization).toMatch(/\/eu-west-1\/secretsmanager\/aws4_request, /);
    expect(JSON.parse(secretCalls[0].raw)).toEqual({ SecretId: arn });
    const stripeCalls = requests.filter((request) => request.path.startsWith('/v1/'));
    expect(stripeCalls.map((request) => request.headers.authorization)).toEqual(['Bearer sk_test_from_secret', 'Bearer sk_live_from_secret']);
  });

  it('needs a key: STRIPE_SECRET_KEY or STRIPE_SECRET_ARN', async () => {
    await expect(stripeProcessor('live', { STRIPE_API_BASE: base }).retrieveSetupIntent('seti_1')).rejects.toThrow(/STRIPE_SECRET_KEY or STRIPE_SECRET_ARN/);
    expect(requests).toEqual([]);
  });
});
