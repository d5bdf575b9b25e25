import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('manufacturers (E1)', () => {
  it('creates, gets, lists, updates and deletes a manufacturer', async () => {
    const { secret, entity } = await api.newEntity();
    const created = await api.request('POST', '/v1/manufacturers', {
      key: secret,
      body: { name: 'Bosch', website: 'https://bosch.example', metadata: { legacy_id: '17' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'manufacturer',
      name: 'Bosch',
      website: 'https://bosch.example',
      notes: null,
      metadata: { legacy_id: '17' },
      entity_id: entity.id,
    });
    expect(await api.get(secret, `/v1/manufacturers/${created.body.id}`)).toEqual(created.body);
    const byName = await api.request('GET', '/v1/manufacturers', { key: secret, query: { name: 'BOSCH' } });
    expect(byName.body.data.map((m) => m.id)).toEqual([created.body.id]);
    const updated = await api.request('PATCH', `/v1/manufacturers/${created.body.id}`, { key: secret, body: { notes: 'Preferred for drills' } });
    expect(updated.body.notes).toBe('Preferred for drills');
    const deleted = await api.request('DELETE', `/v1/manufacturers/${created.body.id}`, { key: secret });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { id: created.body.id, object: 'manufacturer', livemode: false, name: 'Bosch', deleted: true } });
    expect((await api.request('GET', `/v1/manufacturers/${created.body.id}`, { key: secret })).status).toBe(404);
    expect(api.published.filter((e) => e.entity_id === entity.id).map((e) => e.type)).toEqual([
      'manufacturer.created',
      'manufacturer.updated',
      'manufacturer.deleted',
    ]);
  });

  it('refuses a duplicate name with 409 manufacturer_name_taken and bad input with precise codes, writing nothing', async () => {
    const { secret, entity } = await api.newEntity();
    const first = (await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: 'Makita' } })).body;
    await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: 'Hilti' } });
    const before = await tenantRowCounts(entity.id);
    const duplicate = await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: 'MAKITA' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'manufacturer_name_taken', param: 'name' });
    const renameClash = await api.request('PATCH', `/v1/manufacturers/${first.id}`, { key: secret, body: { name: 'hilti' } });
    expect(renameClash.status).toBe(409);
    const badUrl = await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: 'X', website: 'ftp://x' } });
    expect(badUrl.error).toMatchObject({ code: 'parameter_invalid', param: 'website' });
    const blank = await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: '   ' } });
    expect(blank.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    const badId = await api.request('GET', '/v1/manufacturers/not-a-uuid', { key: secret });
    expect(badId.status).toBe(400);
    expect(badId.error).toMatchObject({ code: 'parameter_invalid', param: 'id' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });
});
