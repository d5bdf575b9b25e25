/**
 * The real one-pass bundling step: every route, the authorizer, the scheduled jobs and the
 * migration handler in one esbuild build, each in its own folder, small enough and loadable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleResult, bundleFunctions } from '../../infra/bundle';
import { bundleEntries, bundledCode, MIGRATIONS_ASSET_DIR, PLATFORM_BUNDLES } from '../../infra/functions';
import { REDOC_SCRIPT_FILE, redocScriptInPackage } from '../../functions/docs/redoc-script';
import { ROUTES } from '../../functions/routes';
import { etagOf } from '../../shared/http/etag';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { openApiText } from '../../shared/http/openapi-source';
import { realRoutes, repoRoot, resourcesOf, type SynthesizedStage, synthStage } from './synth';

/**
 * Every function ships under 450 KB minified (the cold start, measured by bench/, is what matters
 * more). What the routes share weighs about 240 KB (zod, pg, Powertools idempotency in the writes
 * (its JMESPath interpreter replaced by a field-path stand-in, see infra/bundle-shims), middy and
 * the handler stack, decimal.js-light where money is involved), so a route that drags in something
 * big (a non-tree-shaken zod namespace alone adds ~360 KB, the route table several hundred) fails here.
 */
const BUNDLE_LIMIT = 450 * 1024;
const routes = realRoutes();
let workDir: string;
let result: BundleResult;
let synthesized: SynthesizedStage;

beforeAll(async () => {
  // Inside the repository, so the smoke test below resolves the AWS SDK (external, provided by
  // the Lambda runtime) from node_modules the way the runtime resolves its own copy.
  mkdirSync(join(repoRoot, 'cdk.out'), { recursive: true });
  workDir = mkdtempSync(join(repoRoot, 'cdk.out', 'test-bundles-'));
  result = await bundleFunctions(bundleEntries(routes, buildOpenApiDocument(ROUTES)), {
    root: repoRoot,
    outdir: join(workDir, 'bundles'),
    sizesFile: join(workDir, 'bundle-sizes.json'),
  });
  synthesized = synthStage({ stage: 'sandbox', code: bundledCode(result.dirs) });
}, 120_000);
afterAll(() => {
  synthesized?.cleanup();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('bundleFunctions', () => {
  it('writes one folder with index.mjs per function', () => {
    const names = [...routes.map((route) => route.key), ...Object.values(PLATFORM_BUNDLES)].sort();
    expect(Object.keys(result.dirs).sort()).toEqual(names);
    for (const name of names) expect(existsSync(join(result.dirs[name], 'index.mjs')), name).toBe(true);
  });

  it(`keeps every function bundle under ${BUNDLE_LIMIT / 1024} KB minified`, () => {
    for (const [name, size] of Object.entries(result.sizes)) expect(size, `${name}: ${size} bytes`).toBeLessThan(BUNDLE_LIMIT);
  });

  it('leaves the AWS SDK to the runtime and ships no source maps', () => {
    const routeBundle = readFileSync(join(result.dirs['locations/create-location'], 'index.mjs'), 'utf8');
    expect(routeBundle).not.toMatch(/sourceMappingURL/);
    const migrate = readFileSync(join(result.dirs[PLATFORM_BUNDLES.migrateDatabase], 'index.mjs'), 'utf8');
    expect(migrate).toMatch(/from\s*"@aws-sdk\/client-secrets-manager"/);
    expect(readdirSync(result.dirs['locations/create-location']).sort()).toEqual(['index.mjs', 'powertools-idempotency.cjs']);
  });

  it('loads no DynamoDB or EventBridge package in any function: records and events go through shared/aws-json.ts', () => {
    // A static import of an external package is hoisted to the top of the bundle and runs on every cold start;
    // a client's evaluation and first call cost about 100 ms even when import()ed on first use, the codec's import 7–11 ms.
    for (const [name, dir] of Object.entries(result.dirs)) {
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code, name).not.toMatch(/"@aws-sdk\/(client|lib|util)-dynamodb"/);
      expect(code, name).not.toMatch(/"@aws-sdk\/client-eventbridge"/);
    }
    const mutating = readFileSync(join(result.dirs['locations/create-location'], 'index.mjs'), 'utf8');
    expect(mutating).toContain('DynamoDB_20120810');
    expect(mutating).toContain('AWSEvents');
  });

  it('loads the Secrets Manager client in no function but the migration step: the others log in with IAM tokens', () => {
    // The Secrets Manager client's evaluation and first call are the same kind of cold-start cost as the DynamoDB client's;
    // the routes that charge cards read the Stripe key with one signed call (shared/aws-json.ts).
    const readers = Object.entries(result.dirs)
      .filter(([, dir]) => readFileSync(join(dir, 'index.mjs'), 'utf8').includes('@aws-sdk/client-secrets-manager'))
      .map(([name]) => name);
    expect(readers).toEqual([PLATFORM_BUNDLES.migrateDatabase]);
    const charging = Object.entries(result.dirs).filter(([, dir]) => readFileSync(join(dir, 'index.mjs'), 'utf8').includes('STRIPE_SECRET_ARN'));
    expect(charging.length).toBeGreaterThan(0);
    for (const [name, dir] of charging) expect(readFileSync(join(dir, 'index.mjs'), 'utf8'), name).toContain('secretsmanager');
    const route = readFileSync(join(result.dirs['locations/get-location'], 'index.mjs'), 'utf8');
    expect(route).toContain('Action:"connect"');
    expect(route).toContain('rds-db');
  });

  it('ships the idempotency layer with writes only', () => {
    // A message of shared/http/idempotency-store.ts: present exactly where the store is.
    const marker = 'IDEMPOTENCY_TABLE_NAME is not set';
    for (const route of routes) {
      const code = readFileSync(join(result.dirs[route.key], 'index.mjs'), 'utf8');
      expect(code.includes(marker), `${route.key} (${route.method})`).toBe(route.method !== 'GET');
    }
  });

  it('loads neither TLS nor the response-streaming streams at module load, and ships no pg-native client', () => {
    // Each is a static import hoisted to the top of every bundle: TLS is loaded by the first TLS
    // connection, and nothing streams responses (infra/bundle-shims/pg-stream.ts, middy-streams.ts).
    for (const [name, dir] of Object.entries(result.dirs)) {
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code, name).not.toMatch(/from\s*"node:(tls|stream|stream\/web|stream\/promises)"/);
      expect(code, name).not.toMatch(/\("pg-native"\)/);
    }
  });

  it("validates with zod but ships none of zod's JSON Schema code (the OpenAPI document is generated at synth)", () => {
    for (const [name, dir] of Object.entries(result.dirs)) {
      for (const file of readdirSync(dir).filter((file) => /\.(mjs|cjs)$/.test(file))) {
        expect(readFileSync(join(dir, file), 'utf8').includes('draft-2020-12'), `${name}/${file}`).toBe(false);
      }
    }
    // A bundled read refuses a malformed id and an unknown query parameter before it touches the database.
    const script = `const { handler } = await import(process.argv[1] + '/index.mjs');
      const authorizer = { entityId: '00000000-0000-4000-8000-000000000001', entityCode: 'E1', keyId: 'k', userId: 'u', mode: 'test', scopes: 'settings:read' };
      const answers = [];
      for (const [pathParameters, queryStringParameters] of [[{ id: 'not-an-id' }, null], [{ id: '00000000-0000-4000-8000-000000000002' }, { surprise: '1' }]]) {
        const response = await handler({ httpMethod: 'GET', path: '/v1/locations/x', headers: {}, pathParameters, queryStringParameters, requestContext: { requestId: 'r', authorizer } }, { getRemainingTimeInMillis: () => 1000 });
        const body = JSON.parse(response.body);
        answers.push({ status: response.statusCode, code: body.code, param: body.param });
      }
      console.log(JSON.stringify(answers));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, result.dirs['locations/get-location']], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual([
      { status: 400, code: 'parameter_invalid', param: 'id' },
      { status: 400, code: 'parameter_unknown', param: 'surprise' },
    ]);
  });

  it('bundles zod with the function, tree-shaken: without its locales', () => {
    const code = readFileSync(join(result.dirs['locations/get-location'], 'index.mjs'), 'utf8');
    expect(code).toMatch(/\$ZodObject/);
    // The locales are most of what a whole namespace would add (about 450 kB).
    expect(code).not.toMatch(/Nombre|Zeichenkette/);
  });

  it('ships Powertools idempotency in its own file beside every API-key write, none beside a read, and in no index.mjs', () => {
    // A message of Powertools' own handler: in the file loaded with the first Idempotency-Key, nowhere else.
    const powertoolsCode = 'Failed to save in progress record to idempotency store';
    const sideFile = readFileSync(join(result.dirs['locations/create-location'], 'powertools-idempotency.cjs'), 'utf8');
    expect(sideFile).toContain(powertoolsCode);
    for (const route of routes) {
      const dir = result.dirs[route.key];
      expect(readFileSync(join(dir, 'index.mjs'), 'utf8').includes(powertoolsCode), route.key).toBe(false);
      const file = join(dir, 'powertools-idempotency.cjs');
      const writes = route.auth === 'api_key' && route.method !== 'GET';
      expect(existsSync(file), route.key).toBe(writes);
      if (writes) expect(readFileSync(file, 'utf8') === sideFile, route.key).toBe(true);
    }
    expect(existsSync(join(result.dirs['authorizer/authorizer'], 'powertools-idempotency.cjs'))).toBe(false);
  });

  it("ships the generated OpenAPI document beside the OpenAPI function, which serves it naming the deployment's server", () => {
    const dir = result.dirs['openapi/get-openapi'];
    const shippedText = readFileSync(join(dir, 'openapi.json'), 'utf8');
    const shipped = JSON.parse(shippedText) as { openapi: string };
    expect(shipped.openapi).toBe('3.1.0');
    // The document's ETag is written beside it, so the function never hashes 1.7 MB.
    expect(readFileSync(join(dir, 'openapi.json.etag'), 'utf8')).toBe(etagOf(shippedText));
    const serve = (publicBaseUrl: string) => {
      const script = `const { handler } = await import(process.argv[1] + '/index.mjs');
        const get = (headers) => handler({ httpMethod: 'GET', path: '/v1/openapi.json', headers, requestContext: { requestId: 'r' } }, { getRemainingTimeInMillis: () => 1000 });
        const response = await get({});
        const again = await get({ 'If-None-Match': response.headers.ETag });
        console.log(JSON.stringify({ status: response.statusCode, type: response.headers['Content-Type'], etag: response.headers.ETag, body: response.body, again: again.statusCode }));`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, dir], {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, NODE_ENV: 'production', STAGE_NAME: 'sandbox', PUBLIC_BASE_URL: publicBaseUrl },
      });
      return JSON.parse(output.trim().split('\n').at(-1)!) as { status: number; type: string; etag: string; body: string; again: number };
    };
    const served = serve('https://api.example.com/sandbox');
    expect({ status: served.status, type: served.type, again: served.again }).toEqual({ status: 200, type: 'application/json', again: 304 });
    // Byte for byte what replacing the member in the parsed document would give, as ASCII JSON.
    const servers = [{ url: 'https://api.example.com/sandbox', description: 'Sandbox: test keys and test data only.' }];
    expect(served.body === openApiText({ ...shipped, servers })).toBe(true);
    expect(served.body).toMatch(/^[\x20-\x7e]+$/);
    // A strong tag of its own: not the shipped document's, and another deployment's differs.
    expect(served.etag).toMatch(/^"[\w-]{32}"$/);
    expect(served.etag).not.toBe(etagOf(shippedText));
    const elsewhere = serve('https://api.example.org/v');
    expect(elsewhere.body).not.toBe(served.body);
    expect(elsewhere.etag).not.toBe(served.etag);
    expect(serve('https://api.example.com/sandbox').etag).toBe(served.etag);
  });

  it('bundles no data layer into the public functions', () => {
    for (const key of ['openapi/get-openapi', 'docs/get-docs', 'docs/get-docs-script']) {
      const code = readFileSync(join(result.dirs[key], 'index.mjs'), 'utf8');
      // pg's SCRAM login and the transaction's opening batch: present in every database function, absent here.
      expect(code, key).not.toContain('SCRAM-SHA-256');
      expect(code, key).not.toContain('idle_in_transaction_session_timeout');
      // The pipeline with zod is about 120 kB; pg and the data layer would add some 75 kB more.
      expect(code.length, key).toBeLessThan(150_000);
    }
    expect(readFileSync(join(result.dirs['locations/get-location'], 'index.mjs'), 'utf8')).toContain('SCRAM-SHA-256');
  });

  it("ships Redoc's bundle as a file beside the docs script function (not in its code), which serves it", () => {
    const dir = result.dirs['docs/get-docs-script'];
    const shipped = readFileSync(join(dir, REDOC_SCRIPT_FILE), 'utf8');
    expect(shipped).toBe(readFileSync(redocScriptInPackage(), 'utf8'));
    expect(readFileSync(join(dir, `${REDOC_SCRIPT_FILE}.etag`), 'utf8')).toBe(etagOf(shipped));
    expect(result.sizes['docs/get-docs-script']).toBeLessThan(BUNDLE_LIMIT);
    const script = `const { handler } = await import(process.argv[1] + '/index.mjs');
      const response = await handler({ httpMethod: 'GET', path: '/docs/${REDOC_SCRIPT_FILE}', headers: {}, requestContext: { requestId: 'r' } }, { getRemainingTimeInMillis: () => 1000 });
      console.log(JSON.stringify({ status: response.statusCode, type: response.headers['Content-Type'], etag: response.headers.ETag, length: response.body.length }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, dir], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      etag: etagOf(shipped),
      length: shipped.length,
    });
  });

  it('copies the SQL migrations into the migration function', () => {
    const copied = readdirSync(join(result.dirs[PLATFORM_BUNDLES.migrateDatabase], MIGRATIONS_ASSET_DIR));
    expect(copied.sort()).toEqual(readdirSync(join(repoRoot, 'migrations')).sort());
  });

  it('records the sizes for the benchmark', () => {
    expect(JSON.parse(readFileSync(join(workDir, 'bundle-sizes.json'), 'utf8'))).toEqual(result.sizes);
  });

  it('produces ES modules that load and export handler, and do not load Powertools idempotency', () => {
    const script = `
      import { createRequire } from 'node:module';
      const loaded = createRequire(import.meta.url).cache;
      const dirs = JSON.parse(process.argv[1]);
      const failures = [];
      for (const [name, dir] of Object.entries(dirs)) {
        try {
          const mod = await import(dir + '/index.mjs');
          if (typeof mod.handler !== 'function') failures.push(name + ': no handler export');
          if (loaded[dir + '/powertools-idempotency.cjs']) failures.push(name + ': loads Powertools idempotency at import');
        } catch (error) {
          failures.push(name + ': ' + error.message);
        }
      }
      console.log(JSON.stringify(failures));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(result.dirs)], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1', POWERTOOLS_LOG_LEVEL: 'ERROR' },
    });
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual([]);
  }, 120_000);
});

describe('synthesis with the real bundles', () => {
  it('deploys each function from its own folder as a zip asset', () => {
    const assetKeys = synthesized.routeStacks.flatMap((template) =>
      resourcesOf<{ Code: { S3Key: string } }>(template, 'AWS::Lambda::Function').map((fn) => fn.Properties.Code.S3Key),
    );
    expect(assetKeys).toHaveLength(routes.length);
    expect(new Set(assetKeys).size).toBe(routes.length);
    for (const key of assetKeys) expect(key).toMatch(/^[0-9a-f]{64}\.zip$/);
  });
});
