/**
 * The real one-pass bundling step: every route, the authorizer, the scheduled jobs and the
 * migration handler in one esbuild build, each in its own folder, small enough and loadable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleResult, bundleFunctions } from '../../infra/bundle';
import { BUNDLE_LIMIT, bundleSizeLimit } from '../../infra/bundle-limits';
import { bundleEntries, bundledCode, MIGRATIONS_ASSET_DIR, PLATFORM_BUNDLES } from '../../infra/functions';
import { REDOC_SCRIPT_FILE, redocScriptInPackage } from '../../functions/docs/redoc-script';
import { ROUTES } from '../../functions/routes';
import { etagOf } from '../../shared/http/etag';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { LOCAL_SERVER, openApiText } from '../../shared/http/openapi-source';
import { realRoutes, repoRoot, resourcesOf, type SynthesizedStage, synthStage } from './synth';

const routes = realRoutes();

/** The chunks a bundle's code imports statically (what loading it loads), not the ones it import()s. */
function staticChunks(dir: string, code: string): string[] {
  return [...code.matchAll(/from\s*"\.\/([\w-]+\.mjs)"/g)].map(([, file]) => readFileSync(join(dir, file), 'utf8'));
}
let workDir: string;
let result: BundleResult;
let synthesized: SynthesizedStage;

beforeAll(async () => {
  mkdirSync(join(repoRoot, 'cdk.out'), { recursive: true });
  workDir = mkdtempSync(join(repoRoot, 'cdk.out', 'test-bundles-'));
  result = await bundleFunctions(bundleEntries(routes, buildOpenApiDocument(ROUTES)), {
    root: repoRoot,
    outdir: join(workDir, 'bundles'),
    sizesFile: join(workDir, 'bundle-sizes.json'),
  });
  synthesized = synthStage({ stage: 'sandbox', code: bundledCode(result.dirs) });
}, 600_000);
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
    for (const [name, size] of Object.entries(result.sizes)) {
      const limit = bundleSizeLimit(name, readFileSync(join(result.dirs[name], 'index.mjs'), 'utf8'));
      expect(size, `${name}: ${size} bytes`).toBeLessThan(limit);
    }
  });

  it('bundles the AWS SDK, the versions package.json pins, and ships no source maps', () => {
    const pinned = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    for (const [name, dir] of Object.entries(result.dirs)) {
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      // Nothing is left for the runtime's own copy of the SDK to provide.
      expect(code, name).not.toMatch(/(from|import\()\s*"@aws-sdk\//);
      expect(code, name).not.toMatch(/sourceMappingURL/);
    }
    const migrate = readFileSync(join(result.dirs[PLATFORM_BUNDLES.migrateDatabase], 'index.mjs'), 'utf8');
    // A client's user agent names its package version: the one installed from package.json.
    expect(migrate).toContain(`"${pinned['@aws-sdk/client-secrets-manager']}"`);
    expect(readdirSync(result.dirs['locations/create-location']).sort()).toEqual(['index.mjs']);
  });

  it("carries the SDK's DynamoDB and EventBridge clients and Powertools Logger and Metrics in a write (the clients not in a read), Secrets Manager's where cards are charged, and the RDS signer wherever the database is used", () => {
    const code = (name: string) => readFileSync(join(result.dirs[name], 'index.mjs'), 'utf8');
    // The service identifiers in each client's protocol (its X-Amz-Target prefix) and signing name.
    const write = code('locations/create-location');
    expect(write).toContain('DynamoDB_20120810');
    expect(write).toContain('AWSEvents');
    expect(write).toContain('Failed to save in progress record to idempotency store');
    // Powertools Logger and Metrics, by the settings each reads from the environment.
    expect(write).toContain('POWERTOOLS_LOGGER_SAMPLE_RATE');
    expect(write).toContain('POWERTOOLS_METRICS_NAMESPACE');
    const charging = Object.keys(result.dirs).filter((name) => code(name).includes('STRIPE_SECRET_ARN'));
    expect(charging.length).toBeGreaterThan(0);
    for (const name of charging) expect(code(name), name).toContain('secretsmanager');
    const read = code('locations/get-location');
    expect(read).toContain('rds-db');
    // A read publishes nothing: the publisher and its client come with the write layer (shared/http/idempotent.ts).
    expect(read).not.toContain('AWSEvents');
    expect(read).not.toContain('DynamoDB_20120810');
    expect(read).not.toContain('secretsmanager');
  });

  it('ships the idempotency layer with writes only', () => {
    // A message of shared/http/idempotency-store.ts: present exactly where the store is.
    const marker = 'IDEMPOTENCY_TABLE_NAME is not set';
    for (const route of routes) {
      const code = readFileSync(join(result.dirs[route.key], 'index.mjs'), 'utf8');
      expect(code.includes(marker), `${route.key} (${route.method})`).toBe(route.method !== 'GET');
    }
  });

  it('ships no pg-native client (a native addon, infra/bundle-shims/pg-native.ts)', () => {
    for (const [name, dir] of Object.entries(result.dirs)) expect(readFileSync(join(dir, 'index.mjs'), 'utf8'), name).not.toMatch(/\("pg-native"\)/);
  });

  it('validates with the zod it bundles', () => {
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

  it("leaves a public route's declaration out of its bundle: the handler is served from its serving part, without zod", () => {
    for (const route of routes.filter((candidate) => candidate.auth === 'none')) {
      const declared = ROUTES.find((candidate) => candidate.id === route.id)!;
      const code = readFileSync(join(result.dirs[route.key], 'index.mjs'), 'utf8');
      expect(code, route.key).not.toContain(declared.summary);
      // zod and the input reader sit in a chunk beside it, which only a request bringing input loads.
      const loaded = [code, ...staticChunks(result.dirs[route.key], code)].join('\n');
      expect(loaded, route.key).not.toMatch(/\$ZodObject/);
    }
  });

  it('answers a public request that brings input from the chunk that reads it', () => {
    const script = `const { handler } = await import(process.argv[1] + '/index.mjs');
      const response = await handler({ httpMethod: 'GET', path: '/docs', headers: {}, queryStringParameters: { surprise: '1' }, requestContext: { requestId: 'r' } }, { getRemainingTimeInMillis: () => 1000 });
      const body = JSON.parse(response.body);
      console.log(JSON.stringify({ status: response.statusCode, code: body.code, param: body.param }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, result.dirs['docs/get-docs']], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual({ status: 400, code: 'parameter_unknown', param: 'surprise' });
  });

  it("ships the generated OpenAPI document beside the OpenAPI function, which serves it naming the deployment's server", () => {
    const dir = result.dirs['openapi/get-openapi'];
    const shippedText = readFileSync(join(dir, 'openapi.json'), 'utf8');
    const shipped = JSON.parse(shippedText) as { openapi: string };
    expect(shipped.openapi).toBe('3.1.0');
    // The function puts the deployment's server in place of the placeholder's first occurrence: there is one.
    expect(shippedText.split(`"servers":${JSON.stringify([LOCAL_SERVER])}`)).toHaveLength(2);
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
    const servers = [{ url: 'https://api.example.com/sandbox', description: 'Sandbox: test keys and test data only.', 'x-internal': false }];
    expect(served.body === openApiText({ ...shipped, servers })).toBe(true);
    expect(served.body).toMatch(/^[\x20-\x7e]+$/);
    // A strong tag of its own: not the shipped document's, and another deployment's differs.
    expect(served.etag).toMatch(/^"[\w-]{32}-[0-9a-z]+"$/);
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
      // The pipeline with zod and Powertools Logger and Metrics is about 175 kB; pg and the data layer would add some 75 kB more.
      expect(code.length, key).toBeLessThan(200_000);
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

  it('produces ES modules that load and export handler', () => {
    const script = `
      import { createRequire } from 'node:module';
      const loaded = createRequire(import.meta.url).cache;
      const dirs = JSON.parse(process.argv[1]);
      const failures = [];
      for (const [name, dir] of Object.entries(dirs)) {
        try {
          const mod = await import(dir + '/index.mjs');
          if (typeof mod.handler !== 'function') failures.push(name + ': no handler export');
        } catch (error) {
          failures.push(name + ': ' + error.message);
        }
      }
      console.log(JSON.stringify(failures));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(result.dirs)], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', POWERTOOLS_LOG_LEVEL: 'ERROR' },
    });
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual([]);
  }, 300_000);
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
