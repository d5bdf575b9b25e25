import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('Idempotency-Key', () => {
  it('executes 20 concurrent requests with one key exactly once', async () => {
    const { secret, entity } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'concurrent-create-1' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.request('POST', '/v1/manufacturers', { key: secret, headers, body: { name: 'Acme Tools' } })),
    );
    const statuses = responses.map((r) => r.status);
    // Each is either the one execution, a replay of it, or told to retry while it runs.
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const conflicts = responses.filter((r) => r.status === 409);
    for (const conflict of conflicts) {
      expect(conflict.error.code).toBe('idempotency_key_in_use');
      expect(conflict.headers.get('retry-after')).toBe('1');
    }
    const ok = responses.filter((r) => r.status === 201);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    expect((await tenantRowCounts(entity.id)).manufacturers).toBe(1);
    expect(api.published.filter((e) => e.entity_id === entity.id && e.type === 'manufacturer.created')).toHaveLength(1);
  });

  it('replays the original status and body byte for byte, marked Idempotent-Replayed', async () => {
    const { secret, entity } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'replay-1' };
    const first = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Replay' } });
    const second = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Replay' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await tenantRowCounts(entity.id)).locations).toBe(1);
  });

  it('refuses the same key with a different body with 422, writing nothing', async () => {
    const { secret, entity } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'different-body' };
    await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'One' } });
    const before = await tenantRowCounts(entity.id);
    const reused = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Two' } });
    expect(reused.status).toBe(422);
    expect(reused.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });

  it('scopes keys to the entity and the route', async () => {
    const a = await api.newEntity();
    const b = await api.newEntity();
    const headers = { 'Idempotency-Key': 'shared-key' };
    const first = await api.request('POST', '/v1/locations', { key: a.secret, headers, body: { name: 'Same' } });
    const otherEntity = await api.request('POST', '/v1/locations', { key: b.secret, headers, body: { name: 'Same' } });
    expect(otherEntity.status).toBe(201);
    expect(otherEntity.body.id).not.toBe(first.body.id);
    const otherRoute = await api.request('POST', '/v1/manufacturers', { key: a.secret, headers, body: { name: 'Same' } });
    expect(otherRoute.status).toBe(201);
    expect(otherRoute.body.object).toBe('manufacturer');
  });

  it('does not store failures: a retry after a 4xx runs again', async () => {
    const { secret } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'after-conflict' };
    await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Taken' } });
    const conflict = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Taken' } });
    expect(conflict.status).toBe(409);
    await api.request('PATCH', `/v1/locations/${(await api.get(secret, '/v1/locations')).data[0].id}`, {
      key: secret,
      body: { name: 'Renamed' },
    });
    const retry = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Taken' } });
    expect(retry.status).toBe(201);
  });

  it('rejects keys longer than 255 characters with 400 idempotency_key_invalid', async () => {
    const { secret, entity } = await api.newEntity();
    const before = await tenantRowCounts(entity.id);
    const response = await api.request('POST', '/v1/locations', { key: secret, headers: { 'Idempotency-Key': 'k'.repeat(256) }, body: { name: 'Long' } });
    expect(response.status).toBe(400);
    expect(response.error).toMatchObject({ code: 'idempotency_key_invalid', param: 'Idempotency-Key' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
    const max = await api.request('POST', '/v1/locations', { key: secret, headers: { 'Idempotency-Key': 'k'.repeat(255) }, body: { name: 'Max' } });
    expect(max.status).toBe(201);
  });

  it('makes DELETE and PATCH idempotent too', async () => {
    const { secret } = await api.newEntity();
    const location = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Gone' } })).body;
    const headers = { 'Idempotency-Key': 'delete-once' };
    const first = await api.request('DELETE', `/v1/locations/${location.id}`, { key: secret, headers });
    const again = await api.request('DELETE', `/v1/locations/${location.id}`, { key: secret, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    const without = await api.request('DELETE', `/v1/locations/${location.id}`, { key: secret });
    expect(without.status).toBe(404);
  });
});
