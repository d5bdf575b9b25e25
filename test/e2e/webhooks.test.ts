/**
 * Webhooks through the running local server (`npm start`): a real receiver on localhost registers
 * as an endpoint, an order is created, and the in-process dispatcher delivers order.created, retried
 * after two 500s, signed so that the standardwebhooks library verifies it and a forged secret does
 * not; an endpoint answering 410 is disabled; after a roll both secrets verify for 24 hours.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './local-server';

let server: LocalServer;
let receiver: http.Server;
let receiverBase: string;
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
/** What each path of the receiver got, and the statuses it answers in turn (the last one repeats). */
const paths = new Map<string, { received: Received[]; statuses: number[] }>();
const route = (name: string, statuses: number[]) => {
  const entry = { received: [] as Received[], statuses };
  paths.set(`/${name}`, entry);
  return { url: `${receiverBase}/${name}`, received: entry.received };
};

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = paths.get(request.url ?? '');
      if (!entry) return void response.writeHead(404).end();
      entry.received.push({ headers: request.headers, body });
      response.writeHead(entry.statuses.length > 1 ? entry.statuses.shift()! : entry.statuses[0]);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://localhost:${(receiver.address() as AddressInfo).port}`;
  server = await startLocalServer({ WEBHOOK_URL_ALLOWLIST: 'localhost', WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '0,0.3,0.3' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const headersOf = (item: Received) => ({
  'webhook-id': String(item.headers['webhook-id']),
  'webhook-timestamp': String(item.headers['webhook-timestamp']),
  'webhook-signature': String(item.headers['webhook-signature']),
});

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${server.demoKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A customer, a product and a sales order of them: order.created is recorded. */
async function createOrder(name: string): Promise<Record<string, unknown>> {
  const account = await call('POST', '/v1/accounts', { name: `${name} customer` });
  const product = await call('POST', '/v1/products', { sku: `WH-${name.toUpperCase().replace(/\W/g, '')}`, name: `${name} product`, list_price: 10 });
  return call('POST', '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: product.id, quantity: 1 }] });
}

let entityId: string;

describe('webhooks on the local server', () => {
  beforeAll(async () => {
    entityId = String((await call('POST', '/v1/locations', { name: 'Webhook e2e' })).entity_id);
  });

  it('delivers order.created to a localhost receiver on the third attempt, verifiably signed; a forged signature fails', async () => {
    const hook = route('retried', [500, 500, 200]);
    const endpoint = await call('POST', `/v1/entities/${entityId}/webhook-endpoints`, { url: hook.url, enabled_events: ['order.created'] });
    const order = await createOrder('Retried');

    await until('three attempts', () => (hook.received.length >= 3 ? true : undefined));
    expect(hook.received).toHaveLength(3);
    const last = hook.received[2];
    expect(new Webhook(String(endpoint.secret)).verify(last.body, headersOf(last))).toMatchObject({
      type: 'order.created',
      payload_version: 2,
      data: { object: { id: order.id } },
    });
    expect(new Set(hook.received.map((item) => item.headers['webhook-id'])).size).toBe(1);
    // Signed with another secret, or with the body changed, it does not verify.
    const forged = new Webhook(`whsec_${Buffer.from('not the secret, but 32 bytes long').toString('base64')}`);
    expect(() => forged.verify(last.body, headersOf(last))).toThrow();
    expect(() => new Webhook(String(endpoint.secret)).verify(last.body.replace('order.created', 'order.updated'), headersOf(last))).toThrow();

    // The receiver answers before the dispatcher records the attempt: wait for the third record.
    const attemptsOf = async () =>
      (
        (await call('GET', `/v1/entities/${entityId}/webhook-endpoints/${String(endpoint.id)}/deliveries`)).data as {
          attempt_number: number;
          status_code: number;
        }[]
      ).map((item) => [item.attempt_number, item.status_code]);
    const attempts = await until('the third attempt recorded', async () => {
      const found = await attemptsOf();
      return found.length >= 3 ? found : undefined;
    });
    expect(attempts).toEqual([
      [3, 200],
      [2, 500],
      [1, 500],
    ]);
    await call('POST', `/v1/entities/${entityId}/webhook-endpoints/${String(endpoint.id)}/disable`);
  });

  it('disables an endpoint that answers 410 Gone at once, with a webhook_endpoint.disabled event', async () => {
    const hook = route('gone', [410]);
    const endpoint = await call('POST', `/v1/entities/${entityId}/webhook-endpoints`, { url: hook.url, enabled_events: ['order.created'] });
    await createOrder('Gone');
    const disabled = await until('the endpoint disabled', async () => {
      const current = await call('GET', `/v1/entities/${entityId}/webhook-endpoints/${String(endpoint.id)}`);
      return current.status === 'disabled' ? current : undefined;
    });
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    expect(hook.received).toHaveLength(1);
    const feed = (await call('GET', `/v1/entities/${entityId}/events?type=webhook_endpoint.disabled`)).data as { data: { object: { id: string } } }[];
    expect(feed.map((event) => event.data.object.id)).toEqual([endpoint.id]);

    // Disabled, it gets nothing more.
    await createOrder('After gone');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.received).toHaveLength(1);
  });

  it('signs with the old and the new secret for 24 hours after a roll', async () => {
    const hook = route('rolled', [200]);
    const endpoint = await call('POST', `/v1/entities/${entityId}/webhook-endpoints`, { url: hook.url, enabled_events: ['order.created'] });
    const rolled = await call('POST', `/v1/entities/${entityId}/webhook-endpoints/${String(endpoint.id)}/roll-secret`);
    expect(rolled.secret).not.toBe(endpoint.secret);
    const expiresIn = Date.parse(String(rolled.previous_secret_expires_at)) - Date.now();
    expect(Math.abs(expiresIn - 24 * 3600 * 1000)).toBeLessThan(60_000);
    const order = await createOrder('Rolled');
    const delivery = await until('the delivery', () => hook.received[0]);
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rolled.secret]) {
      expect(new Webhook(String(secret)).verify(delivery.body, headersOf(delivery))).toMatchObject({
        type: 'order.created',
        data: { object: { id: order.id } },
      });
    }
  });
});
