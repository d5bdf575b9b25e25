/**
 * Delivery end to end: real HTTP receivers on localhost, the in-process dispatcher fed by the bus,
 * signatures verified with the standardwebhooks library as a receiver would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../shared/webhooks/dispatcher';
import { setupTestApi, type TestEntity } from '../support/harness';
import { seedOrder } from '../support/order-fixtures';

const api = setupTestApi();

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver answering with the statuses given, in turn (the last one repeats). */
class Receiver {
  readonly received: Received[] = [];
  readonly server: http.Server;
  constructor(
    private statuses: number[] = [200],
    private readonly decide?: (body: string) => number,
  ) {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body });
        const status = this.decide ? this.decide(body) : this.statuses.length > 1 ? this.statuses.shift()! : this.statuses[0];
        response.writeHead(status, { 'Content-Type': 'text/plain' });
        response.end(status === 200 ? 'ok' : `status ${status} ${'x'.repeat(2000)}`);
      });
    });
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://localhost:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  close() {
    const closed = new Promise((resolve) => this.server.close(resolve));
    this.server.closeAllConnections();
    return closed;
  }
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const saved = { ...process.env };
let dispatcher: WebhookDispatcher;
const receivers: Receiver[] = [];

beforeAll(() => {
  process.env.WEBHOOK_URL_ALLOWLIST = 'localhost';
  dispatcher = new WebhookDispatcher(api.bus, { pollMs: 50, config: { schedule: [0, 0.2, 0.2], timeoutMs: 2000 } });
});
afterAll(async () => {
  await dispatcher.stop();
  process.env.WEBHOOK_URL_ALLOWLIST = saved.WEBHOOK_URL_ALLOWLIST;
  if (saved.WEBHOOK_URL_ALLOWLIST === undefined) delete process.env.WEBHOOK_URL_ALLOWLIST;
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiverEndpoint(owner: TestEntity, statuses: number[], enabledEvents = ['order.created'], decide?: (body: string) => number) {
  const receiver = new Receiver(statuses, decide);
  receivers.push(receiver);
  const url = await receiver.listen();
  const endpoint = await api.post(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints`, { url, enabled_events: enabledEvents });
  return { receiver, endpoint };
}

async function createOrder(owner: TestEntity): Promise<string> {
  return (await seedOrder(api, owner)).id;
}

const headersOf = (received: Received) => ({
  'webhook-id': String(received.headers['webhook-id']),
  'webhook-timestamp': String(received.headers['webhook-timestamp']),
  'webhook-signature': String(received.headers['webhook-signature']),
});

async function attempts(owner: TestEntity, endpointId: string) {
  const response = await api.raw('GET', `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpointId}/deliveries`, { key: owner.secret });
  expect(response.status, response.text).toBe(200);
  return (response.body as { data: Record<string, unknown>[] }).data;
}

describe('webhook delivery', () => {
  it('POSTs order.created, signed so that standardwebhooks verifies it; a forged signature fails', async () => {
    const owner = await api.newEntity();
    const { receiver, endpoint } = await receiverEndpoint(owner, [200]);
    const orderId = await createOrder(owner);
    const received = await until('the delivery', () => receiver.received[0]);
    const event = JSON.parse(received.body) as { id: string; type: string; data: { object: { id: string } } };
    expect(event).toMatchObject({ object: 'event', type: 'order.created', payload_version: 2, livemode: false, data: { object: { id: orderId } } });
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['webhook-id']).toBe(event.id);
    expect(Math.abs(Number(received.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(new Webhook(endpoint.secret).verify(received.body, headersOf(received))).toEqual(event);
    // The same event, byte for byte, as the events feed serves it.
    const fromFeed = await api.raw('GET', `/v1/entities/${owner.entity.id}/events/${event.id}`, { key: owner.secret });
    expect(fromFeed.body).toEqual(event);

    const forged = new Webhook(`whsec_${Buffer.from('not the secret, but 32 bytes long').toString('base64')}`);
    expect(() => forged.verify(received.body, headersOf(received))).toThrow();
    expect(() => new Webhook(endpoint.secret).verify(received.body.replace('order.created', 'order.deleted'), headersOf(received))).toThrow();
    expect(() => new Webhook(endpoint.secret).verify(received.body, { ...headersOf(received), 'webhook-signature': 'v1,AAAA' })).toThrow();

    const [attempt] = await until('the attempt record', async () => ((await attempts(owner, endpoint.id)).length ? attempts(owner, endpoint.id) : undefined));
    expect(attempt).toMatchObject({
      object: 'webhook_delivery_attempt',
      event_id: event.id,
      event_type: 'order.created',
      attempt_number: 1,
      succeeded: true,
      status_code: 200,
      response_excerpt: 'ok',
      error: null,
      next_attempt_at: null,
    });
    // Only subscribed types are sent: the account.created and product.created events were not.
    expect(receiver.received.map((item) => (JSON.parse(item.body) as { type: string }).type)).toEqual(['order.created']);
  });

  it('retries a receiver that answers 500 twice, and delivers on the third attempt, recording each', async () => {
    const owner = await api.newEntity();
    const { receiver, endpoint } = await receiverEndpoint(owner, [500, 500, 200]);
    await createOrder(owner);
    await until('three attempts', () => (receiver.received.length >= 3 ? true : undefined));
    const ids = new Set(receiver.received.map((item) => item.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const recorded = await until('three attempt records', async () => {
      const list = await attempts(owner, endpoint.id);
      return list.length === 3 ? list : undefined;
    });
    expect(recorded.map((item) => [item.attempt_number, item.status_code, item.succeeded])).toEqual([
      [3, 200, true],
      [2, 500, false],
      [1, 500, false],
    ]);
    expect(recorded[2].next_attempt_at).not.toBeNull();
    expect(recorded[0].next_attempt_at).toBeNull();
    // The excerpt is capped at 1 KB.
    expect(Buffer.byteLength(String(recorded[1].response_excerpt))).toBe(1024);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(3);
  });

  it('gives up when the schedule runs out, and disables an endpoint that failed every attempt meanwhile', async () => {
    const owner = await api.newEntity();
    const { receiver, endpoint } = await receiverEndpoint(owner, [503]);
    await createOrder(owner);
    const recorded = await until('three failed attempts', async () => {
      const list = await attempts(owner, endpoint.id);
      return list.length === 3 ? list : undefined;
    });
    expect(recorded.every((item) => item.succeeded === false && item.status_code === 503)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.received).toHaveLength(3);
    const current = await api.get(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpoint.id}`);
    expect(current).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });
    const events = await api.get(owner, `/v1/entities/${owner.entity.id}/events`, { type: 'webhook_endpoint.disabled' });
    expect(events.data.map((event) => event.data.object)).toMatchObject([{ id: endpoint.id, disabled_reason: 'failing', status: 'disabled' }]);
  });

  it('keeps an endpoint enabled when a delivery runs out but another succeeded meanwhile', async () => {
    const owner = await api.newEntity();
    const { endpoint } = await receiverEndpoint(owner, [], ['*'], (body) => ((JSON.parse(body) as { type: string }).type === 'order.created' ? 503 : 200));
    await createOrder(owner);
    await api.raw('POST', `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpoint.id}/test`, { key: owner.secret });
    await until('the order delivery to run out', async () => {
      const list = await attempts(owner, endpoint.id);
      return list.filter((item) => item.event_type === 'order.created').length === 3 ? list : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api.get(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpoint.id}`)).status).toBe('enabled');
  });

  it('disables an endpoint that answers 410 at once', async () => {
    const owner = await api.newEntity();
    const { receiver, endpoint } = await receiverEndpoint(owner, [410]);
    await createOrder(owner);
    const disabled = await until('the endpoint disabled', async () => {
      const current = await api.get(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpoint.id}`);
      return current.status === 'disabled' ? current : undefined;
    });
    expect(disabled.disabled_reason).toBe('gone');
    const events = await api.get(owner, `/v1/entities/${owner.entity.id}/events`, { type: 'webhook_endpoint.disabled' });
    expect(events.data.map((event) => event.data.object)).toMatchObject([{ id: endpoint.id, disabled_reason: 'gone' }]);
    await createOrder(owner);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(1);
  });

  it('signs with the old and the new secret after a roll, so both verify', async () => {
    const owner = await api.newEntity();
    const { receiver, endpoint } = await receiverEndpoint(owner, [200]);
    const rolled = await api.post(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpoint.id}/roll-secret`, undefined, 200);
    await createOrder(owner);
    const received = await until('the delivery', () => receiver.received[0]);
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(received.body, headersOf(received))).toMatchObject({ type: 'order.created' });
    expect(new Webhook(rolled.secret).verify(received.body, headersOf(received))).toMatchObject({ type: 'order.created' });
    // After the 24 hours only the new secret signs.
    await owner.sql((db) => db.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [endpoint.id]));
    await createOrder(owner);
    const second = await until('the second delivery', () => receiver.received[1]);
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(endpoint.secret).verify(second.body, headersOf(second))).toThrow();
    expect(new Webhook(rolled.secret).verify(second.body, headersOf(second))).toMatchObject({ type: 'order.created' });
  });

  it('resends an event to one endpoint and sends a test ping', async () => {
    const owner = await api.newEntity();
    const { receiver, endpoint } = await receiverEndpoint(owner, [200], ['product.created']);
    const location = await api.post(owner, '/v1/locations', { name: 'Resent' });
    const eventId = await owner.sql(
      async (db) => (await db.one<{ id: string }>(`SELECT id FROM event_outbox WHERE payload -> 'data' -> 'object' ->> 'id' = $1`, [location.id])).id,
    );
    const resend = await api.raw('POST', `/v1/entities/${owner.entity.id}/events/${eventId}/resend`, { key: owner.secret, body: { endpoint_id: endpoint.id } });
    expect(resend.status, resend.text).toBe(202);
    expect(resend.body).toMatchObject({ object: 'webhook_delivery', kind: 'resend', event_id: eventId, event_type: 'location.created', status: 'pending' });
    const resent = await until('the resent event', () => receiver.received[0]);
    expect(resent.headers['webhook-id']).toBe(eventId);
    expect(new Webhook(endpoint.secret).verify(resent.body, headersOf(resent))).toMatchObject({ id: eventId, type: 'location.created' });

    const ping = await api.raw('POST', `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpoint.id}/test`, { key: owner.secret });
    expect(ping.status, ping.text).toBe(202);
    const pinged = await until('the ping', () => receiver.received[1]);
    expect(new Webhook(endpoint.secret).verify(pinged.body, headersOf(pinged))).toMatchObject({
      type: 'ping',
      livemode: false,
      data: { object: { id: endpoint.id, object: 'webhook_endpoint' } },
    });
    expect((await api.raw('GET', `/v1/entities/${owner.entity.id}/events/${(ping.body as { event_id: string }).event_id}`, { key: owner.secret })).status).toBe(
      404,
    );

    await api.raw('POST', `/v1/entities/${owner.entity.id}/webhook-endpoints/${endpoint.id}/disable`, { key: owner.secret });
    const refused = await api.raw('POST', `/v1/entities/${owner.entity.id}/events/${eventId}/resend`, {
      key: owner.secret,
      body: { endpoint_id: endpoint.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'webhook_endpoint_disabled', param: 'endpoint_id' });
  });

  it('a slow endpoint does not hold back another endpoint or the API', async () => {
    const owner = await api.newEntity();
    const slow = new Receiver([200]);
    receivers.push(slow);
    const slowServer = slow.server;
    // Answers after 1.5 s: well inside the 2 s test timeout, far beyond the fast receiver's.
    slowServer.removeAllListeners('request');
    slowServer.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
      request.resume();
      setTimeout(() => response.writeHead(200).end(), 1500);
    });
    const slowUrl = await slow.listen();
    await api.post(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints`, { url: slowUrl, enabled_events: ['order.created'] });
    const { receiver: fast } = await receiverEndpoint(owner, [200]);
    const started = Date.now();
    await createOrder(owner);
    const apiMs = Date.now() - started;
    await until('the fast delivery', () => fast.received[0]);
    const fastMs = Date.now() - started;
    expect(apiMs).toBeLessThan(1500);
    expect(fastMs).toBeLessThan(1500);
  });

  it('checks the address again at delivery time', async () => {
    const owner = await api.newEntity();
    const { receiver, endpoint } = await receiverEndpoint(owner, [200]);
    // The allowlist is withdrawn after creation: the delivery must not reach localhost.
    process.env.WEBHOOK_URL_ALLOWLIST = '';
    try {
      await createOrder(owner);
      const [attempt] = await until('the refused attempt', async () => {
        const list = await attempts(owner, endpoint.id);
        return list.length ? list : undefined;
      });
      expect(attempt).toMatchObject({ succeeded: false, status_code: null });
      expect(String(attempt.error)).toMatch(/https/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      process.env.WEBHOOK_URL_ALLOWLIST = 'localhost';
    }
  });
});
