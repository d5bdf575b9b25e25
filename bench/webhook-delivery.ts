/**
 * Webhook delivery under load: `--events` events (10,000) committed at `--rate` events per second
 * (in transactions of `--batch` events, published after commit as requests do), delivered by the
 * in-process dispatcher (the one `npm start` runs) to three local receivers subscribed to every
 * type: two answer at once, one after `--slow-ms` (500 ms).
 *
 * It reports the delivery rate, the lag from commit to arrival at the fast receivers (p50, p99;
 * target p99 under 1 s), and, as proof that the slow receiver holds no one else back, when each
 * receiver had every event and the slow receiver's own lag beside the fast ones'.
 *
 *   npx tsx bench/webhook-delivery.ts [--events=10000] [--rate=250] [--batch=10] [--slow-ms=500]
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres); the
 * database bizops_bench_webhooks is created from the migrations and dropped at the end.
 * WEBHOOK_CONCURRENCY and WEBHOOK_ENDPOINT_CONCURRENCY tune the dispatcher (defaults 200 and 50).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { assertLocal, countOption, createDatabase, databaseUrl, dropDatabase, printTable, round, summarize, writeResults } from './lib';
import { migrateBenchDatabase, seed } from './seed';

process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
process.env.WEBHOOK_URL_ALLOWLIST = 'localhost';

const DATABASE = 'bizops_bench_webhooks';
const EVENTS = Math.min(countOption('events', 10_000), 100_000);
const RATE = countOption('rate', 250);
const BATCH = Math.min(countOption('batch', 10), 100);
const SLOW_MS = countOption('slow-ms', 500);
/** Transactions committing at once at most (concurrent requests). */
const PRODUCERS = 8;
/** Give up waiting for the slow receiver after this long past the last commit. */
const DRAIN_TIMEOUT_MS = 15 * 60 * 1000;

const now = () => performance.timeOrigin + performance.now();

/** A receiver recording when each event id (the webhook-id header) first arrived. */
function receiver(name: string, delayMs: number) {
  const arrivals = new Map<string, number>();
  let last = 0;
  const server = http.createServer((request, response) => {
    const id = String(request.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, now());
    last = now();
    request.resume();
    request.on('end', () => {
      if (delayMs > 0) setTimeout(() => response.writeHead(200).end(), delayMs);
      else response.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  return {
    name,
    arrivals,
    lastArrival: () => last,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://localhost:${(server.address() as AddressInfo).port}/hooks`;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  const url = await createDatabase(adminUrl, DATABASE);
  const closers: (() => Promise<unknown>)[] = [() => dropDatabase(adminUrl, DATABASE)];
  try {
    const { configureDatabase, closeDatabase, createPool, withTransaction } = await import('../shared/db/database');
    const { configurePublisher, InProcessEventBus, publishCommitted } = await import('../shared/events/publisher');
    const { createEventRecorder } = await import('../shared/events/outbox');
    const { insertWebhookEndpoint } = await import('../shared/webhooks/endpoint-store');
    const { WebhookDispatcher } = await import('../shared/webhooks/dispatcher');
    const { newId } = await import('../shared/ids');
    await migrateBenchDatabase(url);
    configureDatabase(() => createPool({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX ?? 10) }));
    closers.unshift(closeDatabase);
    const bus = new InProcessEventBus();
    configurePublisher(bus);

    const receivers = [receiver('fast-1', 0), receiver('fast-2', 0), receiver('slow', SLOW_MS)];
    closers.unshift(() => Promise.all(receivers.map((item) => item.close())));
    const { entityId } = await seed();
    for (const item of receivers) {
      const url = await item.listen();
      await withTransaction({ role: 'app_user', entityId }, (db) => insertWebhookEndpoint(db, entityId, { url, enabledEvents: ['*'] }));
    }
    const dispatcher = new WebhookDispatcher(bus);
    closers.unshift(() => dispatcher.stop());

    // Produce: a transaction of BATCH events every BATCH / RATE seconds, published after commit,
    // several at once when one takes longer than its interval (as concurrent requests would).
    const committedAt = new Map<string, number>();
    const started = now();
    const producing = new Set<Promise<void>>();
    const commitBatch = async (first: number, count: number) => {
      const recorded = await withTransaction({ role: 'app_user', entityId }, async (db) => {
        const recorder = createEventRecorder(db, { entityId, mode: 'test', requestId: null });
        for (let index = 0; index < count; index++) {
          await recorder.record('location.created', { id: newId(), object: 'location', name: `Bench ${first + index}` });
        }
        return recorder.recorded;
      });
      const commit = now();
      for (const event of recorded) committedAt.set(event.id, commit);
      // As a request does after its commit: the bus hands the events to the dispatcher, which never blocks it.
      await publishCommitted(entityId, recorded);
    };
    for (let produced = 0; produced < EVENTS;) {
      const wait = started + (produced / RATE) * 1000 - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (producing.size >= PRODUCERS) await Promise.race(producing);
      const count = Math.min(BATCH, EVENTS - produced);
      const batch = commitBatch(produced, count).finally(() => producing.delete(batch));
      producing.add(batch);
      produced += count;
    }
    await Promise.all(producing);
    const producedIn = (now() - started) / 1000;

    const deadline = now() + DRAIN_TIMEOUT_MS;
    const [fast1, fast2, slow] = receivers;
    const complete = (item: (typeof receivers)[number]) => item.arrivals.size >= EVENTS;
    const completedAt = new Map<string, number>();
    // How far the slow receiver had got when the fast ones had every event: the proof that its
    // backlog held no one else back is that they finished while it still had most of it to go.
    let slowWhenFastDone: number | undefined;
    const observe = () => {
      for (const item of receivers) if (complete(item) && !completedAt.has(item.name)) completedAt.set(item.name, item.lastArrival());
      if (slowWhenFastDone === undefined && complete(fast1) && complete(fast2)) slowWhenFastDone = slow.arrivals.size;
    };
    while (!receivers.every(complete) && now() < deadline) {
      observe();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    observe();

    const lagsOf = (item: (typeof receivers)[number]) => [...item.arrivals].map(([id, at]) => at - committedAt.get(id)!);
    const fastLags = summarize([...lagsOf(fast1), ...lagsOf(fast2)]);
    const slowLags = summarize(lagsOf(slow));
    const seconds = (name: string) => (completedAt.has(name) ? (completedAt.get(name)! - started) / 1000 : Number.NaN);
    const fastDone = Math.max(seconds('fast-1'), seconds('fast-2'));
    const slowDone = seconds('slow');
    const deliveredPerSecond = (2 * EVENTS) / fastDone;

    printTable(
      `webhook delivery: ${EVENTS} events at ${RATE}/s in transactions of ${BATCH}, 3 receivers (one answering after ${SLOW_MS} ms)`,
      ['receiver', 'received', 'all received after (s)', 'lag p50 (ms)', 'lag p99 (ms)', 'lag max (ms)'],
      [
        ...[fast1, fast2].map((item) => {
          const lags = summarize(lagsOf(item));
          return [item.name, item.arrivals.size, round(seconds(item.name), 2), round(lags.p50, 1), round(lags.p99, 1), round(lags.max, 1)];
        }),
        [slow.name, slow.arrivals.size, round(slowDone, 2), round(slowLags.p50, 1), round(slowLags.p99, 1), round(slowLags.max, 1)],
      ],
    );
    const verdict = fastLags.p99 < 1000 ? 'PASS' : 'FAIL';
    console.log(`\nproduced ${EVENTS} events in ${round(producedIn, 2)} s (${round(EVENTS / producedIn, 1)}/s)`);
    console.log(`fast receivers: ${round(EVENTS / fastDone, 1)} events/s each (${round(deliveredPerSecond, 1)} deliveries/s together)`);
    console.log(`fast lag commit → arrival: p50 ${round(fastLags.p50, 1)} ms, p99 ${round(fastLags.p99, 1)} ms (target p99 < 1000 ms: ${verdict})`);
    console.log(
      `slow receiver: every event after ${round(slowDone, 2)} s (fast ones after ${round(fastDone, 2)} s, when it had ${slowWhenFastDone ?? '?'} of ${EVENTS}); its lag p99 ${round(slowLags.p99, 1)} ms, the fast ones' ${round(fastLags.p99, 1)} ms`,
    );
    const file = writeResults('webhook-delivery', {
      events: EVENTS,
      rate: RATE,
      batch: BATCH,
      slowMs: SLOW_MS,
      concurrency: process.env.WEBHOOK_CONCURRENCY ?? 'default',
      endpointConcurrency: process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? 'default',
      producedPerSecond: EVENTS / producedIn,
      fastEventsPerSecond: EVENTS / fastDone,
      fastLagMs: fastLags,
      slowLagMs: slowLags,
      completedSeconds: { fast1: seconds('fast-1'), fast2: seconds('fast-2'), slow: slowDone },
      producedSeconds: producedIn,
      slowReceivedWhenFastDone: slowWhenFastDone ?? null,
      received: Object.fromEntries(receivers.map((item) => [item.name, item.arrivals.size])),
      verdict,
    });
    console.log(`results: ${file}`);
    if (!receivers.every(complete)) {
      console.error('not every receiver got every event');
      process.exitCode = 1;
    }
  } finally {
    for (const close of closers) await close().catch((error: unknown) => console.error(error));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
