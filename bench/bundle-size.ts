/**
 * Bundle sizes and cold starts of the Lambda bundles.
 *
 *   1. Bundles every function with bundleFunctions() from infra/bundle.ts (the one-pass esbuild
 *      build the CDK app uses, minified), plus an empty handler with the very same options, and
 *      reports each function's code size, index.mjs plus the zod.cjs beside it when it validates
 *      (target: under 450 kB = 460,800 bytes each).
 *   2. Cold start: a fresh `node` process per sample imports one bundle and calls its handler once
 *      (timed with process.hrtime inside the child, see bench/cold-start-child.mjs). Variants, run
 *      interleaved: the empty handler, GET /v1/openapi.json (no database), GET /v1/locations/{id}
 *      (the bundle opens its database connection while it loads, as DATABASE_CONNECT_DURING_INIT asks,
 *      and its first invocation waits for it; it uses no zod), the same with the event 250 ms after
 *      the load (an environment initialised ahead of its first request), GET /v1/locations?limit=10
 *      (a page and no filter: read without zod), GET /v1/locations?limit=10&is_active=true (a flag),
 *      GET /v1/products?limit=10&q=bolt (a text filter) and GET /v1/journal-entries?…&entry_date_gte=
 *      (a date), read without zod too, GET /v1/orders?document_type=sales_order&expand[]= (a required
 *      filter and expand), the events list with types[] (a list of values), the reorder report and the
 *      trial balance (report parameters, an entity path), POST /v1/locations without and with an
 *      Idempotency-Key (the latter writes to a local dynalite store through shared/aws-json.ts)
 *      and the authorizer. Writes publish their event after the commit as on AWS, to a local
 *      stand-in for EventBridge's PutEvents (bench/eventbridge.ts). Floors, with no handler stack:
 *      pg alone sending a read's or a write's statements (bench/fixtures/bare-pg-handler.ts), and a
 *      write's statements with its AWS calls, without and with an Idempotency-Key (the event
 *      published and marked, the two idempotency records: bench/fixtures/bare-io-handler.ts).
 *      Reports medians, the ratio route / empty, each route over its floor, and which @aws-sdk/*
 *      packages each child had loaded by the end (no route may load a DynamoDB or EventBridge package).
 *
 *   npx tsx bench/bundle-size.ts [--samples=15] [--max-seconds=300] [--no-cold-start] [--pooler] [--profile [--no-minify]]
 *
 * --profile: every child also writes a V8 CPU profile (node --cpu-prof, sampled every 50 µs) to
 * bench/results/profiles/<variant>/, to open in Chrome's DevTools; profiling slows the children,
 * so the times of such a run are for reading the profiles beside, not for comparing. With
 * --no-minify the bundles keep their names, for profiles that say which function took the time.
 *
 * --pooler: the children connect through a transaction-pooling PgBouncer (bench/pooler.ts), as
 * functions reach Aurora through RDS Proxy: each child opens a new client connection, with TLS
 * verified against a CA it trusts, but runs on a backend kept open between children, whose catalog
 * caches the earlier children filled. Without it every child starts a brand-new backend with no
 * TLS, the worst case on the database's side (the proxy opening a new connection) and not
 * production's on the client's.
 *
 * Bundles are written to bench/results/build/bundles (git-ignored) so the children resolve the external
 * @aws-sdk/* packages from the repository's node_modules, as the Lambda runtime provides them.
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres); the
 * database bizops_bench is created, seeded and dropped.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { bundleFunctions, type BundleEntry } from '../infra/bundle';
import {
  assertLocal,
  BENCH_DATABASE,
  BENCH_DIR,
  createDatabase,
  databaseUrl,
  dropDatabase,
  hrtimeMs,
  lambdaEnvironment,
  median,
  option,
  printTable,
  REPO_DIR,
  RESULTS_DIR,
  round,
  summarize,
  writeResults,
} from './lib';
import { startEventBridgeStandIn } from './eventbridge';
import { startPooler } from './pooler';
import { getEvent, migrateBenchDatabase, seed } from './seed';

const SAMPLES = Math.min(option('samples', 15), 200);
const MAX_SECONDS = option('max-seconds', 300);
const COLD_START = !process.argv.includes('--no-cold-start');
const POOLER = process.argv.includes('--pooler');
const PROFILE = process.argv.includes('--profile');
const MINIFY = !process.argv.includes('--no-minify');
const PROFILE_DIR = join(RESULTS_DIR, 'profiles');
const SIZE_LIMIT_BYTES = 450 * 1024;
const OUT_DIR = join(RESULTS_DIR, 'build');
const BUNDLE_DIR = join(OUT_DIR, 'bundles');
const EVENT_DIR = join(OUT_DIR, 'events');
const CHILD = join(BENCH_DIR, 'cold-start-child.mjs');
const EMPTY = 'bench/empty-handler';
const BARE_PG = 'bench/bare-pg-handler';
const BARE_IO = 'bench/bare-io-handler';
const CHILD_TIMEOUT_MS = 30_000;

interface ChildResult {
  importMs: number;
  externalsMs: number;
  invokeMs: number;
  totalMs: number;
  sinceProcessStartMs: number;
  bootMs: number;
  /** Loading what the Lambda runtime has loaded before it imports a handler (node:http, node:net, node:util). */
  runtimeMs: number;
  statusCode: number;
  effect?: string;
  awsSdkLoaded: string[];
  zodLoaded: boolean;
}

interface Variant {
  name: string;
  label: string;
  bundle: string;
  event: Record<string, unknown>;
  needsDatabase: boolean;
  /** The first event comes this long after the bundle has loaded (left out of the times). */
  eventDelayMs?: number;
}

async function entries(): Promise<BundleEntry[]> {
  // The infrastructure's own list of entry points (routes + authorizer + platform functions).
  const { bundleEntries } = await import('../infra/functions');
  const { routeSpecs } = await import('../infra/routes');
  const { ROUTE_MODULES, ROUTES } = await import('../functions/routes');
  const { buildOpenApiDocument } = await import('../shared/http/openapi');
  // As infra/app.ts does: the OpenAPI route gets the generated document beside its code.
  return [
    ...bundleEntries(routeSpecs(ROUTE_MODULES), buildOpenApiDocument(ROUTES)),
    { name: EMPTY, entry: 'bench/fixtures/empty-handler.ts' },
    { name: BARE_PG, entry: 'bench/fixtures/bare-pg-handler.ts' },
    { name: BARE_IO, entry: 'bench/fixtures/bare-io-handler.ts' },
  ];
}

/** The packages a bundle imports statically but does not contain (the @aws-sdk/* clients). */
function staticExternals(bundleFile: string): string[] {
  const text = readFileSync(bundleFile, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:from|import)\s*"(@aws-sdk\/[^"]+)"/g)) found.add(match[1]);
  return [...found].sort();
}

/** One sample. Asynchronous: the local DynamoDB-API store the idempotent variant writes to runs in this process. */
async function runChild(variant: Variant, env: NodeJS.ProcessEnv): Promise<ChildResult & { wallMs: number }> {
  const eventFile = join(EVENT_DIR, `${variant.name}.json`);
  const bundleFile = join(BUNDLE_DIR, variant.bundle, 'index.mjs');
  const started = process.hrtime.bigint();
  const child = await new Promise<{ status: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        ...(PROFILE ? ['--cpu-prof', '--cpu-prof-interval=50', `--cpu-prof-dir=${join(PROFILE_DIR, variant.name)}`] : []),
        CHILD,
        bundleFile,
        eventFile,
        staticExternals(bundleFile).join(','),
      ],
      {
        cwd: REPO_DIR,
        env: variant.eventDelayMs ? { ...env, BENCH_EVENT_DELAY_MS: String(variant.eventDelayMs) } : env,
        encoding: 'utf8',
        timeout: CHILD_TIMEOUT_MS,
      },
      (error, stdout, stderr) => {
        const failure = error as (Error & { code?: number | string; signal?: string }) | null;
        resolve({ status: failure ? (typeof failure.code === 'number' ? failure.code : 1) : 0, signal: failure?.signal ?? null, stdout, stderr });
      },
    );
  });
  const wallMs = hrtimeMs(started);
  const line = (child.stdout ?? '').split('\n').find((text) => text.startsWith('BENCH_RESULT '));
  if (child.status !== 0 || !line) {
    throw new Error(`cold start of ${variant.name} failed (exit ${child.status} ${child.signal ?? ''}):\n${child.stdout}\n${child.stderr}`);
  }
  const result = JSON.parse(line.slice('BENCH_RESULT '.length)) as ChildResult;
  if ((result.statusCode !== 200 && result.statusCode !== 201) || (variant.name === 'authorizer' && result.effect !== 'Allow')) {
    throw new Error(`cold start of ${variant.name} answered ${result.statusCode} ${result.effect ?? ''}:\n${child.stdout}\n${child.stderr}`);
  }
  return { ...result, wallMs };
}

async function coldStarts(adminUrl: string): Promise<Record<string, unknown>> {
  const url = await createDatabase(adminUrl);
  console.log(`\ndatabase ${BENCH_DATABASE} created`);
  let closeStore: (() => Promise<void>) | undefined;
  let closeEventBridge: (() => Promise<void>) | undefined;
  let stopPooler: (() => Promise<void>) | undefined;
  try {
    await migrateBenchDatabase(url);
    const { configureDatabase, closeDatabase } = await import('../shared/db/database');
    configureDatabase(() => new pg.Pool({ connectionString: url, max: 2 }));
    const seeded = await seed('settings:read');
    await closeDatabase();
    const { startIdempotencyStore } = await import('../local/embedded');
    const store = await startIdempotencyStore();
    closeStore = () => store.close();
    // Writes publish their events after the commit, as on AWS, to a local PutEvents.
    const eventBridge = await startEventBridgeStandIn();
    closeEventBridge = eventBridge.close;
    // --pooler: the children reach the database through PgBouncer, as functions reach Aurora through RDS Proxy.
    const pooler = POOLER ? await startPooler(url, BENCH_DATABASE) : undefined;
    stopPooler = pooler?.stop;
    const createLocation = (idempotent: boolean) => ({
      ...getEvent({ resource: '/v1/locations', path: '/v1/locations', authorizer: { ...seeded.authorizer, scopes: 'settings:write' }, requestId: 'cold' }),
      httpMethod: 'POST',
      headers: { 'Content-Type': 'application/json', ...(idempotent && { 'Idempotency-Key': '{{unique}}' }) },
      body: JSON.stringify({ name: 'Cold start warehouse {{unique}}', address1: '1 Harbour Road', city: 'Rotterdam', postal_code: '3011', country: 'NL' }),
    });

    const readLocation = getEvent({
      resource: '/v1/locations/{id}',
      path: `/v1/locations/${seeded.locationId}`,
      pathParameters: { id: seeded.locationId },
      authorizer: seeded.authorizer,
      requestId: 'cold',
    });
    /** A GET with a query, each name given once, by a key with these scopes, to the route's bundle; `{entity_id}` in the resource is the seeded entity. */
    const readVariant = (name: string, label: string, bundle: string, resource: string, scopes: string, query: Record<string, string>): Variant => {
      const pathParameters = resource.includes('{entity_id}') ? { entity_id: seeded.entityId } : undefined;
      const path = resource.replace('{entity_id}', seeded.entityId);
      return {
        name,
        label,
        bundle,
        event: {
          ...getEvent({ resource, path, pathParameters, authorizer: { ...seeded.authorizer, scopes }, requestId: 'cold' }),
          queryStringParameters: query,
          multiValueQueryStringParameters: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, [value]])),
        },
        needsDatabase: true,
      };
    };
    const variants: Variant[] = [
      {
        name: 'empty',
        label: 'empty handler (baseline)',
        bundle: EMPTY,
        event: getEvent({ resource: '/v1/openapi.json', path: '/v1/openapi.json', requestId: 'cold' }),
        needsDatabase: false,
      },
      {
        name: 'openapi',
        label: 'GET /v1/openapi.json (no database)',
        bundle: 'openapi/get-openapi',
        event: getEvent({ resource: '/v1/openapi.json', path: '/v1/openapi.json', requestId: 'cold' }),
        needsDatabase: false,
      },
      {
        name: 'get-location',
        label: 'GET /v1/locations/{id} (connects to PostgreSQL)',
        bundle: 'locations/get-location',
        event: readLocation,
        needsDatabase: true,
      },
      {
        name: 'bare-pg-read',
        label: 'floor: pg alone, the statements of GET /v1/locations/{id}',
        bundle: BARE_PG,
        event: readLocation,
        needsDatabase: true,
      },
      {
        name: 'get-location-preinitialised',
        label: 'GET /v1/locations/{id}, event 250 ms after init',
        bundle: 'locations/get-location',
        event: readLocation,
        needsDatabase: true,
        eventDelayMs: 250,
      },
      readVariant('list-locations', 'GET /v1/locations?limit=10 (a page, no filter)', 'locations/list-locations', '/v1/locations', 'settings:read', {
        limit: '10',
      }),
      readVariant(
        'list-locations-filtered',
        'GET /v1/locations?limit=10&is_active=true (a flag)',
        'locations/list-locations',
        '/v1/locations',
        'settings:read',
        { limit: '10', is_active: 'true' },
      ),
      readVariant('list-products-search', 'GET /v1/products?limit=10&q=bolt (text filter)', 'products/list-products', '/v1/products', 'products:read', {
        limit: '10',
        q: 'bolt',
      }),
      readVariant(
        'list-journal-entries-dated',
        'GET /v1/journal-entries?entry_date_gte= (a date)',
        'journal-entries/list-journal-entries',
        '/v1/journal-entries',
        'accounting:read',
        { limit: '10', entry_date_gte: '2026-01-01' },
      ),
      readVariant(
        'list-orders',
        'GET /v1/orders?document_type=sales_order&expand[]=data.lines (required, expand)',
        'orders/list-orders',
        '/v1/orders',
        'orders:read',
        {
          limit: '10',
          document_type: 'sales_order',
          'expand[]': 'data.lines',
        },
      ),
      readVariant(
        'list-events-types',
        'GET /v1/entities/{entity_id}/events?types[]= (a list of values)',
        'events/list-events',
        '/v1/entities/{entity_id}/events',
        'webhooks:read',
        {
          'types[]': 'order.created',
        },
      ),
      readVariant(
        'reorder-report',
        'GET /v1/purchasing/reorder-report (defaults, a whole number)',
        'purchasing/get-reorder-report',
        '/v1/purchasing/reorder-report',
        'purchasing:read',
        {
          demand_window: '30',
        },
      ),
      readVariant(
        'trial-balance',
        'GET /v1/entities/{entity_id}/reconciliation/trial-balance?as_of_date= (entity path, a date)',
        'reconciliation/get-trial-balance',
        '/v1/entities/{entity_id}/reconciliation/trial-balance',
        'migration:read',
        { as_of_date: '2026-01-31' },
      ),
      {
        name: 'create-location',
        label: 'POST /v1/locations (connects, commits)',
        bundle: 'locations/create-location',
        event: createLocation(false),
        needsDatabase: true,
      },
      {
        name: 'bare-pg-write',
        label: 'floor: pg alone, the statements of POST /v1/locations',
        bundle: BARE_PG,
        event: createLocation(false),
        needsDatabase: true,
      },
      {
        name: 'bare-io-write',
        label: 'floor: the same, then PutEvents and the mark',
        bundle: BARE_IO,
        event: createLocation(false),
        needsDatabase: true,
      },
      {
        name: 'create-location-idempotent',
        label: 'POST /v1/locations + Idempotency-Key (DynamoDB)',
        bundle: 'locations/create-location',
        event: createLocation(true),
        needsDatabase: true,
      },
      {
        name: 'bare-io-write-idempotent',
        label: 'floor: the same with the two DynamoDB records',
        bundle: BARE_IO,
        event: createLocation(true),
        needsDatabase: true,
      },
      {
        name: 'authorizer',
        label: 'authorizer (connects to PostgreSQL)',
        bundle: 'authorizer/authorizer',
        event: {
          type: 'REQUEST',
          methodArn: 'arn:aws:execute-api:eu-west-1:000000000000:bench/prod/GET/v1/locations/x',
          headers: { Authorization: `Bearer ${seeded.secret}` },
        },
        needsDatabase: true,
      },
    ];
    mkdirSync(EVENT_DIR, { recursive: true });
    for (const variant of variants) writeFileSync(join(EVENT_DIR, `${variant.name}.json`), JSON.stringify(variant.event));

    // What the Lambda runtime would give, and the variables the infrastructure sets; nothing else of this machine's.
    const env = lambdaEnvironment({
      // Through the pooler: TLS, the certificate verified against its CA (bench/pooler.ts), as functions verify RDS Proxy's.
      DATABASE_URL: pooler?.url ?? url,
      // As the infrastructure sets it: the database routes and the authorizer connect while they load.
      DATABASE_CONNECT_DURING_INIT: 'true',
      AWS_REGION: process.env.AWS_REGION ?? 'eu-west-1',
      IDEMPOTENCY_TABLE_NAME: store.tableName,
      DYNAMODB_ENDPOINT: store.endpoint,
      EVENT_BUS_NAME: 'bizops-bench',
      EVENTBRIDGE_ENDPOINT: eventBridge.endpoint,
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    });

    if (PROFILE) for (const variant of variants) rmSync(join(PROFILE_DIR, variant.name), { recursive: true, force: true });
    for (const variant of variants) await runChild(variant, env); // warm the file system cache, check each works
    const samples: Record<string, (ChildResult & { wallMs: number })[]> = Object.fromEntries(variants.map((variant) => [variant.name, []]));
    const started = process.hrtime.bigint();
    let timedOut = false;
    for (let sample = 0; sample < SAMPLES && !timedOut; sample++) {
      for (let k = 0; k < variants.length; k++) {
        if (hrtimeMs(started) > MAX_SECONDS * 1000) {
          timedOut = true;
          break;
        }
        const variant = variants[(sample + k) % variants.length];
        samples[variant.name].push(await runChild(variant, env));
      }
    }
    // Each route write (its warm-up run included) published one event; a publish that failed would
    // have been left to the sweeper silently, and the write measured without it.
    const writes = ['create-location', 'create-location-idempotent', 'bare-io-write', 'bare-io-write-idempotent'].reduce(
      (sum, name) => sum + 1 + samples[name].length,
      0,
    );
    if (eventBridge.entries() !== writes) throw new Error(`${eventBridge.entries()} events reached the PutEvents stand-in for ${writes} writes`);

    const stat = (name: string, key: keyof ChildResult | 'wallMs') => median(samples[name].map((sample) => sample[key] as number));
    const empty = { total: stat('empty', 'totalMs'), sinceStart: stat('empty', 'sinceProcessStartMs') };
    const rows = variants.map((variant) => {
      const total = stat(variant.name, 'totalMs');
      const sinceStart = stat(variant.name, 'sinceProcessStartMs');
      return {
        name: variant.name,
        label: variant.label,
        bundle: variant.bundle,
        n: samples[variant.name].length,
        externals: staticExternals(join(BUNDLE_DIR, variant.bundle, 'index.mjs')),
        runtimeMs: stat(variant.name, 'runtimeMs'),
        externalsMs: stat(variant.name, 'externalsMs'),
        importMs: stat(variant.name, 'importMs'),
        invokeMs: stat(variant.name, 'invokeMs'),
        totalMs: total,
        totalP95Ms: summarize(samples[variant.name].map((sample) => sample.totalMs)).p95,
        sinceProcessStartMs: sinceStart,
        wallMs: stat(variant.name, 'wallMs'),
        ratioToEmpty: total / empty.total,
        ratioToEmptyWholeProcess: sinceStart / empty.sinceStart,
        awsSdkLoaded: [...new Set(samples[variant.name].flatMap((sample) => sample.awsSdkLoaded))].sort(),
        zodLoaded: samples[variant.name].some((sample) => sample.zodLoaded),
      };
    });
    printTable(
      `cold start: fresh node process per sample, medians in ms (${SAMPLES} samples each, interleaved, ${POOLER ? 'database through PgBouncer with TLS' : 'database direct, no TLS'}${timedOut ? ', STOPPED AT TIME LIMIT' : ''})`,
      [
        'bundle',
        'n',
        'runtime',
        '@aws-sdk',
        'import (all)',
        'first invoke',
        'import+invoke',
        'p95',
        'ratio',
        'process start→done',
        'ratio (whole)',
        'spawn wall',
      ],
      rows.map((r) => [
        r.label,
        r.n,
        r.runtimeMs,
        r.externalsMs,
        r.importMs,
        r.invokeMs,
        r.totalMs,
        r.totalP95Ms,
        r.ratioToEmpty,
        r.sinceProcessStartMs,
        r.ratioToEmptyWholeProcess,
        r.wallMs,
      ]),
    );
    printTable(
      '@aws-sdk/* packages and zod loaded by the end of the first invocation (any sample)',
      ['bundle', 'static imports', '@aws-sdk loaded', 'zod loaded'],
      rows.map((r) => [r.label, r.externals.join(' ') || '-', r.awsSdkLoaded.join(' ') || '-', r.zodLoaded ? 'yes' : 'no']),
    );
    // What the handler stack adds to a database route's cold start: the route against pg alone sending the same statements.
    const overFloor = (route: string, floor: string) => {
      const floorMs = rows.find((r) => r.name === floor)?.sinceProcessStartMs;
      const routeMs = rows.find((r) => r.name === route)?.sinceProcessStartMs;
      return floorMs && routeMs ? `${round(routeMs / floorMs, 2)}× (${round(routeMs - floorMs, 1)} ms)` : 'n/a';
    };
    console.log(
      `whole process over the floor (pg alone): GET /v1/locations/{id} ${overFloor('get-location', 'bare-pg-read')}, POST /v1/locations ${overFloor('create-location', 'bare-pg-write')}\n` +
        `over the floor with the write's AWS calls: POST /v1/locations ${overFloor('create-location', 'bare-io-write')}, with an Idempotency-Key ${overFloor('create-location-idempotent', 'bare-io-write-idempotent')}`,
    );
    // Idempotency records and events go through shared/aws-json.ts: no DynamoDB or EventBridge package loads.
    const loadsClient = rows.some((r) => r.awsSdkLoaded.some((name) => /-dynamodb$|client-eventbridge$/.test(name)));
    console.log(`no route loads a DynamoDB or EventBridge package: ${loadsClient ? 'FAIL' : 'PASS'}`);
    console.log(
      '\nruntime: loading what the Lambda Node.js runtime has loaded before it imports a handler (node:http, node:net, node:util), in every child;\n' +
        'import+invoke: from before import() to the handler returning, inside the child; process start→done adds node start-up and runtime;\n' +
        '@aws-sdk: the part of import spent loading the external @aws-sdk/* clients the bundle imports statically\n' +
        `ratio: route / empty handler. The database routes include opening the pg connection (${POOLER ? 'through PgBouncer, TLS verified' : 'direct, no TLS'}).`,
    );
    return {
      samples: SAMPLES,
      connection: POOLER ? 'pooler' : 'direct',
      timedOut,
      routesLoadDynamoDbClient: loadsClient,
      medians: rows,
      raw: Object.fromEntries(
        Object.entries(samples).map(([name, list]) => [
          name,
          list.map((s) => ({
            externalsMs: round(s.externalsMs),
            importMs: round(s.importMs),
            invokeMs: round(s.invokeMs),
            totalMs: round(s.totalMs),
            sinceProcessStartMs: round(s.sinceProcessStartMs),
          })),
        ]),
      ),
    };
  } finally {
    await closeStore?.();
    await closeEventBridge?.();
    await stopPooler?.();
    await dropDatabase(adminUrl);
    console.log(`database ${BENCH_DATABASE} dropped`);
  }
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);

  const list = await entries();
  const bundled = await bundleFunctions(list, { outdir: BUNDLE_DIR, root: REPO_DIR, minify: MINIFY, sourcemap: false });
  const sizes = list
    .map((entry) => {
      const bytes = bundled.sizes[entry.name];
      // The function's code: index.mjs, and zod.cjs beside it when the function validates (infra/bundle.ts).
      const gzipBytes = ['index.mjs', 'zod.cjs']
        .filter((file) => existsSync(join(bundled.dirs[entry.name], file)))
        .reduce((sum, file) => sum + gzipSync(readFileSync(join(bundled.dirs[entry.name], file)), { level: 9 }).length, 0);
      return { name: entry.name, bytes, gzipBytes, withinTarget: bytes < SIZE_LIMIT_BYTES };
    })
    .sort((a, b) => b.bytes - a.bytes);
  const functions = sizes.filter((size) => size.name !== EMPTY && size.name !== BARE_PG && size.name !== BARE_IO);
  const over = functions.filter((size) => !size.withinTarget);
  printTable(
    `bundle sizes: ${functions.length} functions, minified ESM, @aws-sdk/* external (one esbuild pass, ${bundled.durationMs} ms)`,
    ['bundle', 'bytes', 'kB', 'gzip kB', '< 450 KiB'],
    sizes.map((size) => [size.name, size.bytes, round(size.bytes / 1000, 1), round(size.gzipBytes / 1000, 1), size.withinTarget ? 'yes' : 'NO']),
  );
  const largest = functions[0];
  console.log(
    `\nlargest: ${largest.name} ${round(largest.bytes / 1000, 1)} kB; ${over.length === 0 ? 'every bundle is under 450 KiB: PASS' : `${over.length} over 450 KiB: FAIL`}`,
  );

  const cold = COLD_START ? await coldStarts(adminUrl) : undefined;
  // A pooled run keeps its own file: the summary of npm run bench reads the direct one.
  const file = writeResults(POOLER ? 'bundle-size-pooler' : 'bundle-size', {
    sizeLimitBytes: SIZE_LIMIT_BYTES,
    verdict: over.length === 0 ? 'PASS' : 'FAIL',
    bundleDurationMs: bundled.durationMs,
    outdir: bundled.outdir,
    sizes,
    coldStart: cold,
  });
  console.log(`\nresults: ${file}`);
}

const watchdog = setTimeout(
  () => {
    console.error('bundle-size: overall time limit reached');
    process.exit(2);
  },
  (MAX_SECONDS + 180) * 1000,
);
watchdog.unref();

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
