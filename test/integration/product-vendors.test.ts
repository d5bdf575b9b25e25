import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('product-vendor relationships (E14)', () => {
  it('links vendors with terms; setting is_preferred demotes the previous preferred vendor', async () => {
    const owner = await api.newEntity();
    const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'PV-1', name: 'Sourced' } })).body;
    const acme = (await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'Acme Supply' } })).body;
    const globex = (await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'Globex' } })).body;
    const first = await api.request('POST', `/v1/products/${product.id}/vendors`, {
      key: owner.secret,
      body: { vendor_id: acme.id, vendor_sku: 'AC-77', vendor_cost: 3.5, lead_time_days: 10, order_multiple: 12, is_preferred: true },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'product_vendor',
      vendor_name: 'Acme Supply',
      vendor_sku: 'AC-77',
      vendor_cost: 3.5,
      lead_time_days: 10,
      order_multiple: 12,
      is_preferred: true,
    });
    const second = (await api.request('POST', `/v1/products/${product.id}/vendors`, { key: owner.secret, body: { vendor_id: globex.id } })).body;
    expect(second).toMatchObject({ order_multiple: 1, is_preferred: false });
    const promoted = await api.request('PATCH', `/v1/products/${product.id}/vendors/${second.id}`, {
      key: owner.secret,
      body: { is_preferred: true, order_multiple: '2.5' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: second.id, is_preferred: true, order_multiple: 2.5 });
    const list = await api.request('GET', `/v1/products/${product.id}/vendors`, { key: owner.secret });
    expect(list.body.data.map((r) => [r.vendor_name, r.is_preferred])).toEqual([
      ['Globex', true],
      ['Acme Supply', false],
    ]);
    const removed = await api.request('DELETE', `/v1/products/${product.id}/vendors/${first.body.id}`, { key: owner.secret });
    expect(removed.body).toEqual({ id: first.body.id, object: 'product_vendor', livemode: false, deleted: true });
  });

  it('refuses duplicates, foreign vendors, bad multiples and a relationship of another product, writing nothing', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'PV-2', name: 'Sourced' } })).body;
    const product2 = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'PV-3', name: 'Other' } })).body;
    const vendor = (await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'V' } })).body;
    const theirs = (await api.request('POST', '/v1/vendors', { key: other.secret, body: { name: 'Theirs' } })).body;
    const link = (await api.request('POST', `/v1/products/${product.id}/vendors`, { key: owner.secret, body: { vendor_id: vendor.id } })).body;
    const before = await tenantRowCounts(owner.entity.id);
    const duplicate = await api.request('POST', `/v1/products/${product.id}/vendors`, { key: owner.secret, body: { vendor_id: vendor.id } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'product_vendor_exists', param: 'vendor_id' });
    const foreign = await api.request('POST', `/v1/products/${product.id}/vendors`, { key: owner.secret, body: { vendor_id: theirs.id } });
    expect(foreign.error).toMatchObject({ code: 'not_found', param: 'vendor_id' });
    const zero = await api.request('PATCH', `/v1/products/${product.id}/vendors/${link.id}`, { key: owner.secret, body: { order_multiple: 0 } });
    expect(zero.error).toMatchObject({ code: 'parameter_invalid', param: 'order_multiple' });
    const wrongParent = await api.request('PATCH', `/v1/products/${product2.id}/vendors/${link.id}`, { key: owner.secret, body: { is_preferred: true } });
    expect(wrongParent.status).toBe(404);
    expect(wrongParent.error).toMatchObject({ code: 'not_found', param: 'pvid' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });
});
