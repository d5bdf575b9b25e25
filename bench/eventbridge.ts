/**
 * A local stand-in for EventBridge's PutEvents, so that a benchmarked write publishes its events
 * after its commit as it does on AWS (EVENT_BUS_NAME set): the publisher's code, its signed call
 * and the outbox update all run; only the network is local. It accepts every entry and counts them.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EventBridgeStandIn {
  endpoint: string;
  /** Entries received so far. */
  entries: () => number;
  close: () => Promise<void>;
}

export async function startEventBridgeStandIn(): Promise<EventBridgeStandIn> {
  let received = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { Entries = [] } = JSON.parse(Buffer.concat(chunks).toString()) as { Entries?: unknown[] };
      received += Entries.length;
      response
        .writeHead(200, { 'content-type': 'application/x-amz-json-1.1' })
        .end(JSON.stringify({ FailedEntryCount: 0, Entries: Entries.map((_, index) => ({ EventId: `bench-${received}-${index}` })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    entries: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
