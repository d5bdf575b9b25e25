/**
 * The functions as they are deployed: the minified bundles of infra/bundle.ts, with its stand-ins
 * (pg's socket probe and native client, pgpass, zod's JSON Schema code, middy's streams), each
 * invocation in a fresh Node process (a cold start) on the real database, the authorizer's answer
 * passed to the routes as API Gateway passes it. Every other test runs the sources; this one holds
 * what ships to them: the bundles must answer exactly what the sources answer through the local
 * gateway.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleFunctions } from '../../infra/bundle';
import { bundleEntries } from '../../infra/functions';
import { routeSpecs } from '../../infra/routes';
import { ROUTE_MODULES, ROUTES } from '../../functions/routes';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { setupTestApi, type TestEntity } from '../support/harness';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();
const repoRoot = join(import.meta.dirname, '../..');
const BUNDLES = [
  'authorizer/authorizer',
  'locations/create-location',
  'locations/get-location',
  'locations/list-locations',
  'locations/update-location',
  'locations/delete-location',
  'orders/create-order',
  'orders/get-order',
  'orders/list-orders',
  'reconciliation/get-trial-balance',
] as const;
type BundleName = (typeof BUNDLES)[number];

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}
interface Policy {
  policyDocument: { Statement: { Effect: string }[] };
  context: Record<string, string>;
}

/** One invocation in a fresh process: imports the bundle, calls its handler with the event, prints the result. */
const CHILD = `
const [dir, event] = process.argv.slice(1);
const { handler } = await import(dir + '/index.mjs');
const result = await handler(JSON.parse(event), { functionName: 'bundled', awsRequestId: 'bundled', getRemainingTimeInMillis: () => 29000 });
console.log(JSON.stringify({ result }));
process.exit(0);
`;
/**
 * A cold start watched from the database: the connections the bundle holds (named by PGAPPNAME) once
 * it has loaded and before its first event (waiting up to a second for one to appear, unless the
 * event comes 'at-once'), then after it.
 */
const CONNECTIONS_CHILD = `
import pg from 'pg';
const [dir, event, when] = process.argv.slice(1);
const probe = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: 'bundled-probe' });
await probe.connect();
const held = async () =>
  Number((await probe.query('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [process.env.PGAPPNAME])).rows[0].n);
const { handler } = await import(dir + '/index.mjs');
const deadline = when === 'at-once' ? 0 : Date.now() + 1000;
let beforeEvent = await held();
while (beforeEvent === 0 && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 25));
  beforeEvent = await held();
}
const result = await handler(JSON.parse(event), { functionName: 'bundled', awsRequestId: 'bundled', getRemainingTimeInMillis: () => 29000 });
console.log(JSON.stringify({ statusCode: result.statusCode, effect: result.policyDocument?.Statement[0].Effect, beforeEvent, afterEvent: await held() }));
process.exit(0);
`;

let dirs: Record<string, string>;

function invoke<T = Answer>(bundle: BundleName, event: object): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CHILD, dirs[bundle], JSON.stringify(event)],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 30_000,
        // What the Lambda runtime gives: production, this file's database, the idempotency store the harness started.
        env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: api.databaseUrl, POWERTOOLS_LOG_LEVEL: 'ERROR', NODE_OPTIONS: '' },
      },
      (error, stdout, stderr) => {
        // A minified bundle's lines are long: the end of each stderr line is enough to name the failure.
        if (error)
          reject(
            new Error(
              `${bundle} failed (${error.code ?? error.signal}):\n${stderr
                .split('\n')
                .map((line) => line.slice(-300))
                .join('\n')}`,
            ),
          );
        else {
          resolve((JSON.parse(stdout.trim().split('\n').at(-1)!) as { result: T }).result);
        }
      },
    );
  });
}

/** The API Gateway REST proxy event of a request, as the authorizer's caller. */
function requestEvent(
  caller: Record<string, string>,
  method: string,
  resource: string,
  options: { params?: Record<string, string>; query?: Record<string, string>; headers?: Record<string, string>; body?: unknown } = {},
) {
  const path = resource.replace(/\{(\w+)\}/g, (_, name: string) => options.params![name]);
  return {
    httpMethod: method,
    resource,
    path,
    headers: { ...(options.body !== undefined && { 'Content-Type': 'application/json' }), ...options.headers },
    pathParameters: options.params ?? null,
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: options.query ? Object.fromEntries(Object.entries(options.query).map(([name, value]) => [name, [value]])) : null,
    body: options.body === undefined ? null : JSON.stringify(options.body),
    isBase64Encoded: false,
    requestContext: { requestId: `req_bundled_${method}_${path}`, authorizer: caller },
  };
}

async function authorized(owner: TestEntity): Promise<Record<string, string>> {
  const policy = await invoke<Policy>('authorizer/authorizer', {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-west-1:000000000000:api/prod/GET/v1/locations',
    headers: { Authorization: `Bearer ${owner.secret}` },
  });
  expect(policy.policyDocument.Statement[0].Effect).toBe('Allow');
  expect(policy.context).toMatchObject({ entityId: owner.entity.id, keyId: owner.key.id, mode: 'test' });
  return policy.context;
}

describe('the deployed bundles on the real database', () => {
  let workDir: string;

  beforeAll(async () => {
    mkdirSync(join(repoRoot, 'cdk.out'), { recursive: true });
    workDir = mkdtempSync(join(repoRoot, 'cdk.out', 'bundled-functions-'));
    const entries = bundleEntries(routeSpecs(ROUTE_MODULES), buildOpenApiDocument(ROUTES)).filter((entry) =>
      (BUNDLES as readonly string[]).includes(entry.name),
    );
    expect(entries.map((entry) => entry.name).sort()).toEqual([...BUNDLES].sort());
    dirs = (await bundleFunctions(entries, { root: repoRoot, outdir: join(workDir, 'bundles') })).dirs;
  }, 120_000);
  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('authorize, create once under an Idempotency-Key, refuse a bad field, read, list, update under If-Match and delete, as the sources do', async () => {
    const owner = await api.newEntity();
    const caller = await authorized(owner);
    const body = { name: 'Bundled warehouse', address1: '1 Harbour Road', city: 'Rotterdam', postal_code: '3011', country: 'NL' };
    const create = (sent: object, key: string) =>
      invoke('locations/create-location', requestEvent(caller, 'POST', '/v1/locations', { body: sent, headers: { 'Idempotency-Key': key } }));

    const created = await create(body, 'bundled-create');
    expect(created.statusCode, created.body).toBe(201);
    const location = JSON.parse(created.body) as { id: string };
    expect(location).toMatchObject({ object: 'location', name: 'Bundled warehouse', city: 'Rotterdam', livemode: false });
    expect(await create(body, 'bundled-create')).toMatchObject({ statusCode: 201, body: created.body, headers: { 'Idempotent-Replayed': 'true' } });
    const refused = await create({ ...body, city: 42 }, 'bundled-refused');
    // A body its schema refuses: the error the sources give.
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'parameter_invalid', param: 'city' });
    // One location: the replay and the refusal wrote nothing.
    expect(await owner.sql((db) => db.query('SELECT id FROM locations WHERE entity_id = $1', [owner.entity.id]))).toEqual([{ id: location.id }]);

    // The sources, through the local gateway, answer the same bytes and the same ETag.
    const read = await invoke('locations/get-location', requestEvent(caller, 'GET', '/v1/locations/{id}', { params: { id: location.id.toUpperCase() } }));
    const source = await api.raw('GET', `/v1/locations/${location.id}`, { key: owner.secret });
    expect(read.statusCode).toBe(200);
    expect(read.body).toBe(source.text);
    expect(read.headers.ETag).toBe(source.headers.get('etag'));
    // An id the schema refuses: the error the sources give.
    const badId = await invoke('locations/get-location', requestEvent(caller, 'GET', '/v1/locations/{id}', { params: { id: `${location.id}0` } }));
    const badIdSource = await api.raw('GET', `/v1/locations/${location.id}0`, { key: owner.secret });
    expect(badId.statusCode).toBe(400);
    expect(JSON.parse(badId.body)).toEqual({ ...badIdSource.error, request_id: expect.any(String) });
    expect(JSON.parse(badId.body)).toMatchObject({ code: 'parameter_invalid', param: 'id' });
    // A page and nothing else, or with a flag; a flag's value the schema refuses is refused as the sources refuse it.
    const listed = await invoke('locations/list-locations', requestEvent(caller, 'GET', '/v1/locations', { query: { limit: '1' } }));
    expect(listed.statusCode).toBe(200);
    expect(JSON.parse(listed.body)).toEqual(await api.get(owner, '/v1/locations', { limit: '1' }));
    const flagged = await invoke('locations/list-locations', requestEvent(caller, 'GET', '/v1/locations', { query: { limit: '1', is_active: 'true' } }));
    expect(flagged.statusCode).toBe(200);
    expect(JSON.parse(flagged.body)).toEqual(await api.get(owner, '/v1/locations', { limit: '1', is_active: 'true' }));
    const badFlag = await invoke('locations/list-locations', requestEvent(caller, 'GET', '/v1/locations', { query: { is_active: 'yes' } }));
    expect(badFlag.statusCode).toBe(400);
    expect(JSON.parse(badFlag.body)).toEqual({
      ...(await api.raw('GET', '/v1/locations?is_active=yes', { key: owner.secret })).error,
      request_id: expect.any(String),
    });
    expect(JSON.parse(badFlag.body)).toMatchObject({ code: 'parameter_invalid', param: 'is_active' });
    const badLimit = await invoke('locations/list-locations', requestEvent(caller, 'GET', '/v1/locations', { query: { limit: '101' } }));
    expect(badLimit.statusCode).toBe(400);
    expect(JSON.parse(badLimit.body)).toMatchObject({ code: 'parameter_invalid', param: 'limit' });

    const update = (etag: string) =>
      invoke(
        'locations/update-location',
        requestEvent(caller, 'PATCH', '/v1/locations/{id}', { params: { id: location.id }, headers: { 'If-Match': etag }, body: { city: 'Delft' } }),
      );
    const updated = await update(read.headers.ETag);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(JSON.parse(updated.body)).toEqual(await api.get(owner, `/v1/locations/${location.id}`));
    const stale = await update(read.headers.ETag);
    expect(stale.statusCode).toBe(412);
    expect(JSON.parse(stale.body)).toMatchObject({ code: 'precondition_failed', param: 'If-Match' });

    const deleted = await invoke('locations/delete-location', requestEvent(caller, 'DELETE', '/v1/locations/{id}', { params: { id: location.id } }));
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(JSON.parse(deleted.body)).toMatchObject({ id: location.id, deleted: true });
    expect((await api.raw('GET', `/v1/locations/${location.id}`, { key: owner.secret })).status).toBe(404);
  });

  // Watched in pg_stat_activity: PostgreSQL only (the embedded database has no backend per connection).
  it.runIf(inject('database').mode === 'postgres')(
    'open their database connection while they load when the infrastructure asks, and the first event uses that one',
    async () => {
      const owner = await api.newEntity();
      const caller = await authorized(owner);
      const location = await api.post(owner, '/v1/locations', { name: 'Early', address1: '2 Quay', city: 'Ghent', postal_code: '9000', country: 'BE' });
      const coldStart = (bundle: BundleName, event: object, connectDuringInit: boolean, when: 'once-connected' | 'at-once' = 'once-connected') =>
        new Promise<{ statusCode?: number; effect?: string; beforeEvent: number; afterEvent: number }>((resolve, reject) => {
          const env = {
            ...process.env,
            NODE_ENV: 'production',
            DATABASE_URL: api.databaseUrl,
            POWERTOOLS_LOG_LEVEL: 'ERROR',
            NODE_OPTIONS: '',
            PGAPPNAME: `bundled-${randomUUID()}`,
            DATABASE_CONNECT_DURING_INIT: String(connectDuringInit),
          };
          execFile(
            process.execPath,
            ['--input-type=module', '-e', CONNECTIONS_CHILD, dirs[bundle], JSON.stringify(event), when],
            { cwd: repoRoot, encoding: 'utf8', timeout: 30_000, env },
            (error, stdout, stderr) =>
              error ? reject(new Error(`${bundle}: ${stderr.slice(-2000)}`)) : resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as never),
          );
        });
      const read = requestEvent(caller, 'GET', '/v1/locations/{id}', { params: { id: location.id } });
      // One connection before the event, and still one after it: the request used it rather than opening a second (the pool allows ten).
      expect(await coldStart('locations/get-location', read, true)).toEqual({ statusCode: 200, beforeEvent: 1, afterEvent: 1 });
      expect(await coldStart('locations/get-location', read, false)).toEqual({ statusCode: 200, beforeEvent: 0, afterEvent: 1 });
      // An event that arrives while that connection is still being opened waits for it.
      expect((await coldStart('locations/get-location', read, true, 'at-once')).afterEvent).toBe(1);
      const authorize = {
        type: 'REQUEST',
        methodArn: 'arn:aws:execute-api:eu-west-1:000000000000:api/prod/GET/v1/locations',
        headers: { Authorization: `Bearer ${owner.secret}` },
      };
      expect(await coldStart('authorizer/authorizer', authorize, true)).toEqual({ effect: 'Allow', beforeEvent: 1, afterEvent: 1 });
    },
  );

  it('create a sales order with its totals, number and event, as the sources then read it', async () => {
    const world = await salesWorld(api);
    const caller = await authorized(world.owner);
    const created = await invoke(
      'orders/create-order',
      requestEvent(caller, 'POST', '/v1/orders', {
        body: { document_type: 'sales_order', account_id: world.account.id, lines: [{ product_id: world.widget.id, quantity: 3, unit_price: '19.99' }] },
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const order = JSON.parse(created.body) as { id: string; order_number: string };
    expect(order).toMatchObject({ object: 'order', order_status: 'draft', subtotal: 59.97, order_total: 59.97 });
    expect(order.order_number).toMatch(/\d$/);
    expect(JSON.parse(created.body)).toEqual(await api.get(world.owner, `/v1/orders/${order.id}`));
    // The event was recorded in the order's transaction and published after it (the bundle's own in-process bus).
    const events = await world.owner.sql((db) =>
      db.query<{ type: string; published: boolean }>(
        `SELECT type, published_at IS NOT NULL AS published FROM event_outbox WHERE payload::text LIKE $1 ORDER BY created_at, id`,
        [`%${order.id}%`],
      ),
    );
    expect(events).toEqual([{ type: 'order.created', published: true }]);

    // Reads with declared query parameters (a required one, defaults, a date) and expand answer what the sources do.
    const reads: [BundleName, string, Record<string, string>, Record<string, string>?][] = [
      ['orders/list-orders', '/v1/orders', { document_type: 'sales_order', limit: '5', 'expand[]': 'data.lines' }],
      ['orders/get-order', '/v1/orders/{id}', { 'expand[]': 'lines' }, { id: order.id }],
      [
        'reconciliation/get-trial-balance',
        '/v1/entities/{entity_id}/reconciliation/trial-balance',
        { as_of_date: '2026-01-31' },
        { entity_id: world.owner.entity.id },
      ],
    ];
    for (const [bundle, resource, query, params] of reads) {
      const answer = await invoke(bundle, requestEvent(caller, 'GET', resource, { query, params }));
      expect(answer.statusCode, answer.body).toBe(200);
      const path = resource.replace(/\{(\w+)\}/g, (_, name: string) => params![name]);
      const source = await api.raw('GET', `${path}?${new URLSearchParams(query).toString()}`, { key: world.owner.secret });
      expect(answer.body, bundle).toBe(source.text);
    }
    // Without the required document_type, the list refuses as the sources do.
    const missing = await invoke('orders/list-orders', requestEvent(caller, 'GET', '/v1/orders', { query: { limit: '5' } }));
    expect(missing.statusCode).toBe(400);
    expect(JSON.parse(missing.body)).toEqual({
      ...(await api.raw('GET', '/v1/orders?limit=5', { key: world.owner.secret })).error,
      request_id: expect.any(String),
    });
    expect(JSON.parse(missing.body)).toMatchObject({ code: 'parameter_missing', param: 'document_type' });
  });
});
