import { describe, expect, it } from 'vitest';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('locations (E10)', () => {
  it('creates a location; the first one becomes the default and later ones do not', async () => {
    const { secret, entity } = await api.newEntity();
    const first = await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Main', city: 'Austin', country: 'US' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'location', name: 'Main', is_default: true, is_active: true, entity_id: entity.id, city: 'Austin' });
    const second = await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Overflow' } });
    expect(second.status).toBe(201);
    expect(second.body.is_default).toBe(false);
  });

  it('ignores an entity_id in the body: the entity comes from the key', async () => {
    const { secret, entity } = await api.newEntity();
    const other = await api.newEntity();
    const created = await api.request('POST', '/v1/locations', { key: secret, body: unchecked({ name: 'Mine', entity_id: other.entity.id }) });
    expect(created.status).toBe(201);
    expect(created.body.entity_id).toBe(entity.id);
    expect((await tenantRowCounts(other.entity.id)).locations).toBe(0);
  });

  it('refuses a duplicate name within the entity (case-insensitive) with 409, and writes nothing', async () => {
    const { secret, entity } = await api.newEntity();
    await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Dock' } });
    const before = await tenantRowCounts(entity.id);
    const duplicate = await api.request('POST', '/v1/locations', { key: secret, body: { name: 'dock' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'location_name_taken', type: 'conflict', param: 'name' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });

  it('allows the same name in two entities', async () => {
    const a = await api.newEntity();
    const b = await api.newEntity();
    expect((await api.request('POST', '/v1/locations', { key: a.secret, body: { name: 'HQ' } })).status).toBe(201);
    expect((await api.request('POST', '/v1/locations', { key: b.secret, body: { name: 'HQ' } })).status).toBe(201);
  });

  it('makes exactly one default when two first locations are created at once', async () => {
    const { secret } = await api.newEntity();
    const results = await Promise.all(['A', 'B', 'C', 'D'].map((name) => api.request('POST', '/v1/locations', { key: secret, body: { name } })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const defaults = (await api.get(secret, '/v1/locations', { limit: '10' })).data.filter((l) => l.is_default);
    expect(defaults).toHaveLength(1);
  });

  it('validates input with a precise code and param', async () => {
    const { secret } = await api.newEntity();
    const missing = await api.request('POST', '/v1/locations', { key: secret, body: unchecked({ city: 'X' }) });
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ error: 'parameter_missing', code: 'parameter_missing', type: 'validation_error', param: 'name' });
    const unknown = await api.request('POST', '/v1/locations', { key: secret, body: unchecked({ name: 'X', colour: 'red' }) });
    expect(unknown.error).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
    const badCountry = await api.request('POST', '/v1/locations', { key: secret, body: { name: 'X', country: 'usa' } });
    expect(badCountry.error).toMatchObject({ code: 'parameter_invalid', param: 'country' });
    const badMetadata = await api.request('POST', '/v1/locations', { key: secret, body: unchecked({ name: 'X', metadata: { a: 1 } }) });
    expect(badMetadata.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata.a' });
    const badJson = await api.request('POST', '/v1/locations', { key: secret, rawBody: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(badJson.status).toBe(400);
    expect(badJson.error.code).toBe('invalid_json');
    const notJson = await api.request('POST', '/v1/locations', {
      key: secret,
      rawBody: 'name=X',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(notJson.status).toBe(415);
    const array = await api.request('POST', '/v1/locations', { key: secret, body: unchecked([{ name: 'X' }]) });
    expect(array.error).toMatchObject({ code: 'parameter_invalid' });
  });

  it('gets, updates and deletes a location; events record each change', async () => {
    const { secret, entity } = await api.newEntity();
    const created = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Store' } })).body;
    const fetched = await api.request('GET', `/v1/locations/${created.id}`, { key: secret });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
    const updated = await api.request('PATCH', `/v1/locations/${created.id}`, { key: secret, body: { phone: '+1 512 555 0100', city: 'Dallas' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ phone: '+1 512 555 0100', city: 'Dallas', name: 'Store' });
    const cleared = await api.request('PATCH', `/v1/locations/${created.id}`, { key: secret, body: { city: null } });
    expect(cleared.body.city).toBeNull();
    const deleted = await api.request('DELETE', `/v1/locations/${created.id}`, { key: secret });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created.id, object: 'location', livemode: false, deleted: true });
    expect((await api.request('GET', `/v1/locations/${created.id}`, { key: secret })).status).toBe(404);
    const types = api.published.filter((e) => e.entity_id === entity.id).map((e) => e.type);
    expect(types).toEqual(['location.created', 'location.updated', 'location.updated', 'location.deleted']);
    const update = api.published.find((e) => e.entity_id === entity.id && e.type === 'location.updated')!;
    expect(update.data.previous_attributes).toEqual({ phone: null, city: null });
  });

  it('moves the default with is_default: true and protects the default from deactivation and deletion', async () => {
    const { secret } = await api.newEntity();
    const a = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'A' } })).body;
    const b = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'B' } })).body;
    const deactivate = await api.request('PATCH', `/v1/locations/${a.id}`, { key: secret, body: { is_active: false } });
    expect(deactivate.status).toBe(409);
    expect(deactivate.error.code).toBe('location_is_default');
    expect((await api.request('DELETE', `/v1/locations/${a.id}`, { key: secret })).error.code).toBe('location_is_default');
    const moved = await api.request('PATCH', `/v1/locations/${b.id}`, { key: secret, body: { is_default: true } });
    expect(moved.body.is_default).toBe(true);
    expect((await api.get(secret, `/v1/locations/${a.id}`)).is_default).toBe(false);
    expect((await api.request('DELETE', `/v1/locations/${a.id}`, { key: secret })).status).toBe(200);
    // the last location, default or not, can go
    expect((await api.request('DELETE', `/v1/locations/${b.id}`, { key: secret })).status).toBe(200);
  });

  it('creating with is_default: true demotes the previous default', async () => {
    const { secret } = await api.newEntity();
    const a = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'A' } })).body;
    const b = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'B', is_default: true } })).body;
    expect(b.is_default).toBe(true);
    expect((await api.get(secret, `/v1/locations/${a.id}`)).is_default).toBe(false);
  });

  it('filters the list by is_active', async () => {
    const { secret } = await api.newEntity();
    await api.request('POST', '/v1/locations', { key: secret, body: { name: 'A' } });
    await api.request('POST', '/v1/locations', { key: secret, body: { name: 'B', is_active: false } });
    const inactive = await api.request('GET', '/v1/locations', { key: secret, query: { is_active: 'false' } });
    expect(inactive.body.data.map((l) => l.name)).toEqual(['B']);
    const bad = await api.request('GET', '/v1/locations', { key: secret, query: { is_active: 'yes' } });
    expect(bad.error).toMatchObject({ code: 'parameter_invalid', param: 'is_active' });
  });
});
