/**
 * Generated from the route table: every API-key route, every way of not being allowed.
 * In every case the response is the error envelope and nothing is written.
 *
 * Live versus test: `attacker` holds the test key of an entity whose live key is `live`. A record
 * of one mode is a 404 from the other by path id, a body naming it is refused as if it did not
 * exist, and no list of one mode shows a record of the other.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ROUTES } from '../../functions/routes';
import { ALL_SCOPES, hasScope } from '../../shared/auth/scopes';
import { acceptsDryRun, supportsDryRun } from '../../shared/http/dry-run';
import type { Route, RouteSchemas } from '../../shared/http/route';
import type { ErrorEnvelope } from '../support/client';
import { setupTestApi, tenantContents, tenantRowCounts, type TestEntity } from '../support/harness';
import { fillPath, hasPathParams, NOT_FOUND_CODES, SAMPLE_BODIES, SAMPLE_QUERIES, SEEDERS } from '../support/route-fixtures';
import { crossModeBody, LIVE_SEEDERS, referenceCount, seedReferences, type ReferenceRecords } from '../support/mode-fixtures';

const api = setupTestApi();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const apiKeyRoutes = ROUTES.filter((route) => route.auth === 'api_key');

let attacker: TestEntity;
let live: TestEntity;
let victim: TestEntity;
let revokedKey: string;
let expiredKey: string;
const references = {} as Record<'live' | 'test', ReferenceRecords>;
/** Every id seeded in each mode of the attacker's entity, for the list checks. */
const seeded: Record<'live' | 'test', Set<string>> = { live: new Set(), test: new Set() };

beforeAll(async () => {
  ({ test: attacker, live } = await api.newEntityPair());
  victim = await api.newEntity();
  references.live = await seedReferences(api, live);
  references.test = await seedReferences(api, attacker);
  for (const mode of ['live', 'test'] as const) for (const id of Object.values<string>({ ...references[mode] })) seeded[mode].add(id);
  const spare = await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys`, { key: attacker.secret, body: { scopes: ALL_SCOPES } });
  revokedKey = spare.body.secret;
  await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys/${spare.body.id}/revoke`, { key: attacker.secret });
  const rolled = await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys`, { key: attacker.secret, body: { scopes: ALL_SCOPES } });
  expiredKey = rolled.body.secret;
  await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys/${rolled.body.id}/roll`, { key: attacker.secret, body: {} });
});

async function snapshot() {
  return {
    attacker: await tenantRowCounts(attacker.entity.id),
    live: await tenantRowCounts(live.entity.id),
    victim: await tenantRowCounts(victim.entity.id),
  };
}

function expectEnvelope(envelope: ErrorEnvelope, status: number, code: string) {
  expect(envelope, JSON.stringify(envelope)).toMatchObject({
    code,
    request_id: expect.any(String),
    hint: expect.any(String),
    type: expect.any(String),
    error: expect.any(String),
  });
  expect(status).toBeGreaterThanOrEqual(400);
}

async function callAs(route: Route, key: string | undefined, params: Record<string, string>, extra: { authorization?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = extra.authorization ? { Authorization: extra.authorization } : {};
  // The route comes from the table at run time: the untyped escape hatch.
  const body = route.method === 'GET' ? undefined : (extra.body ?? SAMPLE_BODIES[route.id] ?? {});
  return api.raw(route.method, fillPath(route, params), { key, headers, body, query: SAMPLE_QUERIES[route.id] });
}

/** Write routes whose dry run answered 2xx: the dry-run checks below must not pass on refusals alone. */
const dryRunsAnswered: string[] = [];

describe.each(apiKeyRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  let ownParams: Record<string, string> = {};
  let liveParams: Record<string, string> = {};
  let foreignParams: Record<string, string> = {};

  beforeAll(async () => {
    if (hasPathParams(route)) {
      const seed = SEEDERS[route.path];
      if (!seed) throw new Error(`no fixture for ${route.path}: add one to test/support/route-fixtures.ts`);
      ownParams = await seed(api, attacker);
      liveParams = await (LIVE_SEEDERS[route.path] ?? seed)(api, live);
      foreignParams = await seed(api, victim);
      for (const id of Object.values(ownParams)) if (UUID.test(id)) seeded.test.add(id);
      for (const id of Object.values(liveParams)) if (UUID.test(id)) seeded.live.add(id);
    }
  });

  const unauthenticated: [string, { key?: string; authorization?: string }, string][] = [
    ['no key', {}, 'api_key_missing'],
    ['a malformed key', { authorization: 'Bearer sk_live_not-our-format' }, 'api_key_malformed'],
    ['a non-bearer scheme', { authorization: 'Basic Ym86Ym8=' }, 'api_key_malformed'],
    ['an unknown key', { authorization: 'Bearer bo_test_ent_nobody_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 'api_key_invalid'],
  ];
  it.each(unauthenticated)('401 with %s, writing nothing', async (_label, auth, code) => {
    const before = await snapshot();
    const response = await callAs(route, auth.key, ownParams, { authorization: auth.authorization });
    expect(response.status).toBe(401);
    expectEnvelope(response.error, response.status, code);
    expect(await snapshot()).toEqual(before);
  });

  it('401 with a revoked key and with an expired (rolled) key, writing nothing', async () => {
    const before = await snapshot();
    const revoked = await callAs(route, revokedKey, ownParams);
    expect(revoked.status).toBe(401);
    expectEnvelope(revoked.error, revoked.status, 'api_key_revoked');
    const expired = await callAs(route, expiredKey, ownParams);
    expect(expired.status).toBe(401);
    expectEnvelope(expired.error, expired.status, 'api_key_expired');
    expect(await snapshot()).toEqual(before);
  });

  it(`403 insufficient_scope naming ${route.auth === 'api_key' ? route.scopes.join(' + ') : ''} for a key without it, writing nothing`, async () => {
    if (route.auth !== 'api_key') return;
    if (route.scopeMatch === 'any') {
      // Any one of the scopes suffices: only a key holding none of them is refused.
      const others = ALL_SCOPES.filter((scope) => route.scopes.every((required) => !hasScope([scope], required)));
      const limited = await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys`, { key: attacker.secret, body: { scopes: others } });
      const before = await snapshot();
      const response = await callAs(route, limited.body.secret, ownParams);
      expect(response.status).toBe(403);
      expectEnvelope(response.error, response.status, 'insufficient_scope');
      expect(response.error.required).toBe(route.scopes[0]);
      expect(await snapshot()).toEqual(before);
      for (const alone of route.scopes) {
        const single = await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys`, { key: attacker.secret, body: { scopes: [alone] } });
        expect((await callAs(route, single.body.secret, ownParams)).status, alone).not.toBe(403);
      }
      return;
    }
    for (const required of route.scopes) {
      const others = ALL_SCOPES.filter((scope) => !hasScope([scope], required));
      const limited = await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys`, { key: attacker.secret, body: { scopes: others } });
      const before = await snapshot();
      const response = await callAs(route, limited.body.secret, ownParams);
      expect(response.status).toBe(403);
      expectEnvelope(response.error, response.status, 'insufficient_scope');
      expect(response.error.required).toBe(required);
      expect(await snapshot()).toEqual(before);
    }
  });

  if (hasPathParams(route)) {
    it("404 for another entity's record, writing nothing", async () => {
      const before = await snapshot();
      const response = await callAs(route, attacker.secret, foreignParams);
      expect(response.status).toBe(404);
      expectEnvelope(response.error, response.status, NOT_FOUND_CODES[route.id] ?? 'not_found');
      expect(JSON.stringify(response.body)).not.toContain(victim.entity.code);
      expect(await snapshot()).toEqual(before);
    });

    it("404 for the same entity's record of the other mode (test key on a live record, live key on a test record), writing nothing", async () => {
      const before = await snapshot();
      const testOnly = route.auth === 'api_key' && route.errors?.includes('test_mode_required');
      for (const [key, params, mode] of [
        [attacker.secret, liveParams, 'test'],
        [live.secret, ownParams, 'live'],
      ] as const) {
        const response = await callAs(route, key, params);
        // A test-mode-only route (test helpers) turns a live key away before it looks anything up.
        const [status, code] = testOnly && mode === 'live' ? [403, 'test_mode_required'] : [404, NOT_FOUND_CODES[route.id] ?? 'not_found'];
        expect(response.status, response.text).toBe(status);
        expectEnvelope(response.error, response.status, code);
      }
      expect(await snapshot()).toEqual(before);
    });
  }

  const sample = route.method === 'GET' ? undefined : SAMPLE_BODIES[route.id];
  const names = (mode: 'live' | 'test') => crossModeBody(sample ?? {}, references[mode]);
  it.skipIf(referenceCount(sample) === 0)('a body naming records of the other mode is refused as if they did not exist, writing nothing', async () => {
    for (const [key, params, other] of [
      [attacker.secret, ownParams, 'live'],
      [live.secret, liveParams, 'test'],
    ] as const) {
      const before = await snapshot();
      const crossed = await callAs(route, key, params, { body: names(other).body });
      expect(await snapshot()).toEqual(before);
      // The same request naming ids that exist nowhere: the answer must be the same refusal.
      const missing = await callAs(route, key, params);
      expect(crossed.status, crossed.text).toBeGreaterThanOrEqual(400);
      expect({ status: crossed.status, code: crossed.error.code }).toEqual({ status: missing.status, code: missing.error.code });
    }
  });

  it.runIf(acceptsDryRun(route))('a dry run writes nothing: no row, no number, no event', async () => {
    const before = await tenantContents(attacker.entity.id);
    const published = api.published.length;
    const dry = await api.raw(route.method, fillPath(route, ownParams), {
      key: attacker.secret,
      query: { dry_run: 'true' },
      body: SAMPLE_BODIES[route.id] ?? {},
    });
    expect(await tenantContents(attacker.entity.id)).toEqual(before);
    expect(api.published.length).toBe(published);
    if (!supportsDryRun(route)) {
      expect(dry.status, dry.text).toBe(400);
      expectEnvelope(dry.error, dry.status, 'dry_run_not_supported');
      return;
    }
    // The sample body may be refused by a rule (the real request would be too); never a 500.
    expect(dry.status, dry.text).toBeLessThan(500);
    if (dry.status >= 400) return expectEnvelope(dry.error, dry.status, dry.error.code);
    expect(dry.status).toBe(route.successStatus ?? 200);
    expect(dry.body).toMatchObject({ dry_run: true, journal_entries: expect.any(Array), events: expect.any(Array) });
    dryRunsAnswered.push(route.id);
  });
});

describe('dry runs', () => {
  it('answered (2xx) on many write routes: the nothing-written checks are not vacuous', () => {
    expect(dryRunsAnswered.length).toBeGreaterThan(40);
  });
});

/** The largest page, and the first value of each required enum (a document type), so the list answers. */
function listQuery(route: Route): Record<string, string> {
  const shape = (route as RouteSchemas).query?.shape ?? {};
  const query: Record<string, string> = {};
  if (shape.limit) query.limit = '100';
  for (const [name, member] of Object.entries(shape)) {
    if (member instanceof z.ZodMiniEnum && !member.safeParse(undefined).success) query[name] = String(member.options[0]);
  }
  return query;
}

describe('lists keep the modes apart', () => {
  const lists = apiKeyRoutes.filter((route) => route.method === 'GET' && route.list && !hasPathParams(route));
  let seen = 0;

  it.each(lists.map((route) => [route.path, route] as const))('%s shows each key only the records of its mode', async (_path, route) => {
    for (const [mode, key, entity, other] of [
      ['test', attacker, attacker.entity.id, 'live'],
      ['live', live, live.entity.id, 'test'],
    ] as const) {
      const response = await api.raw('GET', fillPath(route, {}), { key: key.secret, query: listQuery(route) });
      expect(response.status, response.text).toBe(200);
      const data = (response.body as { data: { id?: string; livemode?: boolean; entity_id?: string }[] }).data;
      for (const item of data) {
        expect(item.livemode, `${route.path} ${mode}`).toBe(mode === 'live');
        if (item.entity_id !== undefined) expect(item.entity_id).toBe(entity);
        if (item.id && seeded[mode].has(item.id)) seen++;
      }
      for (const id of seeded[other]) expect(response.text, `${route.path} as ${mode} shows ${other} record ${id}`).not.toContain(id);
    }
  });

  it('the lists did show records of their own mode (the checks above are not vacuous)', () => {
    expect(seen).toBeGreaterThan(20);
  });
});

describe('route table coverage', () => {
  it('has a fixture for every parameterised route and a sample body for every route with a required body', () => {
    for (const route of apiKeyRoutes) {
      if (hasPathParams(route)) expect(SEEDERS[route.path], route.path).toBeDefined();
      const schemas: RouteSchemas = route;
      if (schemas.body && !schemas.body.safeParse({}).success) expect(SAMPLE_BODIES[route.id], route.id).toBeDefined();
    }
  });
});
