import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { schemaTypesOf } from '../../client/schema-types';
import { ROUTES } from '../../functions/routes';
import { ERROR_CATALOG, type ErrorCode } from '../../shared/errors';
import { ERROR_STATUS } from '../../shared/http/error-status';
import type { RouteSchemas } from '../../shared/http/route';
import { setupTestApi } from '../support/harness';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const api = setupTestApi();

/** The parts of the OpenAPI document these tests read (the route types it as a record of unknown). */
interface OpenApiDocument {
  info: { description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation | undefined>>;
  components: {
    schemas: Record<string, { title?: string; description?: string; required?: string[]; properties?: Record<string, unknown> }> & {
      Error: { title?: string; description?: string; required: string[]; properties: { code: { enum: string[] }; doc_url: { type: string } } };
    };
  };
  'x-error-catalog': Record<string, { status: number }>;
}
interface OpenApiOperation {
  operationId: string;
  'x-required-scopes': string[];
  security: unknown;
  parameters: { in: string; name: string }[];
  requestBody: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { content: Record<string, { schema?: unknown; 'x-error-codes'?: string[] }> }>;
}
const openApiDocument = async () => (await api.request('GET', '/v1/openapi.json')).body as unknown as OpenApiDocument;

describe('GET /v1/openapi.json', () => {
  it('is served without a key and is a valid OpenAPI 3.1 document', async () => {
    const response = await api.request('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeTruthy();
    expect(response.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route with its scopes, parameters, bodies and responses', async () => {
    const doc = await openApiDocument();
    for (const route of ROUTES.filter((route) => route.path.startsWith('/v1/'))) {
      const found = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(found, `${route.method} ${route.path}`).toBeDefined();
      const operation = found!;
      expect(operation.operationId).toBe(route.id);
      if (route.auth === 'api_key') {
        expect(operation['x-required-scopes']).toEqual(route.scopes);
        expect(operation.security).toEqual(
          route.scopeMatch === 'any' ? route.scopes.map((scope) => ({ bearerAuth: [scope] })) : [{ bearerAuth: route.scopes }],
        );
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '404', '429', '500']));
      }
      if (route.body) expect(operation.requestBody.content['application/json'].schema).toBeDefined();
      if (route.auth === 'none' && route.contentType) {
        expect(Object.keys(operation.responses['200'].content), route.id).toEqual([route.contentType]);
        continue;
      }
      expect(operation.responses[String(route.successStatus ?? 200)].content['application/json'].schema).toBeDefined();
      const schemas: RouteSchemas = route;
      for (const name of Object.keys(schemas.params?.shape ?? {})) {
        expect(operation.parameters.some((p) => p.in === 'path' && p.name === name)).toBe(true);
      }
      for (const name of Object.keys(schemas.query?.shape ?? {})) {
        expect(operation.parameters.some((p) => p.in === 'query' && (p.name === name || p.name === `${name}[]`))).toBe(true);
      }
    }
  });

  it('lists every error code of the catalog, with its status', async () => {
    const doc = await openApiDocument();
    expect(doc.components.schemas.Error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    for (const code of Object.keys(ERROR_CATALOG)) expect(doc['x-error-catalog'][code].status).toBe(ERROR_STATUS[code as ErrorCode]);
    const codesInResponses = new Set<string>();
    for (const item of Object.values(doc.paths))
      for (const operation of Object.values(item))
        for (const response of Object.values(operation?.responses ?? {}))
          for (const code of response.content?.['application/json']?.['x-error-codes'] ?? []) codesInResponses.add(code);
    for (const code of ['insufficient_scope', 'idempotency_key_reused', 'precondition_failed', 'expand_error', 'location_name_taken', 'manufacturer_in_use']) {
      expect(codesInResponses.has(code), code).toBe(true);
    }
  });
});

describe('the document integrators use', () => {
  it('passes redocly lint with the rules of redocly.yaml: no error, no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bizops-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, (await api.request('GET', '/v1/openapi.json')).text);
      const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
      const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', join(repoRoot, 'redocly.yaml'), '--format=json'], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const report = JSON.parse(run.stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
      };
      const problems = report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('yields the committed client types (client/schema.d.ts)', async () => {
    const served = (await api.request('GET', '/v1/openapi.json')).body;
    const committed = readFileSync(join(repoRoot, 'client/schema.d.ts'), 'utf8').split('\n');
    const fresh = (await schemaTypesOf(served)).split('\n');
    // Not a diff of the whole file (over 1 MB): the first line that differs, and what to do.
    const line = fresh.findIndex((text, index) => committed[index] !== text);
    const where = line === -1 ? `it has ${committed.length - fresh.length} extra lines` : `line ${line + 1} should read ${JSON.stringify(fresh[line])}`;
    expect(line === -1 && committed.length === fresh.length, `client/schema.d.ts is stale (${where}): run \`npm run client:generate\``).toBe(true);
  }, 60_000);

  it('names the serving deployment as its server', async () => {
    expect((await openApiDocument()).servers).toEqual([{ url: 'http://localhost:3000', description: 'Local: this machine (npm start).', 'x-internal': false }]);
    process.env.PUBLIC_BASE_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/sandbox';
    process.env.STAGE_NAME = 'sandbox';
    try {
      expect((await openApiDocument()).servers).toEqual([
        { url: 'https://abc123.execute-api.eu-west-1.amazonaws.com/sandbox', description: 'Sandbox: test keys and test data only.', 'x-internal': false },
      ]);
      const missing = await api.request('GET', '/v1/locations');
      expect(missing.error.doc_url).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/sandbox/docs#error-api_key_missing');
    } finally {
      delete process.env.PUBLIC_BASE_URL;
      delete process.env.STAGE_NAME;
    }
  });

  it('titles and describes every component, describes every tag, and gives the Error envelope its doc_url', async () => {
    const doc = await openApiDocument();
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(schema.title, name).toBe(name);
      expect(schema.description, `${name}: describe it in its .meta() or in COMPONENT_DESCRIPTIONS (shared/http/openapi.ts)`).toBeTruthy();
    }
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(doc.components.schemas.Error.required).toContain('doc_url');
  });

  it('has an Errors section with one anchor per code of the catalog, where every envelope points', async () => {
    const { description } = (await openApiDocument()).info;
    expect(description).toContain('# Errors');
    for (const [code, { hint }] of Object.entries(ERROR_CATALOG)) {
      const shown = code.replace(/_/g, '_<wbr>');
      expect(description, code).toContain(`<tr id="error-${code}"><td><code>${shown}</code></td><td>${ERROR_STATUS[code as ErrorCode]}</td>`);
      if (!/[<>&`]/.test(hint)) expect(description, code).toContain(hint);
    }
    const notFound = await api.raw('GET', '/v1/no-such-thing');
    expect(notFound.error).toMatchObject({ code: 'route_not_found', doc_url: 'http://localhost:3000/docs#error-route_not_found' });
  });

  it('is served compressed per Accept-Encoding, with an ETag and 304', async () => {
    const url = `${api.baseUrl}/v1/openapi.json`;
    const plain = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
    const text = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    const etag = plain.headers.get('etag')!;
    // A strong tag, the same on every request of the same document.
    expect(etag).toMatch(/^"[\w-]{32}-[0-9a-z]+"$/);
    expect((await fetch(url, { headers: { 'Accept-Encoding': 'identity' } })).headers.get('etag')).toBe(etag);
    for (const encoding of ['gzip', 'br']) {
      const compressed = await fetch(url, { headers: { 'Accept-Encoding': encoding } });
      expect(compressed.headers.get('content-encoding'), encoding).toBe(encoding);
      expect(compressed.headers.get('vary')).toBe('Accept-Encoding');
      expect(compressed.headers.get('etag')).toBe(etag);
      expect(await compressed.text()).toBe(text); // fetch decodes it
    }
    // What goes over the wire: a fraction of the document.
    const wire = await new Promise<Buffer>((resolve, reject) => {
      void import('node:http').then(({ get }) =>
        get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks)));
        }).on('error', reject),
      );
    });
    expect(gunzipSync(wire).toString('utf8')).toBe(text);
    expect(wire.length).toBeLessThan(text.length / 10);
    const again = await fetch(url, { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves the reference page and its script without a key', async () => {
    const page = await api.raw('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<div id="reference"></div>');
    const script = await api.raw('GET', '/docs/redoc.standalone.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text).toBe(readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8'));
  });
});
