import { describe, expect, it } from 'vitest';
import { hashApiKey, parseApiKey } from '../../shared/auth/api-key-format';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();
const keysPath = (entityId: string) => `/v1/entities/${entityId}/api-keys` as const;

describe('API keys', () => {
  it('creates a key whose secret is shown once and stored only as a hash', async () => {
    const owner = await api.newEntity();
    const created = await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { name: 'Sync job', scopes: ['settings:read'] } });
    expect(created.status).toBe(201);
    const { secret } = created.body;
    expect(parseApiKey(secret)).toMatchObject({ mode: 'test', entityCode: owner.entity.code });
    expect(created.body).toMatchObject({
      object: 'api_key',
      name: 'Sync job',
      scopes: ['settings:read'],
      status: 'active',
      created_by_user_id: owner.owner.id,
    });
    expect(created.body.redacted_key).toBe(`bo_test_ent_${owner.entity.code}_...${secret.slice(-4)}`);
    const stored = await owner.sql((db) =>
      db.one<{ key_hash: string; row: string }>('SELECT key_hash, row_to_json(api_keys)::text AS row FROM api_keys WHERE id = $1', [created.body.id]),
    );
    expect(stored.key_hash).toBe(hashApiKey(secret));
    expect(stored.row).not.toContain(secret.slice(-32));
    const fetched = await api.request('GET', `${keysPath(owner.entity.id)}/${created.body.id}`, { key: owner.secret });
    expect(fetched.body).not.toHaveProperty('secret');
    const event = api.published.find((e) => e.type === 'api_key.created' && e.data.object.id === created.body.id)!;
    expect(JSON.stringify(event)).not.toContain(secret);
    // the new key works, within its scopes
    expect((await api.request('GET', '/v1/locations', { key: secret })).status).toBe(200);
    expect((await api.request('POST', '/v1/locations', { key: secret, body: { name: 'X' } })).status).toBe(403);
  });

  it('grants only scopes the calling key holds, and test keys create only test keys', async () => {
    const owner = await api.newEntity();
    const limited = (await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: ['api_keys:write', 'settings:read'] } })).body;
    const before = await tenantRowCounts(owner.entity.id);
    const escalate = await api.request('POST', keysPath(owner.entity.id), { key: limited.secret, body: { scopes: ['settings:read', 'orders:write'] } });
    expect(escalate.status).toBe(403);
    expect(escalate.error).toMatchObject({ code: 'insufficient_scope', param: 'scopes[1]', required: 'orders:write' });
    const live = await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: ['settings:read'], mode: 'live' } });
    expect(live.status).toBe(403);
    expect(live.error).toMatchObject({ code: 'insufficient_permissions', param: 'mode' });
    const unknownScope = await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: ['everything:write'] } });
    expect(unknownScope.error).toMatchObject({ code: 'parameter_invalid', param: 'scopes[0]' });
    const empty = await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: [] } });
    expect(empty.error).toMatchObject({ code: 'parameter_invalid', param: 'scopes' });
    const past = await api.request('POST', keysPath(owner.entity.id), {
      key: owner.secret,
      body: { scopes: ['settings:read'], expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.error).toMatchObject({ code: 'parameter_invalid', param: 'expires_at' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('a key creates keys of its own mode only: live and test keys act on separate data', async () => {
    const owner = await api.newEntity({ mode: 'live' });
    const live = await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: ['settings:read'] } });
    expect(live.body.mode).toBe('live');
    expect(live.body.secret.startsWith(`bo_live_ent_${owner.entity.code}_`)).toBe(true);
    const before = await tenantRowCounts(owner.entity.id);
    const test = await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: ['settings:read'], mode: 'test' } });
    expect(test.status).toBe(403);
    expect(test.error).toMatchObject({ code: 'insufficient_permissions', param: 'mode' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('revokes a key: it stops working at once and cannot be revoked twice', async () => {
    const owner = await api.newEntity();
    const key = (await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: ['settings:read'] } })).body;
    expect((await api.request('GET', '/v1/locations', { key: key.secret })).status).toBe(200);
    const revoked = await api.request('POST', `${keysPath(owner.entity.id)}/${key.id}/revoke`, { key: owner.secret });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    const denied = await api.request('GET', '/v1/locations', { key: key.secret });
    expect(denied.status).toBe(401);
    expect(denied.error.code).toBe('api_key_revoked');
    const twice = await api.request('POST', `${keysPath(owner.entity.id)}/${key.id}/revoke`, { key: owner.secret });
    expect(twice.status).toBe(409);
    expect(twice.error.code).toBe('api_key_already_revoked');
  });

  it('rolls a key: the replacement works, the old one stops now or after the grace period', async () => {
    const owner = await api.newEntity();
    const key = (await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { name: 'Rotating', scopes: ['settings:read'] } })).body;
    const rolled = await api.request('POST', `${keysPath(owner.entity.id)}/${key.id}/roll`, { key: owner.secret, body: { expires_in_seconds: 3600 } });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ name: 'Rotating', scopes: ['settings:read'], rolled_from_key_id: key.id, status: 'active' });
    expect(rolled.body.secret).not.toBe(key.secret);
    expect((await api.request('GET', '/v1/locations', { key: key.secret })).status).toBe(200); // grace period
    expect((await api.request('GET', '/v1/locations', { key: rolled.body.secret })).status).toBe(200);
    const old = await api.request('GET', `${keysPath(owner.entity.id)}/${key.id}`, { key: owner.secret });
    expect(new Date(old.body.expires_at!).getTime()).toBeGreaterThan(Date.now() + 3500_000);

    const again = await api.request('POST', `${keysPath(owner.entity.id)}/${rolled.body.id}/roll`, { key: owner.secret, body: {} });
    expect(again.status).toBe(201);
    const expired = await api.request('GET', '/v1/locations', { key: rolled.body.secret });
    expect(expired.status).toBe(401);
    expect(expired.error.code).toBe('api_key_expired');
    const rollExpired = await api.request('POST', `${keysPath(owner.entity.id)}/${rolled.body.id}/roll`, { key: owner.secret, body: {} });
    expect(rollExpired.status).toBe(409);
  });

  it('lists keys newest first with status and mode filters, and expands the acting user in one batch', async () => {
    const owner = await api.newEntity();
    const a = (await api.request('POST', keysPath(owner.entity.id), { key: owner.secret, body: { scopes: ['settings:read'] } })).body;
    await api.request('POST', `${keysPath(owner.entity.id)}/${a.id}/revoke`, { key: owner.secret });
    const all = await api.request('GET', keysPath(owner.entity.id), { key: owner.secret, query: { 'expand[]': 'data.created_by_user' } });
    expect(all.body.data.map((k) => k.id)).toEqual([a.id, owner.key.id]);
    expect(all.body.data[0].created_by_user).toMatchObject({
      object: 'user',
      id: owner.owner.id,
      permissions: expect.arrayContaining(['orders.revision_override']),
    });
    const revoked = await api.request('GET', keysPath(owner.entity.id), { key: owner.secret, query: { status: 'revoked' } });
    expect(revoked.body.data.map((k) => k.id)).toEqual([a.id]);
    const live = await api.request('GET', keysPath(owner.entity.id), { key: owner.secret, query: { mode: 'live' } });
    expect(live.body.data).toEqual([]);
    const single = await api.request('GET', `${keysPath(owner.entity.id)}/${a.id}`, { key: owner.secret, query: { 'expand[]': 'created_by_user' } });
    expect(single.body.created_by_user!.id).toBe(owner.owner.id);
    const wrongPrefix = await api.request('GET', keysPath(owner.entity.id), {
      key: owner.secret,
      query: { 'expand[]': ['data.created_by_user', 'created_by_user'] },
    });
    expect(wrongPrefix.status).toBe(400);
    expect(wrongPrefix.error).toMatchObject({ code: 'expand_error', type: 'expand_error', param: 'expand[1]' });
  });

  it('renames a key and keeps its scopes', async () => {
    const owner = await api.newEntity();
    const renamed = await api.request('PATCH', `${keysPath(owner.entity.id)}/${owner.key.id}`, {
      key: owner.secret,
      body: { name: 'Main', metadata: { team: 'ops' } },
    });
    expect(renamed.body).toMatchObject({ name: 'Main', metadata: { team: 'ops' }, scopes: ALL_SCOPES });
    const scopes = await api.request('PATCH', `${keysPath(owner.entity.id)}/${owner.key.id}`, {
      key: owner.secret,
      body: unchecked({ scopes: ['settings:read'] }),
    });
    expect(scopes.error).toMatchObject({ code: 'parameter_unknown', param: 'scopes' });
  });

  it("404s for another entity's key id under the caller's own entity path", async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['POST', '/revoke'],
      ['POST', '/roll'],
    ] as const) {
      const response = await api.request(method, `${keysPath(owner.entity.id)}/${other.key.id}${suffix}`, {
        key: owner.secret,
        body: method === 'GET' ? undefined : {},
      });
      expect(response.status, `${method} ${suffix}`).toBe(404);
    }
    expect((await api.request('GET', '/v1/locations', { key: other.secret })).status).toBe(200);
  });
});

describe('key modes per stage', () => {
  it('the sandbox stage (ACCEPTED_KEY_MODES=test) refuses live keys with 401 and accepts test keys', async () => {
    const live = await api.newEntity({ mode: 'live' });
    const test = await api.newEntity({ mode: 'test' });
    process.env.ACCEPTED_KEY_MODES = 'test';
    try {
      const refused = await api.request('GET', '/v1/locations', { key: live.secret });
      expect(refused.status).toBe(401);
      expect(refused.error.code).toBe('api_key_mode_not_allowed');
      expect((await api.request('GET', '/v1/locations', { key: test.secret })).status).toBe(200);
    } finally {
      delete process.env.ACCEPTED_KEY_MODES;
    }
    expect((await api.request('GET', '/v1/locations', { key: live.secret })).status).toBe(200);
  });

  it('a key whose entity code was altered is not accepted', async () => {
    const a = await api.newEntity();
    const b = await api.newEntity();
    const forged = a.secret.replace(`_ent_${a.entity.code}_`, `_ent_${b.entity.code}_`);
    const response = await api.request('GET', '/v1/locations', { key: forged });
    expect(response.status).toBe(401);
    expect(response.error.code).toBe('api_key_invalid');
  });
});
