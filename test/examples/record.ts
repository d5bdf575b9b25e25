/**
 * `npm run examples:record [-- [--all] [test files...]]`: the OpenAPI document's examples, recorded
 * from real traffic. Runs integration test files (default: RECORDING_FILES) against PostgreSQL
 * with the typed test client's tap on (test/support/example-tap.ts), keeps one successful
 * exchange per operation, gives its ids and keys stable-looking values, and writes
 * shared/http/openapi-examples.json, which buildOpenApiDocument merges into the document.
 *
 * Operations that already have an example keep it (so re-recording does not churn the file);
 * --all records every operation afresh. test/unit/openapi-examples.test.ts names each operation
 * still without an example and checks every example against its schema.
 */
import { spawnSync } from 'node:child_process';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTE_MODULES, ROUTES } from '../../functions/routes';
import { buildRouteTable } from '../../local/route-matcher';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { recordedExamples, type OperationExamples } from '../../shared/http/openapi-examples';
import type { RecordedExchange } from '../support/example-tap';
import { addDocumentKeywords, COMPONENTS_ID, pointAtDefs } from '../e2e/conformance';
import { exampleOf, fieldValues, missingExamples, RESPONSE_EXAMPLE_EXEMPT, type DocumentOperation } from './examples';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES_FILE = join(repoRoot, 'shared/http/openapi-examples.json');

/** The integration files whose traffic, together, reaches every operation. */
const RECORDING_FILES = readdirSync(join(repoRoot, 'test/integration'))
  .filter((name) => name.endsWith('.test.ts'))
  // Properties, refusals and limits: long runs whose successes the other files make anyway.
  .filter((name) => !/property|security-matrix|faults|gateway-limits|input-limits|bundled-functions|openapi/.test(name))
  .map((name) => `test/integration/${name}`);

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(
    'usage: npm run examples:record -- [--all] [--from=<dir>] [test files...]\n  default: the integration files; --all: re-record every operation; --from: the exchanges recorded in <dir> by RECORD_EXAMPLES_DIR=<dir>, without running tests',
  );
  process.exit(0);
}
const all = args.includes('--all');
/** --from=<dir>: the exchanges an earlier run recorded there, without running tests. */
const from = args.find((arg) => arg.startsWith('--from='))?.slice('--from='.length);
const files = args.filter((arg) => !arg.startsWith('--'));

const dir = from ?? mkdtempSync(join(tmpdir(), 'bizops-examples-'));
try {
  const run = from
    ? { status: 0 }
    : spawnSync('npx', ['vitest', 'run', '--project', 'app', ...(files.length ? files : RECORDING_FILES)], {
        cwd: repoRoot,
        stdio: 'inherit',
        env: { ...process.env, RECORD_EXAMPLES_DIR: dir },
      });
  if (run.status !== 0) console.warn('examples:record: some tests failed; recording what succeeded');

  const table = buildRouteTable(Object.values(ROUTE_MODULES));
  const byOperation = new Map<string, RecordedExchange[]>();
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
      const exchange = JSON.parse(line) as RecordedExchange;
      const match = table.match(exchange.method, decodeURI(exchange.path));
      if (!match) continue;
      const id = match.route.route.id;
      byOperation.set(id, [...(byOperation.get(id) ?? []), exchange]);
    }
  }

  const fields = fieldValues([...byOperation.values()].flat().map((exchange) => exchange.response));
  const document = buildOpenApiDocument(ROUTES, {}) as {
    paths: Record<string, Record<string, DocumentOperation>>;
    components: { schemas: Record<string, unknown> };
  };
  const ajv = addDocumentKeywords(new Ajv2020({ strict: true }));
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: pointAtDefs(document.components.schemas) });
  const fits = (value: unknown, schema: Record<string, unknown>): boolean => ajv.validate(pointAtDefs(schema) as object, value);
  const existing = recordedExamples();
  const next: OperationExamples = all ? {} : { ...existing };
  let added = 0;
  for (const route of ROUTES) {
    if ((!all && existing[route.id]) || RESPONSE_EXAMPLE_EXEMPT.has(route.id)) continue;
    const exchanges = byOperation.get(route.id);
    if (!exchanges) continue;
    next[route.id] = exampleOf(route, document.paths[route.path][route.method.toLowerCase()], exchanges, fields, fits);
    added += 1;
  }
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(EXAMPLES_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`examples:record: ${added} operation(s) recorded into shared/http/openapi-examples.json`);
  const missing = missingExamples(buildOpenApiDocument(ROUTES, sorted));
  if (missing.length) {
    console.log(`still without examples (run their tests: npm run examples:record -- <test file>):\n  ${missing.join('\n  ')}`);
    process.exitCode = 1;
  }
} finally {
  if (!from) rmSync(dir, { recursive: true, force: true });
}
