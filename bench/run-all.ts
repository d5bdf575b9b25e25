/**
 * Runs every benchmark in sequence, each in its own process (so each sets its own NODE_ENV and
 * starts cold), then prints a summary of the headline figures from bench/results/*.json.
 *
 *   npm run bench                      full runs
 *   npm run bench -- --quick           smaller samples (a smoke run, about a minute)
 *   npm run bench -- --only=bundle-size
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine } from '../local/command-line';
import { BENCH_DIR, REPO_DIR, RESULTS_DIR, printTable, round } from './lib';

const commandLine = parseCommandLine(
  `usage: npm run bench -- [--quick] [--only=<name>[,<name>...]]
  Runs every benchmark (or the named ones), each in its own process, and prints a summary.`,
  { options: ['only'], flags: ['quick'] },
);
const QUICK = commandLine.flags.has('quick');
const only = commandLine.values.only;
const CHILD_TIMEOUT_MS = 20 * 60 * 1000;

const BENCHMARKS: { name: string; args: string[]; quickArgs: string[] }[] = [
  { name: 'framework-overhead', args: ['--pin'], quickArgs: ['--n=500', '--warmup=200', '--http-n=200', '--pin'] },
  { name: 'bundle-size', args: [], quickArgs: ['--samples=5'] },
  { name: 'order-latency', args: [], quickArgs: ['--runs=10', '--warmup=3'] },
  { name: 'held-lock', args: [], quickArgs: ['--rounds=1', '--gets=40'] },
  { name: 'relink', args: [], quickArgs: ['--native=10000', '--runs=2'] },
  { name: 'http-throughput', args: [], quickArgs: ['--rounds=1', '--duration=2', '--keys=50', '--no-embedded'] },
  { name: 'webhook-delivery', args: [], quickArgs: ['--events=1000', '--rate=200', '--slow-ms=500'] },
  { name: 'ap-aging', args: [], quickArgs: ['--runs=5', '--bills=10000'] },
  // Seeds its books once (minutes) and keeps them in their own database for the next runs.
  { name: 'reports', args: [], quickArgs: ['--runs=5', '--scale=0.05', '--walk-seconds=20'] },
  { name: 'batch', args: [], quickArgs: ['--quick'] },
];

const selected = BENCHMARKS.filter((bench) => !only || only.split(',').includes(bench.name));
if (selected.length === 0) {
  console.error(`no benchmark named ${only}; known: ${BENCHMARKS.map((bench) => bench.name).join(', ')}`);
  process.exit(2);
}

const outcomes: { name: string; status: string; seconds: number }[] = [];
for (const bench of selected) {
  console.log(`\n=== ${bench.name} ${'='.repeat(Math.max(0, 70 - bench.name.length))}`);
  const started = Date.now();
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(BENCH_DIR, `${bench.name}.ts`), ...(QUICK ? bench.quickArgs : bench.args)], {
    cwd: REPO_DIR,
    stdio: 'inherit',
    timeout: CHILD_TIMEOUT_MS,
  });
  const seconds = (Date.now() - started) / 1000;
  outcomes.push({ name: bench.name, status: child.status === 0 ? 'ok' : `failed (${child.status ?? child.signal})`, seconds });
}

// Headline figures: the parts of each results file read here.
interface P50 {
  p50: number;
}
interface OverheadResults {
  direct: { ratio: P50; stack: P50; rawClient: P50 };
  target: { verdict: string };
  roundTrips: { get: { readyForQuery: number }; authenticate: { readyForQuery: number } };
  http?: { authorizerCached: P50 };
}
interface BundleResults {
  sizes: { name: string; bytes: number }[];
  verdict: string;
  coldStart?: {
    node: string;
    budget: number;
    classes: { class: string; budgeted: boolean; routeMs: number; floorMs: number; ratioToEmpty: number; ratioToFloor: number }[];
  };
}
interface OrderLatencyResults {
  target_ms: number;
  create_50_lines: P50;
  patch_one_of_500: P50;
}
interface RelinkResults {
  items: number;
  bodyBytes: number;
  targetMs: number;
  stats: { relinking: P50 };
  statements?: Record<string, number | boolean>;
}
interface Spread {
  median: number;
  min: number;
  max: number;
}
interface HttpThroughputResults {
  postgres: { verdict: string; byConnections: { connections: number; ratio: { rps: Spread; p99: Spread } }[] };
  embedded?: { runs: { connections: number; rps: number; p99: number }[] };
}
interface ApAgingResults {
  bills: number;
  applications: number;
  target_ms: number;
  figures: Record<string, { as_of_date: string; handler: P50 }>;
}
interface HeldLockResults {
  waiters: number;
  free: P50 & { p99: number };
  locked: P50 & { p99: number };
  ratio: P50 & { p99: number };
}
const read = <T>(name: string): T | undefined => {
  const file = join(RESULTS_DIR, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
};
const rows: (string | number)[][] = [];
const overhead = read<OverheadResults>('framework-overhead');
if (overhead && selected.some((bench) => bench.name === 'framework-overhead')) {
  const { direct, roundTrips, http } = overhead;
  rows.push(['GET by id: stack / raw pg (p50)', `${round(direct.ratio.p50, 2)}x`, '<= 1.2x', overhead.target.verdict]);
  rows.push(['GET by id: stack p50 / raw pg p50', `${round(direct.stack.p50, 3)} / ${round(direct.rawClient.p50, 3)} ms`, '', '']);
  rows.push(['round trips per GET (stack)', String(roundTrips.get.readyForQuery), '3', roundTrips.get.readyForQuery === 3 ? 'PASS' : 'FAIL']);
  rows.push(['round trips per authentication', String(roundTrips.authenticate.readyForQuery), '3', '']);
  if (http) rows.push(['GET over HTTP gateway p50 (cached authorizer)', `${round(http.authorizerCached.p50, 3)} ms`, '', '']);
}
const bundles = read<BundleResults>('bundle-size');
if (bundles && selected.some((bench) => bench.name === 'bundle-size')) {
  const functions = bundles.sizes.filter((size) => !size.name.startsWith('bench/'));
  const largest = functions[0];
  if (largest)
    rows.push(['largest bundle', `${largest.name} ${round(largest.bytes / 1000, 1)} kB`, 'each within its limit (infra/bundle-limits.ts)', bundles.verdict]);
  const cold = bundles.coldStart;
  for (const row of cold?.classes ?? []) {
    rows.push([
      `cold first response, ${row.class} (${cold!.node}): route / floor`,
      `${round(row.routeMs, 1)} / ${round(row.floorMs, 1)} ms = ${round(row.ratioToFloor, 2)}x (${round(row.ratioToEmpty, 2)}x empty)`,
      row.budgeted ? `<= ${cold!.budget}x floor` : 'not budgeted',
      row.budgeted ? (row.ratioToFloor <= cold!.budget ? 'PASS' : 'FAIL') : '',
    ]);
  }
}
const orders = read<OrderLatencyResults>('order-latency');
if (orders && selected.some((bench) => bench.name === 'order-latency')) {
  const verdict = (p50: number) => (p50 < orders.target_ms ? 'PASS' : 'FAIL');
  rows.push(['create order with 50 lines p50', `${round(orders.create_50_lines.p50, 1)} ms`, `< ${orders.target_ms} ms`, verdict(orders.create_50_lines.p50)]);
  rows.push([
    'PATCH one line of a 500-line order p50',
    `${round(orders.patch_one_of_500.p50, 1)} ms`,
    `< ${orders.target_ms} ms`,
    verdict(orders.patch_one_of_500.p50),
  ]);
}
const lock = read<HeldLockResults>('held-lock');
if (lock && selected.some((bench) => bench.name === 'held-lock')) {
  rows.push([
    `unrelated GET p50/p99, ${lock.waiters} requests queued on a locked row`,
    `${round(lock.locked.p50, 1)} / ${round(lock.locked.p99, 1)} ms (free ${round(lock.free.p50, 1)} / ${round(lock.free.p99, 1)})`,
    '',
    `${round(lock.ratio.p50, 2)}x / ${round(lock.ratio.p99, 2)}x`,
  ]);
}
const relink = read<RelinkResults>('relink');
if (relink && selected.some((bench) => bench.name === 'relink')) {
  rows.push([
    `relink ${relink.items} items in one request p50 (body ${round(relink.bodyBytes / 1024, 0)} KiB)`,
    `${round(relink.stats.relinking.p50, 1)} ms`,
    `< ${relink.targetMs} ms`,
    relink.stats.relinking.p50 < relink.targetMs ? 'PASS' : 'FAIL',
  ]);
  if (relink.statements) {
    const few = Number(relink.statements.items10);
    const all = Number(relink.statements[`items${relink.items}`]);
    rows.push([`relink statements per request: 10 items / ${relink.items} items`, `${few} / ${all}`, 'equal', few === all ? 'PASS' : 'FAIL']);
  }
}
const http = read<HttpThroughputResults>('http-throughput');
if (http && selected.some((bench) => bench.name === 'http-throughput')) {
  const range = (s: Spread) => `${round(s.median, 2)}x (${round(s.min, 2)}–${round(s.max, 2)})`;
  for (const c of http.postgres.byConnections) {
    rows.push([`HTTP GET by id, ${c.connections} conn: API / bare req/s`, range(c.ratio.rps), '>= 0.8x', c.ratio.rps.median >= 0.8 ? 'PASS' : 'FAIL']);
    rows.push([`HTTP GET by id, ${c.connections} conn: API / bare p99`, range(c.ratio.p99), '<= 1.5x', c.ratio.p99.median <= 1.5 ? 'PASS' : 'FAIL']);
  }
  for (const run of http.embedded?.runs ?? []) {
    rows.push([`npm start (PGlite), ${run.connections} conn`, `${round(run.rps, 0)} req/s, p99 ${round(run.p99, 1)} ms`, '', '']);
  }
}
const aging = read<ApAgingResults>('ap-aging');
if (aging && selected.some((bench) => bench.name === 'ap-aging')) {
  for (const [label, figure] of Object.entries(aging.figures)) {
    rows.push([
      `AP aging, ${aging.bills} bills / ${aging.applications} applications, as of ${label} p50`,
      `${round(figure.handler.p50, 1)} ms`,
      `< ${aging.target_ms} ms`,
      figure.handler.p50 < aging.target_ms ? 'PASS' : 'FAIL',
    ]);
  }
}
interface ReportsResults {
  scale: number;
  seed_seconds: number;
  target: { p50_ms: number; p95_ms: number; depth_ratio: number };
  figures: { report: string; as_of_date: string; present: boolean; handler?: P50 & { p95: number } }[];
  account_activity_depth: { present: boolean; ratio_p50?: number; pages_walked?: number };
}
const reports = read<ReportsResults>('reports');
if (reports && selected.some((bench) => bench.name === 'reports')) {
  const { target } = reports;
  const books = reports.scale === 1 ? '2,000,000 journal lines' : `books at scale ${reports.scale}`;
  for (const figure of reports.figures) {
    const label = `${figure.report}, ${books}, as of ${figure.as_of_date} p50 / p95`;
    if (!figure.handler) {
      rows.push([label, 'not present', '', '']);
      continue;
    }
    const pass = figure.handler.p50 <= target.p50_ms && figure.handler.p95 <= target.p95_ms;
    rows.push([
      label,
      `${round(figure.handler.p50, 1)} / ${round(figure.handler.p95, 1)} ms`,
      `<= ${target.p50_ms} / ${target.p95_ms} ms`,
      pass ? 'PASS' : 'FAIL',
    ]);
  }
  const depth = reports.account_activity_depth;
  rows.push([
    `account activity, deepest page reached (${depth.pages_walked ?? 0} pages) / first page p50`,
    depth.present ? `${depth.ratio_p50}x` : 'not present',
    `<= ${target.depth_ratio}x`,
    depth.present ? (depth.ratio_p50! <= target.depth_ratio ? 'PASS' : 'FAIL') : '',
  ]);
}
interface WebhookDeliveryResults {
  events: number;
  slowMs: number;
  fastEventsPerSecond: number;
  fastLagMs: P50 & { p99: number };
  slowLagMs: { p99: number };
  completedSeconds: { fast1: number; fast2: number; slow: number };
  producedSeconds?: number;
  verdict: string;
}
const webhooks = read<WebhookDeliveryResults>('webhook-delivery');
if (webhooks && selected.some((bench) => bench.name === 'webhook-delivery')) {
  const { completedSeconds: done } = webhooks;
  rows.push([
    `webhooks: ${webhooks.events} events to 2 fast + 1 slow (${webhooks.slowMs} ms) receivers, fast lag p50 / p99`,
    `${round(webhooks.fastLagMs.p50, 1)} / ${round(webhooks.fastLagMs.p99, 1)} ms`,
    'p99 < 1000 ms',
    webhooks.verdict,
  ]);
  rows.push([
    'webhooks: every event at the fast receivers / at the slow one after',
    `${round(Math.max(done.fast1, done.fast2), 1)} / ${round(done.slow, 1)} s, ${round(webhooks.fastEventsPerSecond, 0)} events/s`,
    '',
    '',
  ]);
}
interface BatchResults {
  orders: number;
  batchSpeedup: number;
  batchP50Ms: number;
  dryRunRatio: number;
}
const batch = read<BatchResults>('batch');
if (batch && selected.some((bench) => bench.name === 'batch')) {
  rows.push([
    `batch: ${batch.orders} orders, batches of 100 / single requests (orders/s)`,
    `${batch.batchSpeedup}×`,
    '≥ 4×',
    batch.batchSpeedup >= 4 ? 'PASS' : 'FAIL',
  ]);
  rows.push(['batch: a batch of 100 orders, p50', `${batch.batchP50Ms} ms`, '≤ 2000 ms', batch.batchP50Ms <= 2000 ? 'PASS' : 'FAIL']);
  rows.push(['batch: dry-run invoice confirmation / the real one (p50)', `${batch.dryRunRatio}×`, '≤ 1.2×', batch.dryRunRatio <= 1.2 ? 'PASS' : 'FAIL']);
}
printTable(
  'summary',
  ['benchmark', 'status', 'seconds'],
  outcomes.map((outcome) => [outcome.name, outcome.status, round(outcome.seconds, 1)]),
);
if (rows.length) printTable('headline figures (details in bench/results/*.json)', ['figure', 'measured', 'target', 'verdict'], rows);
if (outcomes.some((outcome) => outcome.status !== 'ok')) process.exitCode = 1;
