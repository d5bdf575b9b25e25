/**
 * What the handler stack costs on top of the SQL it runs.
 *
 *   (a) stack     GET /v1/locations/{id} through the Lambda handler, called directly with an API
 *                 Gateway REST proxy event (middy, validation, transaction with role switch,
 *                 data layer, JSON, ETag)
 *   (b) raw pg    the very statements (a) sends, replayed on one dedicated pg.Client: the floor
 *   (b') pg pool  the same, checking a client out of a pg.Pool per call, as the stack does
 *   (c) round trips per GET through the stack, and per authentication (authenticate())
 *   (d) the whole path over HTTP through the local gateway (keep-alive), authorizer cached and not
 *   (e) the handler stack with the pool handing out an in-memory client that returns the same row:
 *       the stack's own CPU cost per call, without any I/O
 *   (f) (e) again on its own, back to back (caches warm), and with 16 MB of other memory touched
 *       before each call (not timed), which evicts the per-core caches as the kernel, PostgreSQL
 *       and the load generator do between two requests under load: how much of (e) is the code
 *       itself and how much is fetching its code and data again
 *
 * All variants run in one process, interleaved round by round (the order rotates), after a
 * warm-up, against a fresh database `bizops_bench` that is dropped at the end.
 *
 *   npx tsx bench/framework-overhead.ts [--n=3000] [--warmup=500] [--http-n=1000] [--max-seconds=180] [--no-http] [--pin]
 *
 * --pin (Linux, two CPUs or more, permission to set other processes' affinity, `taskset`; else it says so and goes on unpinned):
 * before the timed rounds, this process goes to CPU 0 and the three PostgreSQL backends the
 * variants use to CPU 1. Unpinned, each backend lands where the scheduler puts it, the same for
 * the whole run, and whether it shares a core with this process moves a variant's round trip by
 * 10–20%: the ratio then varied 1.07–1.32 between runs on 2 vCPUs, against 1.10–1.12 pinned.
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres); only the
 * database name is replaced.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import pg from 'pg';
import {
  BENCH_DATABASE,
  assertLocal,
  createDatabase,
  databaseUrl,
  dropDatabase,
  hrtimeMs,
  printTable,
  round,
  summarize,
  writeResults,
  type Summary,
  option,
} from './lib';
import { getEvent, migrateBenchDatabase, seed } from './seed';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const N = Math.min(option('n', 3000), 100_000);
const WARMUP = Math.min(option('warmup', 500), 10_000);
const HTTP_N = process.argv.includes('--no-http') ? 0 : Math.min(option('http-n', 1000), 100_000);
const MAX_SECONDS = option('max-seconds', 180);
const TARGET_RATIO = 1.2;
const PIN = process.argv.includes('--pin');

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface Recorded {
  text: string;
  values?: unknown[];
}

/**
 * Counts what reaches PostgreSQL: every Client#query call (with its text) and every ReadyForQuery
 * the server sends back. One ReadyForQuery ends one request/response exchange, so it is the
 * protocol's round trip, whatever the statement count of a simple-protocol batch.
 */
class RoundTripCounter {
  active = false;
  queries: Recorded[] = [];
  readyForQuery = 0;
  private original: typeof pg.Client.prototype.query | undefined;

  install(): void {
    const record = (args: unknown[]) => {
      if (!this.active) return;
      const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
      if (typeof first === 'string') this.queries.push({ text: first, values: Array.isArray(second) ? second : undefined });
      else this.queries.push({ text: first.text, values: first.values });
    };
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the patched call's own `this` (apply below)
    const original = pg.Client.prototype.query;
    this.original = original;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      record(args);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
  }

  uninstall(): void {
    if (this.original) pg.Client.prototype.query = this.original;
    this.original = undefined;
  }

  /** Pools hand new clients here so their ReadyForQuery messages are counted. */
  watch(client: pg.Client): void {
    const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
    connection.on('readyForQuery', () => {
      if (this.active) this.readyForQuery++;
    });
  }

  async measure<T>(work: () => Promise<T>): Promise<{ result: T; queries: Recorded[]; readyForQuery: number }> {
    this.queries = [];
    this.readyForQuery = 0;
    this.active = true;
    try {
      const result = await work();
      return { result, queries: this.queries, readyForQuery: this.readyForQuery };
    } finally {
      this.active = false;
    }
  }
}

function lambdaContext(requestId: string): Context {
  return {
    functionName: 'locations-get',
    awsRequestId: requestId,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 29_000,
  } as unknown as Context;
}

function httpGet(agent: http.Agent, port: number, path: string, authorization: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent, headers: { Authorization: authorization } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error('HTTP request timed out')));
    request.on('error', reject);
    request.end();
  });
}

/** Runs the variants round-robin (rotating the order each round) with a warm-up, bounded by count and time. */
async function interleaved(
  variants: { name: string; run: () => Promise<void> }[],
  n: number,
  warmup: number,
  maxSeconds: number,
): Promise<{ samples: Record<string, number[]>; rounds: number; timedOut: boolean; seconds: number }> {
  const samples: Record<string, number[]> = Object.fromEntries(variants.map((variant) => [variant.name, []]));
  const started = process.hrtime.bigint();
  const deadlineMs = maxSeconds * 1000;
  let rounds = 0;
  let timedOut = false;
  for (let round = 0; round < warmup + n; round++) {
    if (hrtimeMs(started) > deadlineMs) {
      timedOut = true;
      break;
    }
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(round + k) % variants.length];
      const start = process.hrtime.bigint();
      await variant.run();
      const elapsed = hrtimeMs(start);
      if (round >= warmup) samples[variant.name].push(elapsed);
    }
    if (round >= warmup) rounds++;
  }
  return { samples, rounds, timedOut, seconds: hrtimeMs(started) / 1000 };
}

/** Bytes touched before each cold call: several times the per-core L2 cache (2–4 MB on the machines measured). */
const EVICT_BYTES = 16 * 1024 * 1024;

/** (f): `run` timed back to back, then each call after touching EVICT_BYTES of other memory, `n` calls each. */
async function cacheEffect(run: () => Promise<void>, n: number): Promise<{ warm: Summary; cold: Summary }> {
  const other = new Uint8Array(EVICT_BYTES);
  const evict = () => {
    for (let index = 0; index < other.length; index += 64) other[index]++;
  };
  const timedCall = async (before?: () => void) => {
    before?.();
    const start = process.hrtime.bigint();
    await run();
    return hrtimeMs(start);
  };
  const warm: number[] = [];
  const cold: number[] = [];
  for (let index = 0; index < n; index++) warm.push(await timedCall());
  for (let index = 0; index < n; index++) cold.push(await timedCall(evict));
  return { warm: summarize(warm), cold: summarize(cold) };
}

const row = (name: string, s: Summary, extra: (string | number)[] = []): (string | number)[] => [name, s.n, s.p50, s.p95, s.p99, s.mean, ...extra];

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  console.log(`framework overhead: N=${N} per variant (warm-up ${WARMUP}), HTTP N=${HTTP_N}, at most ${MAX_SECONDS}s per phase`);
  const url = await createDatabase(adminUrl);
  console.log(`database ${BENCH_DATABASE} created`);

  const closers: (() => Promise<unknown>)[] = [];
  try {
    // Application code, loaded only now that NODE_ENV is production.
    const { configureDatabase, closeDatabase } = await import('../shared/db/database');
    const { authenticate } = await import('../shared/auth/authenticate');
    const { configurePublisher, InProcessEventBus } = await import('../shared/events/publisher');
    const getLocationModule = await import('../functions/locations/get-location');
    const handler: Handler = getLocationModule.handler;

    await migrateBenchDatabase(url);
    const counter = new RoundTripCounter();
    const poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10);
    // (e) needs the stack without I/O: while `canned` is set, the pool hands out a client that
    // answers from memory with the row the real SELECT returns.
    let canned: Record<string, unknown> | undefined;
    const cannedClient = {
      query: (text: string) => Promise.resolve(text.startsWith('SELECT id') ? { rows: [canned], rowCount: 1 } : { rows: [], rowCount: 0 }),
      release: () => undefined,
      // withTransaction listens for a dropped connection during the checkout.
      on: () => undefined,
      off: () => undefined,
    };
    let stackPool: pg.Pool | undefined;
    configureDatabase(() => {
      const pool = new pg.Pool({ connectionString: url, max: poolMax });
      stackPool = pool;
      pool.on('connect', (client) => counter.watch(client));
      const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
      (pool as unknown as { connect: () => Promise<unknown> }).connect = () => (canned ? Promise.resolve(cannedClient) : connect());
      return pool;
    });
    closers.push(closeDatabase);
    configurePublisher(new InProcessEventBus());

    const seeded = await seed('settings:read');
    const { authorizer, locationId } = seeded;
    let sequence = 0;
    const invoke = async () => {
      const requestId = `bench-${++sequence}`;
      const event = getEvent({
        resource: '/v1/locations/{id}',
        path: `/v1/locations/${locationId}`,
        pathParameters: { id: locationId },
        authorizer,
        requestId,
      });
      return handler(event as unknown as APIGatewayProxyEvent, lambdaContext(requestId));
    };

    // Sanity: the stack answers 200 with the location.
    const first = await invoke();
    if (first.statusCode !== 200 || (JSON.parse(first.body) as { id: string }).id !== locationId) {
      throw new Error(`GET through the stack failed: ${first.statusCode} ${first.body}`);
    }

    // (c) Round trips, on a warm pool.
    counter.install();
    const stackTrips = await counter.measure(invoke);
    const authTrips = await counter.measure(() => authenticate(`Bearer ${seeded.secret}`, ['live', 'test']));
    counter.uninstall();
    if (!authTrips.result.ok) throw new Error(`authenticate failed: ${authTrips.result.code}`);
    const statements = stackTrips.queries;

    printTable(
      '(c) database round trips (warm pool)',
      ['operation', 'Client#query calls', 'ReadyForQuery (round trips)', 'expected'],
      [
        ['GET /v1/locations/{id} through the stack', statements.length, stackTrips.readyForQuery, 3],
        ['authenticate() (authorizer)', authTrips.queries.length, authTrips.readyForQuery, 3],
      ],
    );
    console.log('statements of one GET:');
    for (const [index, statement] of statements.entries()) {
      console.log(`  ${index + 1}. ${statement.text.replace(/\s+/g, ' ').slice(0, 140)}${statement.values ? `  [${statement.values.length} params]` : ''}`);
    }

    // (b) The same statements, replayed: first on one dedicated client, then through a pool checkout.
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    closers.push(() => raw.end());
    const rawPool = new pg.Pool({ connectionString: url, max: 1 });
    closers.push(() => rawPool.end());
    const replay = async (client: pg.ClientBase) => {
      let rows = 0;
      for (const statement of statements) rows += (await client.query(statement.text, statement.values)).rowCount ?? 0;
      return rows;
    };
    if ((await replay(raw)) < 1) throw new Error('the replayed SELECT found no row');
    const cannedRow = (await raw.query(statements[1].text, statements[1].values)).rows[0] as Record<string, unknown>;
    const rawRun = async () => {
      await replay(raw);
    };
    const poolRun = async () => {
      const client = await rawPool.connect();
      try {
        await replay(client);
      } finally {
        client.release();
      }
    };
    const stackRun = async () => {
      const result = await invoke();
      if (result.statusCode !== 200) throw new Error(`stack answered ${result.statusCode}: ${result.body}`);
    };

    const cpuRun = async () => {
      canned = cannedRow;
      try {
        await stackRun();
      } finally {
        canned = undefined;
      }
    };
    await cpuRun();

    let pinned = false;
    if (PIN) {
      // Every variant's backend on one core and this process on the other, the same for all of them.
      const stackClient = (await stackPool!.connect()) as pg.PoolClient & { processID: number };
      stackClient.release();
      const poolClient = (await rawPool.connect()) as pg.PoolClient & { processID: number };
      poolClient.release();
      const backends = [(raw as unknown as { processID: number }).processID, poolClient.processID, stackClient.processID];
      try {
        execFileSync('taskset', ['-pc', '0', String(process.pid)], { stdio: 'pipe' });
        for (const pid of backends) execFileSync('taskset', ['-pc', '1', String(pid)], { stdio: 'pipe' });
        pinned = true;
        console.log(`pinned: this process to CPU 0, backends ${backends.join(', ')} to CPU 1`);
      } catch (error) {
        // Another machine (no taskset, one CPU, a server run by another user): the figures are then unpinned ones.
        console.log(`NOT pinned (${(error as Error).message.split('\n')[0]}): the ratio varies with where the scheduler puts each backend`);
      }
    }

    const direct = await interleaved(
      [
        { name: 'stack', run: stackRun },
        { name: 'raw', run: rawRun },
        { name: 'pool', run: poolRun },
        { name: 'cpu', run: cpuRun },
      ],
      N,
      WARMUP,
      MAX_SECONDS,
    );
    const stack = summarize(direct.samples.stack);
    const rawStats = summarize(direct.samples.raw);
    const poolStats = summarize(direct.samples.pool);
    const cpuStats = summarize(direct.samples.cpu);
    const caches = await cacheEffect(cpuRun, Math.min(N, 3000));
    const ratio = { p50: stack.p50 / rawStats.p50, mean: stack.mean / rawStats.mean, p95: stack.p95 / rawStats.p95 };
    const ratioPool = { p50: stack.p50 / poolStats.p50, mean: stack.mean / poolStats.mean, p95: stack.p95 / poolStats.p95 };
    printTable(
      `(a)/(b) GET /v1/locations/{id}: handler stack vs the same SQL on pg (ms per call, ${direct.rounds} interleaved rounds in ${round(direct.seconds, 1)}s${direct.timedOut ? ', STOPPED AT TIME LIMIT' : ''})`,
      ['variant', 'n', 'p50', 'p95', 'p99', 'mean', 'p50 ratio', 'mean ratio'],
      [
        row('(a) Lambda handler stack', stack, [ratio.p50, ratio.mean]),
        row('(b) raw pg.Client, same 3 round trips', rawStats, [1, 1]),
        row("(b') pg.Pool checkout + same 3 round trips", poolStats, [poolStats.p50 / rawStats.p50, poolStats.mean / rawStats.mean]),
        row('(e) handler stack, canned rows (no I/O)', cpuStats, ['', '']),
        row('(f) (e) back to back: caches warm', caches.warm, ['', '']),
        row('(f) (e) after 16 MB touched: L1/L2 cold', caches.cold, ['', '']),
      ],
    );
    const verdict = ratio.p50 <= TARGET_RATIO ? 'PASS' : 'FAIL';
    console.log(
      `\nstack / raw pg: p50 ${round(ratio.p50, 2)}x, mean ${round(ratio.mean, 2)}x (target <= ${TARGET_RATIO}x on p50: ${verdict}); ` +
        `stack / pool: p50 ${round(ratioPool.p50, 2)}x; framework cost per call (p50): ${round((stack.p50 - rawStats.p50) * 1000, 0)} µs`,
    );

    // (d) The whole path over HTTP through the local gateway, for context.
    let httpResults: Record<string, unknown> | undefined;
    if (HTTP_N > 0) {
      const { createGatewayServer } = await import('../local/gateway');
      const { ROUTE_MODULES } = await import('../functions/routes');
      const routes = Object.values(ROUTE_MODULES);
      const rateLimit = { ratePerSecond: 1_000_000, burst: 1_000_000 };
      const listen = async (cacheMs: number) => {
        const server = createGatewayServer({ routes, authorizerCacheTtlMs: cacheMs, rateLimit });
        server.keepAliveTimeout = 60_000;
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        closers.push(() => new Promise((resolve) => server.close(resolve)));
        return (server.address() as AddressInfo).port;
      };
      const cachedPort = await listen(300_000);
      const uncachedPort = await listen(0);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      closers.push(() => {
        agent.destroy();
        return Promise.resolve();
      });
      const authorization = `Bearer ${seeded.secret}`;
      const path = `/v1/locations/${locationId}`;
      const get = (port: number) => async () => {
        const response = await httpGet(agent, port, path, authorization);
        if (response.status !== 200) throw new Error(`gateway answered ${response.status}: ${response.body}`);
      };
      counter.install();
      const cachedTrips = await counter.measure(async () => {
        await get(cachedPort)(); // fills the cache
        counter.queries = [];
        counter.readyForQuery = 0;
        await get(cachedPort)();
      });
      const uncachedTrips = await counter.measure(get(uncachedPort));
      counter.uninstall();
      const viaHttp = await interleaved(
        [
          { name: 'cached', run: get(cachedPort) },
          { name: 'uncached', run: get(uncachedPort) },
        ],
        HTTP_N,
        Math.min(WARMUP, 200),
        MAX_SECONDS,
      );
      const cached = summarize(viaHttp.samples.cached);
      const uncached = summarize(viaHttp.samples.uncached);
      printTable(
        `(d) GET /v1/locations/{id} over HTTP through the local gateway, keep-alive (ms per request, ${viaHttp.rounds} rounds${viaHttp.timedOut ? ', STOPPED AT TIME LIMIT' : ''})`,
        ['variant', 'n', 'p50', 'p95', 'p99', 'mean', 'round trips'],
        [
          row('authorizer result cached (as API Gateway, TTL 300 s)', cached, [cachedTrips.readyForQuery]),
          row('authorizer on every request', uncached, [uncachedTrips.readyForQuery]),
        ],
      );
      httpResults = {
        n: viaHttp.rounds,
        timedOut: viaHttp.timedOut,
        authorizerCached: { ...cached, roundTrips: cachedTrips.readyForQuery },
        authorizerEveryRequest: { ...uncached, roundTrips: uncachedTrips.readyForQuery },
      };
    }

    const file = writeResults('framework-overhead', {
      unit: 'ms',
      settings: { n: N, warmup: WARMUP, httpN: HTTP_N, maxSeconds: MAX_SECONDS, nodeEnv: process.env.NODE_ENV, poolMax, pinned },
      target: { ratioP50Max: TARGET_RATIO, verdict },
      roundTrips: {
        get: { clientQueries: statements.length, readyForQuery: stackTrips.readyForQuery, statements: statements.map((s) => s.text.replace(/\s+/g, ' ')) },
        authenticate: { clientQueries: authTrips.queries.length, readyForQuery: authTrips.readyForQuery },
      },
      direct: {
        rounds: direct.rounds,
        timedOut: direct.timedOut,
        stack,
        rawClient: rawStats,
        poolClient: poolStats,
        stackWithoutIo: cpuStats,
        stackWithoutIoWarmCaches: caches.warm,
        stackWithoutIoColdCaches: caches.cold,
        ratio,
        ratioToPool: ratioPool,
        overheadMicrosP50: (stack.p50 - rawStats.p50) * 1000,
      },
      http: httpResults,
    });
    console.log(`\nresults: ${file}`);
  } finally {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (error) {
        console.warn(`cleanup: ${String(error)}`);
      }
    }
    await dropDatabase(adminUrl);
    console.log(`database ${BENCH_DATABASE} dropped`);
  }
}

const watchdog = setTimeout(
  () => {
    console.error('framework-overhead: overall time limit reached');
    process.exit(2);
  },
  (MAX_SECONDS * 3 + 120) * 1000,
);
watchdog.unref();

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
