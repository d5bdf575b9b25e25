import { describe, expect, it } from 'vitest';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('pricing levels and policies (E25)', () => {
  it('creates levels and tiered policies; E25 wraps the policy with joined names', async () => {
    const owner = await api.newEntity();
    const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'PR-1', name: 'Priced', list_price: 20, cost: 12 } })).body;
    const level = await api.request('POST', '/v1/pricing-levels', { key: owner.secret, body: { name: 'Wholesale' } });
    expect(level.status).toBe(201);
    expect(level.body).toMatchObject({ object: 'pricing_level', name: 'Wholesale', is_active: true });
    const batch = (await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches`, { external_source: 'legacy' })).id;
    const tier1 = await api.request('POST', '/v1/pricing-policies', {
      key: owner.secret,
      body: {
        product_id: product.id,
        pricing_level_id: level.body.id,
        sell_price: 16,
        migration_batch_id: batch,
        external_source: 'legacy',
        external_id: 'PP-1',
      },
    });
    expect(tier1.status).toBe(201);
    expect(tier1.body).toMatchObject({
      object: 'pricing_policy',
      pricing_type: 'regular',
      min_quantity: 1,
      sell_price: 16,
      list_price: 20,
      adjustment: 4,
      margin_pct: 25,
      level_name: 'Wholesale',
      product_name: 'Priced',
      product_sku: 'PR-1',
      migration_batch_id: batch,
    });
    const tier2 = await api.request('POST', '/v1/pricing-policies', {
      key: owner.secret,
      body: { product_id: product.id, pricing_level_id: level.body.id, sell_price: '14.5', min_quantity: 10 },
    });
    expect(tier2.body).toMatchObject({ min_quantity: 10, sell_price: 14.5, margin_pct: 17.24 });
    const fetched = await api.request('GET', `/v1/pricing-policies/${tier1.body.id}`, { key: owner.secret });
    expect(fetched.body).toEqual({ data: tier1.body });
    const byBatch = await api.request('GET', '/v1/pricing-policies', { key: owner.secret, query: { migration_batch_id: batch } });
    expect(byBatch.body.data.map((p) => p.id)).toEqual([tier1.body.id]);
    expect((await api.get(owner, '/v1/pricing-levels')).data).toHaveLength(1);
    expect(await api.get(owner, `/v1/pricing-levels/${level.body.id}`)).toEqual(level.body);
  });

  it('refuses a repeated tier, foreign references and duplicate level names, writing nothing', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'PR-2', name: 'Priced' } })).body;
    const theirLevel = (await api.request('POST', '/v1/pricing-levels', { key: other.secret, body: { name: 'Theirs' } })).body;
    const theirAccount = (await api.request('POST', '/v1/accounts', { key: other.secret, body: { name: 'Theirs' } })).body;
    await api.request('POST', '/v1/pricing-levels', { key: owner.secret, body: { name: 'Retail' } });
    await api.request('POST', '/v1/pricing-policies', { key: owner.secret, body: { product_id: product.id, sell_price: 5 } });
    const before = await tenantRowCounts(owner.entity.id);
    const repeated = await api.request('POST', '/v1/pricing-policies', { key: owner.secret, body: { product_id: product.id, sell_price: 6 } });
    expect(repeated.status).toBe(409);
    expect(repeated.error).toMatchObject({ code: 'pricing_tier_exists', param: 'min_quantity' });
    const level = await api.request('POST', '/v1/pricing-policies', {
      key: owner.secret,
      body: { product_id: product.id, sell_price: 6, pricing_level_id: theirLevel.id },
    });
    expect(level.error).toMatchObject({ code: 'not_found', param: 'pricing_level_id' });
    const account = await api.request('POST', '/v1/pricing-policies', {
      key: owner.secret,
      body: { product_id: product.id, sell_price: 6, account_id: theirAccount.id },
    });
    expect(account.error).toMatchObject({ code: 'not_found', param: 'account_id' });
    // A missing decimal field is reported on its name (the shared validator classes it as invalid).
    expect((await api.request('POST', '/v1/pricing-policies', { key: owner.secret, body: unchecked({ product_id: product.id }) })).body).toMatchObject({
      param: 'sell_price',
    });
    expect((await api.request('POST', '/v1/pricing-levels', { key: owner.secret, body: { name: 'RETAIL' } })).error).toMatchObject({
      code: 'pricing_level_name_taken',
      param: 'name',
    });
    expect((await api.request('GET', '/v1/pricing-policies/00000000-0000-4000-8000-000000000000', { key: owner.secret })).status).toBe(404);
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });
});
