/**
 * The services a benchmarked cold start calls besides PostgreSQL, answered in the parent process
 * on one local port: EventBridge's PutEvents (a write publishes its event after the commit, as on
 * AWS with EVENT_BUS_NAME set), Secrets Manager's GetSecretValue (the Stripe key) and the two Stripe
 * calls of a setup intent. The clients (the SDK's, the Stripe adapter's) run as they do on AWS;
 * only the network is local.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandIns {
  endpoint: string;
  /** PutEvents entries received so far. */
  events: () => number;
  close: () => Promise<void>;
}

export const STRIPE_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:000000000000:secret:bizops-stripe-AbCdEf';

const json = (response: ServerResponse, type: string, body: unknown) => response.writeHead(200, { 'content-type': type }).end(JSON.stringify(body));

export async function startStandIns(): Promise<StandIns> {
  let events = 0;
  const answer = (request: IncomingMessage, response: ServerResponse, body: string) => {
    const target = String(request.headers['x-amz-target'] ?? '');
    if (target === 'AWSEvents.PutEvents') {
      const { Entries = [] } = JSON.parse(body) as { Entries?: unknown[] };
      events += Entries.length;
      return json(response, 'application/x-amz-json-1.1', {
        FailedEntryCount: 0,
        Entries: Entries.map((_, index) => ({ EventId: `bench-${events}-${index}` })),
      });
    }
    if (target === 'secretsmanager.GetSecretValue') {
      const keys = { secret_key_test: 'sk_test_bench', publishable_key_test: 'pk_test_bench', secret_key_live: 'sk_live_bench' };
      return json(response, 'application/x-amz-json-1.1', { ARN: STRIPE_SECRET_ARN, Name: 'bizops-stripe', SecretString: JSON.stringify(keys) });
    }
    if (request.url === '/v1/customers') return json(response, 'application/json', { id: 'cus_bench', object: 'customer' });
    if (request.url === '/v1/setup_intents') {
      const form = new URLSearchParams(body);
      return json(response, 'application/json', {
        id: `seti_${events}_${Date.now()}`,
        object: 'setup_intent',
        client_secret: 'seti_bench_secret',
        status: 'requires_payment_method',
        customer: form.get('customer'),
        payment_method: null,
        payment_method_types: [form.get('payment_method_types[0]') ?? 'card'],
        metadata: { entity_id: form.get('metadata[entity_id]'), account_id: form.get('metadata[account_id]') },
      });
    }
    response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `unexpected ${request.method} ${request.url} ${target}` }));
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, response, Buffer.concat(chunks).toString()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events: () => events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
