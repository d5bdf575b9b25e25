/**
 * Webhooks through the running local server (`npm start`): a real receiver on localhost registers
 * as an endpoint, an order is created, and the in-process dispatcher delivers order.created, retried
 * after two 500s, signed so that the standardwebhooks library verifies it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './local-server';

let server: LocalServer;
let receiver: http.Server;
let receiverUrl: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const statuses = [500, 500, 200];

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(statuses.length > 1 ? statuses.shift()! : statuses[0]);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://localhost:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startLocalServer({ WEBHOOK_URL_ALLOWLIST: 'localhost', WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '0,0.3,0.3' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

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

describe('webhooks on the local server', () => {
  it('delivers order.created to a localhost receiver on the third attempt, verifiably signed', async () => {
    const location = await call('POST', '/v1/locations', { name: 'Webhook e2e' });
    const entityId = String(location.entity_id);
    const endpoint = await call('POST', `/v1/entities/${entityId}/webhook-endpoints`, { url: receiverUrl, enabled_events: ['order.created'] });
    const account = await call('POST', '/v1/accounts', { name: 'Webhook e2e customer' });
    const product = await call('POST', '/v1/products', { sku: 'WH-E2E', name: 'Webhook e2e product', list_price: 10 });
    const order = await call('POST', '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: product.id, quantity: 1 }] });

    const deadline = Date.now() + 20_000;
    while (received.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toHaveLength(3);
    const last = received[2];
    const headers = {
      'webhook-id': String(last.headers['webhook-id']),
      'webhook-timestamp': String(last.headers['webhook-timestamp']),
      'webhook-signature': String(last.headers['webhook-signature']),
    };
    expect(new Webhook(String(endpoint.secret)).verify(last.body, headers)).toMatchObject({ type: 'order.created', data: { object: { id: order.id } } });
    expect(new Set(received.map((item) => item.headers['webhook-id'])).size).toBe(1);

    // The receiver answers before the dispatcher records the attempt: wait for the third record.
    const attemptsOf = async () =>
      (
        (await call('GET', `/v1/entities/${entityId}/webhook-endpoints/${String(endpoint.id)}/deliveries`)).data as {
          attempt_number: number;
          status_code: number;
        }[]
      ).map((item) => [item.attempt_number, item.status_code]);
    let attempts = await attemptsOf();
    while (attempts.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      attempts = await attemptsOf();
    }
    expect(attempts).toEqual([
      [3, 200],
      [2, 500],
      [1, 500],
    ]);
  });
});
