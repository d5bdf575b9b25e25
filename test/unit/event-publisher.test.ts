/**
 * The EventBridge publisher (shared/events/publisher.ts) sends PutEvents through the SDK's client,
 * here to a local stand-in named by AWS_ENDPOINT_URL_EVENTBRIDGE: what it sends, in batches of
 * ten, and that a rejected entry fails the publish (the outbox row then stays for the sweeper).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../shared/events/outbox';
import { EVENT_SOURCE, EventBridgePublisher } from '../../shared/events/publisher';

interface Received {
  headers: IncomingMessage['headers'];
  body: { Entries: Record<string, unknown>[] };
}

describe('EventBridgePublisher', () => {
  let server: Server;
  let previousEndpoint: string | undefined;
  const received: Received[] = [];
  /** How many entries of each call the stand-in rejects (from the end of the batch). */
  let rejectLast = 0;

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Received['body'];
        received.push({ headers: request.headers, body });
        const entries = body.Entries.map((_, index) =>
          index >= body.Entries.length - rejectLast ? { ErrorCode: 'InternalFailure', ErrorMessage: 'try again' } : { EventId: `event-${index}` },
        );
        response
          .writeHead(200, { 'content-type': 'application/x-amz-json-1.1' })
          .end(JSON.stringify({ FailedEntryCount: Math.min(rejectLast, body.Entries.length), Entries: entries }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    previousEndpoint = process.env.AWS_ENDPOINT_URL_EVENTBRIDGE;
    process.env.AWS_ENDPOINT_URL_EVENTBRIDGE = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (previousEndpoint === undefined) delete process.env.AWS_ENDPOINT_URL_EVENTBRIDGE;
    else process.env.AWS_ENDPOINT_URL_EVENTBRIDGE = previousEndpoint;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    received.length = 0;
    rejectLast = 0;
  });

  const envelope = (n: number): EventEnvelope => ({
    id: `0198c2a0-0000-7000-8000-${String(n).padStart(12, '0')}`,
    object: 'event',
    type: 'location.created',
    api_version: '2026-01-01',
    payload_version: 1,
    created_at: '2026-11-29T23:40:01.250Z',
    entity_id: '0198c2a0-0000-7000-8000-00000000000e',
    livemode: false,
    data: { object: { id: `loc_${n}`, object: 'location', name: 'Dock ünïcødé' } },
    request: { id: `req_${n}`, idempotency_key: null },
  });

  it('sends PutEvents, one entry per event on the bus', async () => {
    const event = envelope(1);
    await new EventBridgePublisher('bizops-sandbox').publish([event]);
    expect(received).toHaveLength(1);
    expect(received[0].headers).toMatchObject({ 'x-amz-target': 'AWSEvents.PutEvents', 'content-type': 'application/x-amz-json-1.1' });
    expect(received[0].body.Entries).toEqual([
      {
        EventBusName: 'bizops-sandbox',
        Source: EVENT_SOURCE,
        DetailType: 'location.created',
        Detail: JSON.stringify(event),
        // The event's own time (the JSON protocol carries epoch seconds).
        Time: 1795995601.25,
      },
    ]);
  });

  it('sends at most ten events a call', async () => {
    const events = Array.from({ length: 23 }, (_, n) => envelope(n));
    await new EventBridgePublisher('bus').publish(events);
    expect(received.map((call) => call.body.Entries.length)).toEqual([10, 10, 3]);
    const sent = received.flatMap((call) => call.body.Entries.map((entry) => (JSON.parse(entry.Detail as string) as EventEnvelope).id));
    expect(sent).toEqual(events.map((event) => event.id));
  });

  it('fails when EventBridge rejects an entry, naming why', async () => {
    rejectLast = 1;
    await expect(new EventBridgePublisher('bus').publish([envelope(1), envelope(2)])).rejects.toThrow('EventBridge rejected 1 of 2 events (InternalFailure)');
  });
});
