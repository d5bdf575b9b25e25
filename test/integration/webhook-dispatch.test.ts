/**
 * The delivery pool and the AWS function handlers over it: per-endpoint caps keep a slow endpoint
 * from holding the others back; the dispatcher function sends an event once however often the
 * bus brings it; the retry function claims due retries and sends them. Real HTTP receivers on
 * localhost; no in-process dispatcher runs in this file, so only the code under test sends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, EventBridgeEvent, ScheduledEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as dispatchHandler } from '../../functions/platform/dispatch-webhooks';
import { handler as retryHandler } from '../../functions/platform/retry-webhooks';
import type { EventEnvelope } from '../../shared/events/outbox';
import { newId } from '../../shared/ids';
import { WebhookDispatcher } from '../../shared/webhooks/dispatcher';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();

/**
 * A receiver that answers after `delayMs` with the statuses given in turn, and counts requests in
 * flight. A gated receiver holds every request until `open()` is called.
 */
class Receiver {
  readonly received: { id: string; type: string; at: number }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  readonly server: http.Server;
  private gate: Promise<void> = Promise.resolve();
  private openGate: () => void = () => undefined;
  constructor(
    private readonly delayMs = 0,
    private readonly statuses: number[] = [200],
    gated = false,
  ) {
    if (gated) this.gate = new Promise((resolve) => (this.openGate = resolve));
    this.server = http.createServer((request, response) => {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        void this.gate.then(() =>
          setTimeout(() => {
            const event = JSON.parse(body) as { id: string; type: string };
            this.received.push({ id: event.id, type: event.type, at: Date.now() });
            this.inFlight--;
            response.writeHead(this.statuses.length > 1 ? this.statuses.shift()! : this.statuses[0]).end();
          }, this.delayMs),
        );
      });
    });
  }
  open() {
    this.openGate();
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://localhost:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  close() {
    this.openGate();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const saved = { ...process.env };
const receivers: Receiver[] = [];

beforeAll(() => {
  process.env.WEBHOOK_URL_ALLOWLIST = 'localhost';
  process.env.WEBHOOK_RETRY_SCHEDULE = '0,0.2,0.2';
  process.env.WEBHOOK_TIMEOUT_MS = '3000';
});
afterAll(() => {
  for (const name of ['WEBHOOK_URL_ALLOWLIST', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_TIMEOUT_MS']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function endpointFor(owner: TestEntity, receiver: Receiver, enabledEvents: string[]) {
  receivers.push(receiver);
  return api.post(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints`, { url: await receiver.listen(), enabled_events: enabledEvents });
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An event as the rule hands it to the dispatcher function. */
const fromBus = (event: EventEnvelope): EventBridgeEvent<string, EventEnvelope> => ({
  version: '0',
  id: 'eb-1',
  'detail-type': event.type,
  source: 'bizops.api',
  account: '123456789012',
  time: event.created_at,
  region: 'eu-west-1',
  resources: [],
  detail: event,
});

async function attemptsOf(owner: TestEntity, endpointId: string) {
  return owner.sql((db) =>
    db.query<{ attempt_number: number; status_code: number | null }>(
      'SELECT attempt_number, status_code FROM webhook_delivery_attempts WHERE endpoint_id = $1 ORDER BY attempt_number',
      [endpointId],
    ),
  );
}

describe('the in-process dispatcher', () => {
  it('keeps a slow endpoint to its share of the slots: a fast endpoint gets a burst first, the slow one never exceeds its cap', async () => {
    const owner = await api.newEntity();
    // The slow endpoint answers nothing until it is let go: as slow as it gets, without a clock in the test.
    const slow = new Receiver(20, [200], true);
    const fast = new Receiver(0);
    const slowEndpoint = await endpointFor(owner, slow, ['location.created']);
    const fastEndpoint = await endpointFor(owner, fast, ['location.created']);
    // 4 slots, 2 per endpoint: without the cap the slow endpoint's backlog would take all four and
    // the fast endpoint would get nothing until the slow one answered. The timeout outlasts the test.
    const dispatcher = new WebhookDispatcher(api.bus, {
      concurrency: 4,
      endpointConcurrency: 2,
      pollMs: 50,
      config: { schedule: [0, 0.2], timeoutMs: 60_000 },
    });
    try {
      const count = 12;
      const locations: string[] = [];
      for (let index = 0; index < count; index++) locations.push((await api.post(owner, '/v1/locations', { name: `Burst ${index}` })).id);
      const eventIds = locations.map((id) => api.published.find((event) => event.type === 'location.created' && event.data.object.id === id)!.id);

      // Every fast delivery arrives while the slow endpoint holds its two slots and has answered none.
      await until('every fast delivery', () => (fast.received.length === count ? true : undefined));
      expect(fast.received.map((item) => item.id).sort()).toEqual([...eventIds].sort());
      expect(slow.received).toEqual([]);
      await until('the slow endpoint at its cap', () => (slow.inFlight === 2 ? true : undefined));
      expect(slow.maxInFlight).toBe(2);
      // An attempt is recorded after its receiver answered.
      const fastAttempts = await until('every fast attempt recorded', async () => {
        const found = await attemptsOf(owner, fastEndpoint.id);
        return found.length === count ? found : undefined;
      });
      expect(await attemptsOf(owner, slowEndpoint.id)).toEqual([]);
      expect(fastAttempts.every((attempt) => attempt.attempt_number === 1 && attempt.status_code === 200)).toBe(true);

      // Let go, the slow endpoint drains its backlog two at a time, each event once, none lost.
      slow.open();
      await until('every slow delivery', () => (slow.received.length === count ? true : undefined));
      expect(slow.received.map((item) => item.id).sort()).toEqual([...eventIds].sort());
      expect(slow.maxInFlight).toBe(2);
      await until('every slow attempt recorded', async () => ((await attemptsOf(owner, slowEndpoint.id)).length === count ? true : undefined));
      expect((await attemptsOf(owner, slowEndpoint.id)).every((attempt) => attempt.attempt_number === 1 && attempt.status_code === 200)).toBe(true);
      expect(fast.received).toHaveLength(count);
    } finally {
      slow.open();
      await dispatcher.stop();
    }
  });
});

describe('the dispatcher function', () => {
  it('sends an event from the bus to every subscribed endpoint at once, and once however often it arrives', async () => {
    const owner = await api.newEntity();
    const first = new Receiver();
    const second = new Receiver();
    const other = new Receiver();
    const endpoints = [await endpointFor(owner, first, ['location.created']), await endpointFor(owner, second, ['*'])];
    await endpointFor(owner, other, ['order.created']);
    const location = await api.post(owner, '/v1/locations', { name: 'Dispatched' });
    const event = api.published.find((item) => item.type === 'location.created' && item.data.object.id === location.id) as unknown as EventEnvelope;

    expect(await dispatchHandler(fromBus(event))).toEqual({ event: event.id, attempted: 2 });
    expect(first.received.map((item) => item.id)).toEqual([event.id]);
    expect(second.received.map((item) => item.id)).toEqual([event.id]);
    expect(other.received).toEqual([]);
    for (const endpoint of endpoints) expect(await attemptsOf(owner, endpoint.id)).toEqual([{ attempt_number: 1, status_code: 200 }]);

    // EventBridge and the outbox sweeper deliver at least once: a repeat sends nothing.
    expect(await dispatchHandler(fromBus(event))).toEqual({ event: event.id, attempted: 0 });
    expect(first.received).toHaveLength(1);

    // What is sent is the event as the outbox stored it: one it does not hold is sent nowhere.
    const unknown = { ...event, id: newId() };
    expect(await dispatchHandler(fromBus(unknown))).toEqual({ event: unknown.id, attempted: 0 });
    expect(second.received).toHaveLength(1);
  });

  it('refuses what is not a domain event', async () => {
    await expect(dispatchHandler({ detail: { hello: 'world' } } as unknown as EventBridgeEvent<string, EventEnvelope>)).rejects.toThrow(/not a domain event/);
  });
});

describe('the retry function', () => {
  const context = (remainingMs: number) => ({ getRemainingTimeInMillis: () => remainingMs }) as Pick<Context, 'getRemainingTimeInMillis'>;

  it('claims a failed delivery once it is due and sends it again; nothing due, nothing sent', async () => {
    const owner = await api.newEntity();
    const receiver = new Receiver(0, [500, 200]);
    const endpoint = await endpointFor(owner, receiver, ['location.created']);
    const location = await api.post(owner, '/v1/locations', { name: 'Retried' });
    const event = api.published.find((item) => item.type === 'location.created' && item.data.object.id === location.id) as unknown as EventEnvelope;
    await dispatchHandler(fromBus(event));
    expect(await attemptsOf(owner, endpoint.id)).toEqual([{ attempt_number: 1, status_code: 500 }]);

    // Due 0.2 s later (WEBHOOK_RETRY_SCHEDULE); 3 s timeout + 10 s margin leave 2 s of claiming.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const result = await retryHandler({} as ScheduledEvent, context(15_000));
    expect(result.attempted).toBeGreaterThanOrEqual(1);
    expect(await attemptsOf(owner, endpoint.id)).toEqual([
      { attempt_number: 1, status_code: 500 },
      { attempt_number: 2, status_code: 200 },
    ]);
    expect(receiver.received.map((item) => item.id)).toEqual([event.id, event.id]);

    // Succeeded: a later run finds nothing of this endpoint's.
    await retryHandler({} as ScheduledEvent, context(15_000));
    expect(receiver.received).toHaveLength(2);
  });

  it('claims nothing when too little time is left for an attempt to finish', async () => {
    const owner = await api.newEntity();
    const receiver = new Receiver(0, [500, 200]);
    await endpointFor(owner, receiver, ['location.created']);
    const location = await api.post(owner, '/v1/locations', { name: 'Too late' });
    const event = api.published.find((item) => item.type === 'location.created' && item.data.object.id === location.id) as unknown as EventEnvelope;
    await dispatchHandler(fromBus(event));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await retryHandler({} as ScheduledEvent, context(12_000))).toEqual({ attempted: 0 });
    expect(receiver.received).toHaveLength(1);
  });
});
