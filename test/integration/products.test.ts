import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('products', () => {
  it('creates, gets, lists, updates and deletes a product; events record each change', async () => {
    const { secret, entity } = await api.newEntity();
    const manufacturer = (await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: 'Acme' } })).body;
    const created = await api.request('POST', '/v1/products', {
      key: secret,
      body: {
        sku: 'DRL-100',
        name: 'Cordless drill',
        manufacturer_id: manufacturer.id,
        list_price: 129.99,
        cost: '61.2500',
        reorder_point: 5,
        metadata: { legacy: 'x1' },
        external_source: 'legacy_erp',
        external_id: 'P-77',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'product',
      entity_id: entity.id,
      sku: 'DRL-100',
      product_type: 'simple',
      list_price: 129.99,
      cost: 61.25,
      reorder_point: 5,
      is_active: true,
      external_id: 'P-77',
    });
    const fetched = await api.request('GET', `/v1/products/${created.body.id}`, { key: secret, query: { 'expand[]': 'manufacturer' } });
    expect(fetched.body.manufacturer).toMatchObject({ id: manufacturer.id, name: 'Acme' });
    const updated = await api.request('PATCH', `/v1/products/${created.body.id}`, { key: secret, body: { name: 'Drill 18V', list_price: null } });
    expect(updated.body).toMatchObject({ name: 'Drill 18V', list_price: null });
    const deleted = await api.request('DELETE', `/v1/products/${created.body.id}`, { key: secret });
    expect(deleted.body).toEqual({ id: created.body.id, object: 'product', livemode: false, deleted: true });
    expect((await api.request('GET', `/v1/products/${created.body.id}`, { key: secret })).status).toBe(404);
    const types = api.published.filter((e) => e.entity_id === entity.id && e.type.startsWith('product.')).map((e) => e.type);
    expect(types).toEqual(['product.created', 'product.updated', 'product.deleted']);
  });

  it('filters and searches by sku and name, with keyset pages', async () => {
    const { secret } = await api.newEntity();
    for (const [sku, name, product_type] of [
      ['AB-1', 'Blue pen', 'simple'],
      ['AB-2', 'Red pen', 'simple'],
      ['XY-9', 'Pen refill 50%', 'simple'],
      ['SV-1', 'Setup service', 'service'],
    ] as const) {
      expect((await api.request('POST', '/v1/products', { key: secret, body: { sku, name, product_type } })).status).toBe(201);
    }
    const skus = async (query: Record<string, string>) => (await api.request('GET', '/v1/products', { key: secret, query })).body.data.map((p) => p.sku);
    expect(await skus({ q: 'ab' })).toEqual(['AB-2', 'AB-1']);
    expect(await skus({ q: 'PEN' })).toEqual(['XY-9', 'AB-2', 'AB-1']);
    expect(await skus({ q: '50%' })).toEqual(['XY-9']);
    expect(await skus({ q: '%' })).toEqual(['XY-9']);
    expect(await skus({ sku: 'ab-1' })).toEqual(['AB-1']);
    expect(await skus({ product_type: 'service' })).toEqual(['SV-1']);
    const page1 = await api.request('GET', '/v1/products', { key: secret, query: { limit: '3' } });
    expect(page1.body.has_more).toBe(true);
    const page2 = await api.request('GET', '/v1/products', { key: secret, query: { limit: '3', starting_after: page1.body.next_cursor! } });
    expect(page2.body.data.map((p) => p.sku)).toEqual(['AB-1']);
  });

  it('searches a term with more matches than the index lookup takes, page after page, and quotes every term', async () => {
    const { secret, entity } = await api.newEntity();
    // 1,200 matches: more than product_search_ids hands back (1,000), so the ordered scan filters.
    const admin = new pg.Client({ connectionString: api.databaseUrl });
    await admin.connect();
    try {
      await admin.query(
        `INSERT INTO products (id, entity_id, sku, name, product_type, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'BULK-' || lpad(i::text, 5, '0'), CASE WHEN i <= 1200 THEN 'Oak shelf ' ELSE 'Pine desk ' END || i, 'simple',
                timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01' + i * interval '1 second'
         FROM generate_series(1, 1300) AS i`,
        [entity.id],
      );
    } finally {
      await admin.end();
    }
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.request('GET', '/v1/products', { key: secret, query: { q: 'oak', limit: '100', ...(cursor && { starting_after: cursor }) } });
      expect(page.status).toBe(200);
      names.push(...page.body.data.map((p) => p.name));
      cursor = page.body.has_more ? page.body.next_cursor! : undefined;
    } while (cursor);
    expect(names).toHaveLength(1200);
    expect(names[0]).toBe('Oak shelf 1200');
    expect(names.at(-1)).toBe('Oak shelf 1');
    const few = await api.request('GET', '/v1/products', { key: secret, query: { q: 'pine desk 130' } });
    expect(few.body.data.map((p) => p.name)).toEqual(['Pine desk 1300']);
    for (const q of [`o'brien`, `x%' OR true --`, `\\`, `_`]) {
      const quoted = await api.request('GET', '/v1/products', { key: secret, query: { q } });
      expect(quoted.status, q).toBe(200);
      expect(quoted.body.data, q).toEqual([]);
    }
  });

  it('refuses duplicates, foreign references and kit changes with precise codes, writing nothing', async () => {
    const { secret, entity } = await api.newEntity();
    const other = await api.newEntity();
    const theirManufacturer = (await api.request('POST', '/v1/manufacturers', { key: other.secret, body: { name: 'Theirs' } })).body;
    const product = (await api.request('POST', '/v1/products', { key: secret, body: { sku: 'A-1', name: 'A', external_source: 's', external_id: '1' } })).body;
    const before = await tenantRowCounts(entity.id);
    const duplicate = await api.request('POST', '/v1/products', { key: secret, body: { sku: 'a-1', name: 'B' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'product_sku_taken', param: 'sku' });
    const external = await api.request('POST', '/v1/products', { key: secret, body: { sku: 'B-1', name: 'B', external_source: 's', external_id: '1' } });
    expect(external.error).toMatchObject({ code: 'external_id_taken', param: 'external_id' });
    const foreign = await api.request('POST', '/v1/products', { key: secret, body: { sku: 'C-1', name: 'C', manufacturer_id: theirManufacturer.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'not_found', param: 'manufacturer_id' });
    const kit = await api.request('POST', '/v1/products', { key: secret, body: unchecked({ sku: 'K-1', name: 'K', product_type: 'kit' }) });
    expect(kit.error).toMatchObject({ code: 'parameter_invalid', param: 'product_type' });
    const negative = await api.request('POST', '/v1/products', { key: secret, body: { sku: 'N-1', name: 'N', list_price: -1 } });
    expect(negative.error).toMatchObject({ code: 'parameter_invalid', param: 'list_price' });
    const precision = await api.request('POST', '/v1/products', { key: secret, body: { sku: 'N-1', name: 'N', cost: 1.00001 } });
    expect(precision.error).toMatchObject({ code: 'parameter_invalid', param: 'cost' });
    const missing = await api.request('POST', '/v1/products', { key: secret, body: unchecked({ name: 'N' }) });
    expect(missing.error).toMatchObject({ code: 'parameter_missing', param: 'sku' });
    const rename = await api.request('PATCH', `/v1/products/${product.id}`, { key: secret, body: { sku: 'A-1 ' } });
    expect(rename.status).toBe(200);
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });

  it('answers 409 manufacturer_in_use with references.products on manufacturer delete (E1)', async () => {
    const { secret, entity } = await api.newEntity();
    const manufacturer = (await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: 'Bosch' } })).body;
    const ids: string[] = [];
    for (const sku of ['M-1', 'M-2']) {
      ids.push((await api.request('POST', '/v1/products', { key: secret, body: { sku, name: sku, manufacturer_id: manufacturer.id } })).body.id);
    }
    const before = await tenantRowCounts(entity.id);
    const refused = await api.request('DELETE', `/v1/manufacturers/${manufacturer.id}`, { key: secret });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'manufacturer_in_use', type: 'conflict', param: 'id', references: { total_count: 2 } });
    expect([...(refused.error.references as { products: string[] }).products].sort()).toEqual([...ids].sort());
    expect(await tenantRowCounts(entity.id)).toEqual(before);
    for (const id of ids) await api.request('PATCH', `/v1/products/${id}`, { key: secret, body: { manufacturer_id: null } });
    expect((await api.request('DELETE', `/v1/manufacturers/${manufacturer.id}`, { key: secret })).status).toBe(200);
  });

  it('refuses to delete a product with inventory history (product_in_use)', async () => {
    const { secret, entity } = await api.newEntity();
    const location = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Main' } })).body;
    const product = (await api.request('POST', '/v1/products', { key: secret, body: { sku: 'H-1', name: 'History' } })).body;
    await api.request('POST', '/v1/inventory/receipts', { key: secret, body: { product_id: product.id, location_id: location.id, quantity: 1, unit_cost: 1 } });
    const before = await tenantRowCounts(entity.id);
    const refused = await api.request('DELETE', `/v1/products/${product.id}`, { key: secret });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'product_in_use', references: { inventory_transactions: true } });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });
});
