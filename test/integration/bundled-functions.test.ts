/**
 * The functions as they are deployed: the minified bundles of infra/bundle.ts, with its stand-ins
 * (pg's socket probe and native client, pgpass, zod's JSON Schema code, middy's streams), run in a
 * fresh Node process on the real database, the authorizer's answer passed to the routes as API
 * Gateway passes it. Every other test runs the sources; this one holds what ships to them: the
 * bundles must answer exactly what the sources answer through the local gateway.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunctions } from '../../infra/bundle';
import { bundleEntries } from '../../infra/functions';
import { routeSpecs } from '../../infra/routes';
import { ROUTE_MODULES, ROUTES } from '../../functions/routes';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();
const repoRoot = join(import.meta.dirname, '../..');
const BUNDLES = ['authorizer/authorizer', 'locations/create-location', 'locations/get-location', 'locations/list-locations'] as const;

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}
interface BundledRun {
  policy: { effect: string; context: Record<string, string> };
  created: Answer;
  replayed: Answer;
  refused: Answer;
  read: Answer;
  listed: Answer;
}

/**
 * In one fresh process: the authorizer on the key, then as its caller an idempotent create, the
 * same request again, a create with a field of the wrong type, a read of the created location
 * and the list's first page of one.
 */
const CHILD = `
const [dirsJson, secret, body] = process.argv.slice(1);
const dirs = JSON.parse(dirsJson);
const load = async (name) => (await import(dirs[name] + '/index.mjs')).handler;
const context = { functionName: 'bundled', awsRequestId: 'bundled', getRemainingTimeInMillis: () => 29000 };
const authorizer = await load('authorizer/authorizer');
const answer = await authorizer({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:eu-west-1:000000000000:api/prod/POST/v1/locations', headers: { Authorization: 'Bearer ' + secret } });
const caller = answer.context;
const event = (method, path, resource, extra = {}) => ({
  httpMethod: method, path, resource, headers: {}, pathParameters: null, queryStringParameters: null,
  multiValueQueryStringParameters: null, body: null, isBase64Encoded: false,
  requestContext: { requestId: 'req_bundled_' + method + path, authorizer: caller }, ...extra,
});
const create = await load('locations/create-location');
const post = (requestBody) => create(event('POST', '/v1/locations', '/v1/locations', {
  headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'bundled-' + requestBody.length }, body: requestBody,
}), context);
const created = await post(body);
const replayed = await post(body);
const refused = await post(JSON.stringify({ ...JSON.parse(body), city: 42 }));
const id = JSON.parse(created.body).id;
const read = await (await load('locations/get-location'))(event('GET', '/v1/locations/' + id, '/v1/locations/{id}', { pathParameters: { id } }), context);
const listed = await (await load('locations/list-locations'))(event('GET', '/v1/locations', '/v1/locations', { queryStringParameters: { limit: '1' }, multiValueQueryStringParameters: { limit: ['1'] } }), context);
console.log(JSON.stringify({ policy: { effect: answer.policyDocument.Statement[0].Effect, context: caller }, created, replayed, refused, read, listed }));
process.exit(0);
`;

function runBundles(dirs: Record<string, string>, owner: TestEntity, body: string): Promise<BundledRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CHILD, JSON.stringify(dirs), owner.secret, body],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 60_000,
        // What the Lambda runtime gives: production, this file's database, the idempotency store the harness started.
        env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: api.databaseUrl, POWERTOOLS_LOG_LEVEL: 'ERROR', NODE_OPTIONS: '' },
      },
      (error, stdout, stderr) => {
        // A minified bundle's lines are long: the end of each stderr line is enough to name the failure.
        if (error)
          reject(
            new Error(
              `bundled functions failed (${error.code ?? error.signal}):\n${stderr
                .split('\n')
                .map((line) => line.slice(-300))
                .join('\n')}`,
            ),
          );
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as BundledRun);
      },
    );
  });
}

describe('the deployed bundles on the real database', () => {
  let workDir: string;
  let dirs: Record<string, string>;

  beforeAll(async () => {
    // Inside the repository, so the bundles resolve the AWS SDK (external, provided by the Lambda runtime) from node_modules.
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

  it('authorize, create once under an Idempotency-Key, refuse a bad field, and read and list as the sources do', async () => {
    const owner = await api.newEntity();
    const body = JSON.stringify({ name: 'Bundled warehouse', address1: '1 Harbour Road', city: 'Rotterdam', postal_code: '3011', country: 'NL' });
    const run = await runBundles(dirs, owner, body);

    expect(run.policy).toMatchObject({ effect: 'Allow', context: { entityId: owner.entity.id, keyId: owner.key.id, mode: 'test' } });

    expect(run.created.statusCode, run.created.body).toBe(201);
    const created = JSON.parse(run.created.body) as { id: string };
    expect(created).toMatchObject({ object: 'location', name: 'Bundled warehouse', city: 'Rotterdam', livemode: false });
    expect(run.replayed).toMatchObject({ statusCode: 201, body: run.created.body, headers: { 'Idempotent-Replayed': 'true' } });
    expect(run.refused.statusCode).toBe(400);
    expect(JSON.parse(run.refused.body)).toMatchObject({ code: 'parameter_invalid', param: 'city' });
    // One location: the replay and the refusal wrote nothing.
    expect(await owner.sql((db) => db.query('SELECT id FROM locations WHERE entity_id = $1', [owner.entity.id]))).toEqual([{ id: created.id }]);

    // The sources, through the local gateway, answer the same bytes and the same ETag.
    const source = await api.raw('GET', `/v1/locations/${created.id}`, { key: owner.secret });
    expect(run.read.statusCode).toBe(200);
    expect(run.read.body).toBe(source.text);
    expect(run.read.headers.ETag).toBe(source.headers.get('etag'));
    expect(run.listed.statusCode).toBe(200);
    expect(JSON.parse(run.listed.body)).toEqual(await api.get(owner, '/v1/locations', { limit: '1' }));
  });
});
