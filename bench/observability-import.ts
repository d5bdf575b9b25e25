/**
 * What logging and metrics cost a cold start: the empty handler against the same handler with
 * Powertools Logger, Powertools Metrics, and the app's own logger and EMF writer (shared/log.ts,
 * shared/metrics.ts), each bundled like a route and imported in a fresh process
 * (bench/cold-start-child.mjs), interleaved so machine load hits every variant alike.
 *
 *   npx tsx bench/observability-import.ts [--samples=25]
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine } from '../local/command-line';
import { BENCH_DIR, REPO_DIR, RESULTS_DIR, bundleProbes, lambdaEnvironment, median, printTable, summarize, writeResults } from './lib';

const { values } = parseCommandLine('usage: npx tsx bench/observability-import.ts [--samples=N]', { options: ['samples'] });
const SAMPLES = Math.min(Number(values.samples ?? 25), 200);
const OUT_DIR = join(RESULTS_DIR, 'observability-build');

const VARIANTS = [
  { name: 'empty', entry: 'bench/fixtures/empty-handler.ts' },
  { name: 'powertools-logger', entry: 'bench/fixtures/powertools-logger.ts' },
  { name: 'powertools-metrics', entry: 'bench/fixtures/powertools-metrics.ts' },
  { name: 'own-log-and-emf', entry: 'bench/fixtures/own-observability.ts' },
];

const { dirs, eventFile } = await bundleProbes(VARIANTS, OUT_DIR);

const samples = new Map<string, number[]>(VARIANTS.map((variant) => [variant.name, []]));
for (let round = 0; round < SAMPLES; round++) {
  for (const variant of VARIANTS) {
    const child = spawnSync(process.execPath, [join(BENCH_DIR, 'cold-start-child.mjs'), join(dirs[variant.name], 'index.mjs'), eventFile], {
      cwd: REPO_DIR,
      encoding: 'utf8',
      env: lambdaEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' }),
    });
    const line = child.stdout.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
    if (!line) throw new Error(`${variant.name} failed:\n${child.stdout}\n${child.stderr}`);
    samples.get(variant.name)!.push((JSON.parse(line.slice('BENCH_RESULT '.length)) as { totalMs: number }).totalMs);
  }
}

const baseline = median(samples.get('empty')!);
const rows = VARIANTS.map((variant) => {
  const summary = summarize(samples.get(variant.name)!);
  const bytes = statSync(join(dirs[variant.name], 'index.mjs')).size;
  return { name: variant.name, bytes, ...summary, ratio: summary.p50 / baseline };
});
printTable(
  `import + first call, ${SAMPLES} fresh processes each (ms)`,
  ['variant', 'bundle bytes', 'p50', 'p95', 'ratio to empty (p50)'],
  rows.map((row) => [row.name, row.bytes, row.p50, row.p95, row.ratio]),
);
writeResults('observability-import', { samples: SAMPLES, rows });
