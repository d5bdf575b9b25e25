/**
 * The local API over HTTP against a bare `node:http` + `pg` server running the very same SQL.
 *
 *   API    `npm start` (local/server.ts) on PostgreSQL (DATABASE_URL = the bench database), as is:
 *          local gateway, authorizer (results cached, as API Gateway does), rate limiter, the
 *          route's Lambda handler. Its own process.
 *   bare   bench/bare-server.ts: node:http + pg.Pool, the statements the API sends for one
 *          GET /v1/locations/{id} (captured from the API in this run): key lookup (cached for the
 *          same TTL), BEGIN + set_config(role, entity), the SELECT, COMMIT, JSON. Its own process.
 *
 * Both are driven by autocannon from this process, interleaved (the order alternates each round),
 * at 2 and 10 connections, each request with the next of `--keys` API keys so the gateway's per-key
 * rate limit (50/s, burst 100) is never what is measured. Prints req/s, p50 and p99 per run and the
 * ratios API / bare per round, with their median and spread.
 *
 * `--embedded` (on by default, `--no-embedded` skips it): `npm start` on the embedded database
 * (PGlite), alone: the figure someone trying the API locally gets.
 *
 *   npx tsx bench/http-throughput.ts [--rounds=3] [--duration=5] [--keys=200] [--no-embedded] [--uncached] [--profile]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { BareStatements, CapturedStatement } from './bare-server';
import {
  BENCH_DATABASE,
  REPO_DIR,
  RESULTS_DIR,
  assertLocal,
  countOption,
  createDatabase,
  databaseUrl,
  dropDatabase,
  median,
  printTable,
  round,
  summarize,
  writeResults,
} from './lib';
import { getEvent, migrateBenchDatabase, seed } from './seed';

process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const ROUNDS = Math.min(countOption('rounds', 3), 20);
const DURATION = Math.min(countOption('duration', 5), 60);
const KEYS = Math.min(countOption('keys', 200), 2000);
const CONNECTIONS = [2, 10];
const EMBEDDED = !process.argv.includes('--no-embedded');
/** Authorizer cache TTL on both sides; --uncached: a key lookup on every request on both sides. */
const CACHE_TTL_SECONDS = process.argv.includes('--uncached') ? 0 : 60;
const BUILD_DIR = join(RESULTS_DIR, 'build');
/** --profile: the API and bare processes write CPU profiles (node --cpu-prof) to bench/results/profiles/<name>/ when they stop. */
const PROFILE = process.argv.includes('--profile');
const profileArgs = (name: string) => (PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS_DIR, 'profiles', name)}`] : []);

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface Run {
  target: string;
  connections: number;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU time (user + system) the server process spent per request during the run, in µs; undefined off Linux. */
  cpuUsPerRequest?: number;
}

/** User + system CPU time of a process so far, in ms, from /proc (Linux; 10 ms resolution); undefined elsewhere. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `node --import tsx <script>` and resolves once it prints `ready`. */
function startProcess(script: string, env: NodeJS.ProcessEnv, ready: RegExp, nodeArgs: string[] = []): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { cwd: REPO_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.removeAllListeners('exit');
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function load(
  target: string,
  port: number,
  path: string,
  keys: string[],
  connections: number,
  duration: number,
  roundNo: number,
  pid?: number,
): Promise<Run> {
  let next = 0;
  const cpuBefore = processCpuMs(pid);
  // autocannon's own histogram keeps whole milliseconds; the response events carry fractional ones.
  const latencies: number[] = [];
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${keys[next++ % keys.length]}` } }),
      },
    ],
  });
  void instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const cpuAfter = processCpuMs(pid);
  const latency = summarize(latencies);
  return {
    target,
    connections,
    round: roundNo,
    rps: result.requests.total / result.duration,
    p50: latency.p50,
    p99: latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuUsPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
  };
}

const spread = (values: number[]) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values), values });
const range = (s: { median: number; min: number; max: number }, digits = 2) => `${round(s.median, digits)} (${round(s.min, digits)}–${round(s.max, digits)})`;

async function capture(url: string): Promise<{ statements: BareStatements; keys: string[]; locationId: string }> {
  const { configureDatabase, closeDatabase } = await import('../shared/db/database');
  const { configurePublisher, InProcessEventBus } = await import('../shared/events/publisher');
  const { authenticate } = await import('../shared/auth/authenticate');
  const { hashApiKey } = await import('../shared/auth/api-key-format');
  const { getEntity, inEntity, insertApiKey } = await import('../shared/tenants/identity-store');
  const { ALL_SCOPES } = await import('../shared/auth/scopes');
  const handler: Handler = (await import('../functions/locations/get-location')).handler;
  configureDatabase(() => new pg.Pool({ connectionString: url, max: 2 }));
  configurePublisher(new InProcessEventBus());
  try {
    await migrateBenchDatabase(url);
    const seeded = await seed('settings:read');
    const keys = [seeded.secret];
    await inEntity(seeded.entityId, async (db) => {
      const entity = await getEntity(db, seeded.entityId);
      for (let i = 1; i < KEYS; i++)
        keys.push((await insertApiKey(db, entity, { userId: seeded.userId, mode: 'test', scopes: ALL_SCOPES, name: `bench ${i}` })).secret);
    });

    // The statements the API sends, recorded at the pg.Client level.
    let recorded: CapturedStatement[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the patched call's own `this`
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
      recorded.push(
        typeof first === 'string' ? { text: first, values: Array.isArray(second) ? second : undefined } : { text: first.text, values: first.values },
      );
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    const auth = await authenticate(`Bearer ${seeded.secret}`, ['live', 'test']);
    const authenticateStatements = recorded;
    recorded = [];
    const { locationId } = seeded;
    const event = getEvent({
      resource: '/v1/locations/{id}',
      path: `/v1/locations/${locationId}`,
      pathParameters: { id: locationId },
      authorizer: seeded.authorizer,
      requestId: 'capture',
    });
    const response = await handler(
      event as unknown as APIGatewayProxyEvent,
      { awsRequestId: 'capture', getRemainingTimeInMillis: () => 29_000 } as unknown as Context,
    );
    const getStatements = recorded;
    pg.Client.prototype.query = original;
    if (!auth.ok || response.statusCode !== 200) throw new Error(`capture failed: ${JSON.stringify(auth)} ${response.statusCode} ${response.body}`);
    return {
      statements: {
        authenticate: authenticateStatements,
        get: getStatements,
        keyHash: hashApiKey(seeded.secret),
        entityId: seeded.entityId,
        locationId,
      },
      keys,
      locationId,
    };
  } finally {
    await closeDatabase();
  }
}

async function getJson(port: number, path: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function onPostgres(adminUrl: string): Promise<Record<string, unknown>> {
  const url = await createDatabase(adminUrl);
  const children: ChildProcess[] = [];
  const dataDir = join(BUILD_DIR, 'http-throughput-data');
  try {
    const { statements, keys, locationId } = await capture(url);
    console.log(
      `captured: key lookup ${statements.authenticate.length} statements, GET ${statements.get.length}; ${keys.length} keys; authorizer cache TTL ${CACHE_TTL_SECONDS} s`,
    );
    mkdirSync(BUILD_DIR, { recursive: true });
    const statementsFile = join(BUILD_DIR, 'bare-statements.json');
    writeFileSync(statementsFile, JSON.stringify(statements));
    rmSync(dataDir, { recursive: true, force: true });

    const env = { ...process.env };
    delete env.NODE_ENV;
    delete env.VALIDATE_RESPONSES;
    const [apiPort, barePort] = [await freePort(), await freePort()];
    const api = await startProcess(
      'local/server.ts',
      { ...env, DATABASE_URL: url, PORT: String(apiPort), DATA_DIR: dataDir, AUTHORIZER_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS) },
      /listening on/,
      profileArgs('api'),
    );
    children.push(api.child);
    const bare = await startProcess(
      'bench/bare-server.ts',
      { ...env, DATABASE_URL: url, PORT: String(barePort), BARE_STATEMENTS: statementsFile, AUTH_CACHE_TTL_MS: String(CACHE_TTL_SECONDS * 1000) },
      /listening on/,
      profileArgs('bare'),
    );
    children.push(bare.child);

    const path = `/v1/locations/${locationId}`;
    const [fromApi, fromBare] = [await getJson(apiPort, path, keys[1]), await getJson(barePort, path, keys[1])];
    if (fromApi.status !== 200 || fromBare.status !== 200 || fromApi.body.id !== locationId || fromBare.body.id !== locationId) {
      throw new Error(`sanity check failed: API ${fromApi.status} ${JSON.stringify(fromApi.body)}; bare ${fromBare.status} ${JSON.stringify(fromBare.body)}`);
    }

    const targets = [
      { name: 'API', port: apiPort, pid: api.child.pid },
      { name: 'bare', port: barePort, pid: bare.child.pid },
    ];
    // Warm-up (not recorded): JIT, pools, every key through the authorizer once.
    for (const target of targets) await load(target.name, target.port, path, keys, 10, Math.min(3, DURATION), 0);

    const runs: Run[] = [];
    for (let roundNo = 1; roundNo <= ROUNDS; roundNo++) {
      for (const connections of CONNECTIONS) {
        const order = roundNo % 2 === 1 ? targets : [...targets].reverse();
        for (const target of order) {
          const run = await load(target.name, target.port, path, keys, connections, DURATION, roundNo, target.pid);
          runs.push(run);
          console.log(
            `  round ${roundNo} ${connections} conn ${target.name.padEnd(4)} ${round(run.rps, 0)} req/s p50 ${round(run.p50, 2)} ms p99 ${round(run.p99, 2)} ms` +
              `${run.cpuUsPerRequest === undefined ? '' : `, server CPU ${round(run.cpuUsPerRequest, 0)} µs/request`}` +
              `${run.non2xx || run.errors ? ` (non-2xx ${run.non2xx}, errors ${run.errors})` : ''}`,
          );
        }
      }
    }
    const failed = runs.filter((run) => run.non2xx > 0 || run.errors > 0);
    if (failed.length) throw new Error(`${failed.length} runs had non-2xx answers or errors: ${JSON.stringify(failed)}`);

    const byConnections = CONNECTIONS.map((connections) => {
      const of = (target: string) => runs.filter((run) => run.connections === connections && run.target === target);
      const apiRuns = of('API');
      const bareRuns = of('bare');
      const ratios = apiRuns.map((run, index) => ({
        rps: run.rps / bareRuns[index].rps,
        p50: run.p50 / bareRuns[index].p50,
        p99: run.p99 / bareRuns[index].p99,
      }));
      return {
        connections,
        api: { rps: spread(apiRuns.map((r) => r.rps)), p50: spread(apiRuns.map((r) => r.p50)), p99: spread(apiRuns.map((r) => r.p99)) },
        bare: { rps: spread(bareRuns.map((r) => r.rps)), p50: spread(bareRuns.map((r) => r.p50)), p99: spread(bareRuns.map((r) => r.p99)) },
        ratio: { rps: spread(ratios.map((r) => r.rps)), p50: spread(ratios.map((r) => r.p50)), p99: spread(ratios.map((r) => r.p99)) },
      };
    });
    printTable(
      `GET /v1/locations/{id}, API (npm start on PostgreSQL) vs bare node:http + pg, ${ROUNDS} interleaved rounds of ${DURATION} s: median (min–max)`,
      ['connections', 'API req/s', 'bare req/s', 'API p50 / p99 ms', 'bare p50 / p99 ms', 'throughput ratio', 'p99 ratio'],
      byConnections.map((c) => [
        c.connections,
        range(c.api.rps, 0),
        range(c.bare.rps, 0),
        `${round(c.api.p50.median, 2)} / ${round(c.api.p99.median, 2)}`,
        `${round(c.bare.p50.median, 2)} / ${round(c.bare.p99.median, 2)}`,
        `${range(c.ratio.rps)}x`,
        `${range(c.ratio.p99)}x`,
      ]),
    );
    const verdict = byConnections.every((c) => c.ratio.rps.median >= 0.8 && c.ratio.p99.median <= 1.5) ? 'PASS' : 'FAIL';
    console.log(`\ntarget: throughput >= 0.8x and p99 <= 1.5x of bare at every connection count (medians): ${verdict}`);
    return { cacheTtlSeconds: CACHE_TTL_SECONDS, keys: keys.length, byConnections, runs, verdict };
  } finally {
    for (const child of children) await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase(adminUrl);
  }
}

/** `npm start` on its embedded PGlite database, alone: what trying the API locally gives. */
async function onEmbedded(): Promise<Record<string, unknown>> {
  const dataDir = join(BUILD_DIR, 'http-throughput-embedded');
  rmSync(dataDir, { recursive: true, force: true });
  const env = { ...process.env };
  delete env.NODE_ENV;
  delete env.DATABASE_URL;
  delete env.VALIDATE_RESPONSES;
  const port = await freePort();
  const server = await startProcess('local/server.ts', { ...env, PORT: String(port), DATA_DIR: dataDir }, /listening on[\s\S]*reference:/);
  try {
    const demoKey = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
    const entityId = /demo entity \(test mode\): (\S+)/.exec(server.output())?.[1];
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${demoKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status !== 201 && response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    const location = await post('/v1/locations', {
      name: 'Bench warehouse',
      address1: '1 Harbour Road',
      city: 'Rotterdam',
      postal_code: '3011',
      country: 'NL',
    });
    const keys = [demoKey];
    for (let i = 0; i < 20; i++) keys.push(String((await post(`/v1/entities/${entityId}/api-keys`, { name: `bench ${i}`, scopes: ['settings:read'] })).secret));
    const path = `/v1/locations/${String(location.id)}`;
    await load('embedded', port, path, keys, 10, Math.min(3, DURATION), 0);
    const runs: Run[] = [];
    for (const connections of CONNECTIONS) {
      const run = await load('embedded', port, path, keys, connections, DURATION, 1);
      runs.push(run);
      console.log(
        `  embedded ${connections} conn ${round(run.rps, 0)} req/s p50 ${round(run.p50, 2)} ms p99 ${round(run.p99, 2)} ms (non-2xx ${run.non2xx}, errors ${run.errors})`,
      );
    }
    printTable(
      `npm start on the embedded database (PGlite), GET /v1/locations/{id}, ${DURATION} s per run`,
      ['connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'],
      runs.map((run) => [run.connections, round(run.rps, 0), run.p50, run.p99, run.non2xx]),
    );
    return { runs };
  } finally {
    await stopProcess(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  console.log(`http throughput: ${ROUNDS} rounds x ${CONNECTIONS.join(' and ')} connections x ${DURATION} s per target, database ${BENCH_DATABASE}`);
  const postgres = await onPostgres(adminUrl);
  const embedded = EMBEDDED ? await onEmbedded() : undefined;
  const file = writeResults('http-throughput', { settings: { rounds: ROUNDS, duration: DURATION, keys: KEYS, connections: CONNECTIONS }, postgres, embedded });
  console.log(`\nresults: ${file}`);
}

const watchdog = setTimeout(
  () => {
    console.error('http-throughput: overall time limit reached');
    process.exit(2);
  },
  (ROUNDS * 4 * DURATION + 600) * 1000,
);
watchdog.unref();

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
