/**
 * Generated from the route table: every API-key route, every way of not being allowed.
 * In every case the response is the error envelope and nothing is written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { ALL_SCOPES, hasScope } from '../../shared/auth/scopes';
import type { Route, RouteSchemas } from '../../shared/http/route';
import type { ErrorEnvelope } from '../support/client';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { fillPath, hasPathParams, NOT_FOUND_CODES, SAMPLE_BODIES, SEEDERS } from '../support/route-fixtures';

const api = setupTestApi();
const apiKeyRoutes = ROUTES.filter((route) => route.auth === 'api_key');

let attacker: TestEntity;
let victim: TestEntity;
let revokedKey: string;
let expiredKey: string;

beforeAll(async () => {
  attacker = await api.newEntity();
  victim = await api.newEntity();
  const spare = await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys`, { key: attacker.secret, body: { scopes: ALL_SCOPES } });
  revokedKey = spare.body.secret;
  await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys/${spare.body.id}/revoke`, { key: attacker.secret });
  const rolled = await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys`, { key: attacker.secret, body: { scopes: ALL_SCOPES } });
  expiredKey = rolled.body.secret;
  await api.request('POST', `/v1/entities/${attacker.entity.id}/api-keys/${rolled.body.id}/roll`, { key: attacker.secret, body: {} });
});

async function snapshot() {
  return { attacker: await tenantRowCounts(attacker.entity.id), victim: await tenantRowCounts(victim.entity.id) };
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

async function callAs(route: Route, key: string | undefined, params: Record<string, string>, extra: { authorization?: string } = {}) {
  const headers: Record<string, string> = extra.authorization ? { Authorization: extra.authorization } : {};
  // The route comes from the table at run time: the untyped escape hatch.
  return api.raw(route.method, fillPath(route, params), { key, headers, body: route.method === 'GET' ? undefined : (SAMPLE_BODIES[route.id] ?? {}) });
}

describe.each(apiKeyRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  let ownParams: Record<string, string> = {};
  let foreignParams: Record<string, string> = {};

  beforeAll(async () => {
    if (hasPathParams(route)) {
      const seed = SEEDERS[route.path];
      if (!seed) throw new Error(`no fixture for ${route.path}: add one to test/support/route-fixtures.ts`);
      ownParams = await seed(api, attacker);
      foreignParams = await seed(api, victim);
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
  }
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
