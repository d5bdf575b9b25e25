/**
 * Small helpers the benchmarks share: statistics, a plain-text table, the results file and a
 * throw-away PostgreSQL database. Nothing here imports application code with side effects (only
 * the pure connection-url helper), so a benchmark can set NODE_ENV before it loads the app.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { withDatabase } from '../shared/db/connection-url';

export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
export const REPO_DIR = fileURLToPath(new URL('..', import.meta.url));

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** The throw-away database; BENCH_DATABASE names another, so two benchmarks can run side by side. */
export const BENCH_DATABASE = process.env.BENCH_DATABASE ?? 'bizops_bench';

export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return {
    n: sorted.length,
    mean,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export const median = (samples: number[]): number =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );

export const round = (value: number, digits = 3): number => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

/** Prints rows as an aligned table (numbers right-aligned). */
export function printTable(title: string, headers: string[], rows: (string | number)[][]): void {
  const cells = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? String(round(cell)) : cell)));
  const widths = headers.map((header, index) => Math.max(header.length, ...cells.map((row) => (row[index] ?? '').length)));
  const numeric = headers.map((_, index) => rows.every((row) => typeof row[index] === 'number'));
  const line = (values: string[]) => values.map((value, index) => (numeric[index] ? value.padStart(widths[index]) : value.padEnd(widths[index]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells) console.log(line(row));
}

function machine(): Record<string, unknown> {
  return {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    totalMemoryMb: Math.round(os.totalmem() / 2 ** 20),
  };
}

/** Writes bench/results/<name>.json and returns its path. */
export function writeResults(name: string, data: Record<string, unknown>): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${name}.json`;
  writeFileSync(file, `${JSON.stringify({ benchmark: name, date: new Date().toISOString(), machine: machine(), ...data }, null, 2)}\n`);
  return file;
}

export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

/** The benchmarks only ever talk to this machine. */
export function assertLocal(url: string): void {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1' && host !== '[::1]') {
    throw new Error(`benchmarks only run against a local PostgreSQL (127.0.0.1), not ${host}`);
  }
}

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** (Re)creates an empty database `name` next to `adminUrl`'s and returns its URL. */
export async function createDatabase(adminUrl: string, name = BENCH_DATABASE): Promise<string> {
  assertLocal(adminUrl);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  await admin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  return withDatabase(adminUrl, name);
}

/**
 * The database `name` next to `adminUrl`'s, kept between runs: left as it is when a run recorded
 * its seed on it (COMMENT ON DATABASE, returned as `comment`), else (and when `reset`) created
 * empty, so a seed that never finished is never reused.
 */
export async function openDatabase(adminUrl: string, name: string, options: { reset: boolean }): Promise<{ url: string; comment: string | null }> {
  assertLocal(adminUrl);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const comment = await admin(adminUrl, async (client) => {
    const found = await client.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    const comment = found.rows[0]?.comment ?? null;
    if (comment !== null && !options.reset) return comment;
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
    return null;
  });
  return { url: withDatabase(adminUrl, name), comment };
}

export async function dropDatabase(adminUrl: string, name = BENCH_DATABASE): Promise<void> {
  await admin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export const hrtimeMs = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/** `work` timed `runs` times after 3 warm-up calls. */
export async function timed(runs: number, work: () => Promise<unknown>): Promise<Summary> {
  for (let i = 0; i < 3; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await work();
    samples.push(hrtimeMs(start));
  }
  return summarize(samples);
}

/** The value of `--name=value` on the command line, or `fallback`; a non-negative number or the run stops. */
export function option(name: string, fallback: number): number {
  const arg = process.argv.find((value) => value.startsWith(`--${name}=`));
  const value = arg ? Number(arg.split('=')[1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}

/** The value of `--name=value`, or `fallback`; a positive integer (a count) or the run stops. */
export function countOption(name: string, fallback: number): number {
  const arg = process.argv.find((value) => value.startsWith(`--${name}=`));
  const value = arg ? Number(arg.split('=')[1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

/**
 * The environment of a cold-start child: what the Lambda Node.js runtime gives a function, plus
 * `settings` (the function's own variables), and nothing inherited from this machine but PATH.
 * An inherited NODE_EXTRA_CA_CERTS (this machine's environment points it at the system's 220 kB
 * CA bundle) made Node parse those certificates at start-up in every child, about 30 ms that the
 * Node 20+ runtimes no longer spend (they set no NODE_EXTRA_CA_CERTS by default), inflating the
 * empty handler as much as every route; NODE_OPTIONS and the like would skew the children alike.
 */
export function lambdaEnvironment(settings: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, TZ: ':UTC', LANG: 'en_US.UTF-8', NODE_ENV: 'production' };
  for (const [name, value] of Object.entries(settings)) if (value !== undefined) env[name] = value;
  return env;
}
