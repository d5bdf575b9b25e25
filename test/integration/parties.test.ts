import { describe, expect, it } from 'vitest';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe.each([
  ['account', '/v1/accounts'],
  ['vendor', '/v1/vendors'],
] as const)('%s parties', (object, path) => {
  it('creates, gets, lists with filters, updates, archives and restores', async () => {
    const { secret, entity } = await api.newEntity();
    const created = await api.request('POST', path, {
      key: secret,
      body: { name: 'Northwind Traders', account_number: 'C-100', email: 'ap@northwind.example', country: 'US', external_source: 'qb', external_id: '42' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object, entity_id: entity.id, name: 'Northwind Traders', currency: 'USD', tax_exempt: false, is_archived: false });
    await api.request('POST', path, { key: secret, body: { name: 'Contoso' } });
    const byQ = await api.request('GET', path, { key: secret, query: { q: 'north' } });
    expect(byQ.body.data.map((p) => p.id)).toEqual([created.body.id]);
    const byEmail = await api.request('GET', path, { key: secret, query: { email: 'AP@northwind.example' } });
    expect(byEmail.body.data).toHaveLength(1);
    const updated = await api.request('PATCH', `${path}/${created.body.id}`, { key: secret, body: { phone: '+1 555 0100', email: null } });
    expect(updated.body).toMatchObject({ phone: '+1 555 0100', email: null });
    const archived = await api.request('POST', `${path}/${created.body.id}/archive`, { key: secret });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ is_archived: true, archived_at: expect.any(String) });
    const again = await api.request('POST', `${path}/${created.body.id}/archive`, { key: secret });
    expect(again.body.archived_at).toBe(archived.body.archived_at);
    const current = await api.request('GET', path, { key: secret, query: { is_archived: 'false' } });
    expect(current.body.data.map((p) => p.name)).toEqual(['Contoso']);
    const restored = await api.request('POST', `${path}/${created.body.id}/unarchive`, { key: secret });
    expect(restored.body).toMatchObject({ is_archived: false, archived_at: null });
    expect(await api.get(secret, `${path}/${created.body.id}`)).toEqual(restored.body);
    const types = api.published.filter((e) => e.entity_id === entity.id).map((e) => e.type);
    expect(types).toEqual([`${object}.created`, `${object}.created`, `${object}.updated`, `${object}.archived`, `${object}.unarchived`]);
  });

  it('refuses duplicates and bad input with precise codes, writing nothing', async () => {
    const { secret, entity } = await api.newEntity();
    await api.request('POST', path, { key: secret, body: { name: 'A', account_number: 'N-1', external_source: 'qb', external_id: '1' } });
    const before = await tenantRowCounts(entity.id);
    const number = await api.request('POST', path, { key: secret, body: { name: 'B', account_number: 'n-1' } });
    expect(number.status).toBe(409);
    expect(number.error).toMatchObject({ code: 'account_number_taken', param: 'account_number' });
    const external = await api.request('POST', path, { key: secret, body: { name: 'B', external_source: 'qb', external_id: '1' } });
    expect(external.error).toMatchObject({ code: 'external_id_taken', param: 'external_id' });
    expect((await api.request('POST', path, { key: secret, body: { name: 'B', email: 'nope' } })).body).toMatchObject({ param: 'email' });
    expect((await api.request('POST', path, { key: secret, body: { name: 'B', currency: 'usd' } })).body).toMatchObject({ param: 'currency' });
    expect((await api.request('POST', path, { key: secret, body: unchecked({}) })).error).toMatchObject({ code: 'parameter_missing', param: 'name' });
    expect((await api.request('GET', `${path}/00000000-0000-0000-0000-000000000000`, { key: secret })).status).toBe(404);
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });
});
