import { describe, expect, it } from 'vitest';
import { withLines } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('units of measure (E28)', () => {
  it('makes the first unit of a type its base; later units need a conversion factor', async () => {
    const { secret, entity } = await api.newEntity();
    const each = await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Each', abbreviation: 'ea', uom_type: 'count' } });
    expect(each.status).toBe(201);
    expect(each.body).toMatchObject({ object: 'unit_of_measure', is_base: true, conversion_factor: 1, uom_type: 'count', entity_id: entity.id });
    const dozen = await api.request('POST', '/v1/units-of-measure', {
      key: secret,
      body: { name: 'Dozen', abbreviation: 'dz', uom_type: 'count', conversion_factor: 12 },
    });
    expect(dozen.body).toMatchObject({ is_base: false, conversion_factor: 12 });
    const gram = await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Gram', abbreviation: 'g', uom_type: 'weight' } });
    expect(gram.body.is_base).toBe(true);
    const list = await api.request('GET', '/v1/units-of-measure', { key: secret, query: { uom_type: 'count' } });
    expect(list.body.data.map((u) => u.abbreviation)).toEqual(['dz', 'ea']);
    const updated = await api.request('PATCH', `/v1/units-of-measure/${dozen.body.id}`, { key: secret, body: { conversion_factor: '12.5' } });
    expect(updated.body.conversion_factor).toBe(12.5);
    expect(await api.get(secret, `/v1/units-of-measure/${dozen.body.id}`)).toEqual(updated.body);
  });

  it('refuses bad input and conflicts with precise codes, writing nothing', async () => {
    const { secret, entity } = await api.newEntity();
    const base = (await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Each', abbreviation: 'ea', uom_type: 'count' } })).body;
    const before = await tenantRowCounts(entity.id);
    const missing = await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Case', abbreviation: 'cs', uom_type: 'count' } });
    expect(missing.error).toMatchObject({ code: 'parameter_missing', param: 'conversion_factor' });
    const baseFactor = await api.request('POST', '/v1/units-of-measure', {
      key: secret,
      body: { name: 'Litre', abbreviation: 'l', uom_type: 'volume', conversion_factor: 3 },
    });
    expect(baseFactor.error).toMatchObject({ code: 'parameter_invalid', param: 'conversion_factor' });
    const duplicate = await api.request('POST', '/v1/units-of-measure', {
      key: secret,
      body: { name: 'Each again', abbreviation: 'EA', uom_type: 'count', conversion_factor: 1 },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'uom_abbreviation_taken', param: 'abbreviation' });
    const badType = await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'X', abbreviation: 'x', uom_type: 'Count!' } });
    expect(badType.error).toMatchObject({ code: 'parameter_invalid', param: 'uom_type' });
    const zero = await api.request('POST', '/v1/units-of-measure', {
      key: secret,
      body: { name: 'X', abbreviation: 'x', uom_type: 'count', conversion_factor: 0 },
    });
    expect(zero.error).toMatchObject({ code: 'parameter_invalid', param: 'conversion_factor' });
    const rebase = await api.request('PATCH', `/v1/units-of-measure/${base.id}`, { key: secret, body: { conversion_factor: 2 } });
    expect(rebase.error).toMatchObject({ code: 'parameter_invalid', param: 'conversion_factor' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });

  it('refuses deleting a unit in use (uom_in_use) and a base unit while others of its type exist (uom_is_base)', async () => {
    const { secret, entity } = await api.newEntity();
    const each = (await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Each', abbreviation: 'ea', uom_type: 'count' } })).body;
    const pack = (
      await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Pack', abbreviation: 'pk', uom_type: 'count', conversion_factor: 6 } })
    ).body;
    const product = (await api.request('POST', '/v1/products', { key: secret, body: { sku: 'W-1', name: 'Widget', uom_id: pack.id } })).body;
    const before = await tenantRowCounts(entity.id);
    const inUse = await api.request('DELETE', `/v1/units-of-measure/${pack.id}`, { key: secret });
    expect(inUse.status).toBe(409);
    expect(inUse.error).toMatchObject({ code: 'uom_in_use', param: 'id', references: { products: [product.id], product_count: 1 } });
    const isBase = await api.request('DELETE', `/v1/units-of-measure/${each.id}`, { key: secret });
    expect(isBase.status).toBe(409);
    expect(isBase.error).toMatchObject({ code: 'uom_is_base', param: 'id' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
    await api.request('PATCH', `/v1/products/${product.id}`, { key: secret, body: { uom_id: null } });
    const deleted = await api.request('DELETE', `/v1/units-of-measure/${pack.id}`, { key: secret });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: pack.id, object: 'unit_of_measure', livemode: false, deleted: true });
    expect((await api.request('DELETE', `/v1/units-of-measure/${each.id}`, { key: secret })).status).toBe(200);
    expect((await api.request('GET', `/v1/units-of-measure/${each.id}`, { key: secret })).status).toBe(404);
  });

  it('counts an inventory transaction as a use of its unit', async () => {
    const { secret } = await api.newEntity();
    const each = (await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Each', abbreviation: 'ea', uom_type: 'count' } })).body;
    const location = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Main' } })).body;
    const product = (await api.request('POST', '/v1/products', { key: secret, body: { sku: 'W-2', name: 'Widget', uom_id: each.id } })).body;
    const receipt = await api.request('POST', '/v1/inventory/receipts', {
      key: secret,
      body: { product_id: product.id, location_id: location.id, quantity: 1, unit_cost: 2 },
    });
    expect(receipt.body.uom_id).toBe(each.id);
    await api.request('PATCH', `/v1/products/${product.id}`, { key: secret, body: { uom_id: null } });
    const inUse = await api.request('DELETE', `/v1/units-of-measure/${each.id}`, { key: secret });
    expect(inUse.error).toMatchObject({ code: 'uom_in_use', references: { product_count: 0, has_inventory_transactions: true } });
  });

  it('purchase order lines carry a unit of measure; a unit on any order line is in use', async () => {
    const { secret, entity } = await api.newEntity();
    const other = await api.newEntity();
    const each = (await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Each', abbreviation: 'ea', uom_type: 'count' } })).body;
    const caseUnit = (
      await api.request('POST', '/v1/units-of-measure', { key: secret, body: { name: 'Case', abbreviation: 'cs', uom_type: 'count', conversion_factor: 12 } })
    ).body;
    const theirs = (await api.request('POST', '/v1/units-of-measure', { key: other.secret, body: { name: 'Box', abbreviation: 'bx', uom_type: 'count' } }))
      .body;
    const vendor = (await api.request('POST', '/v1/vendors', { key: secret, body: { name: 'Supplier' } })).body;
    const account = (await api.request('POST', '/v1/accounts', { key: secret, body: { name: 'Customer' } })).body;
    const product = (await api.request('POST', '/v1/products', { key: secret, body: { sku: 'CASE-1', name: 'Soda', list_price: 1 } })).body;
    const po = await api.request('POST', '/v1/orders', {
      key: secret,
      body: { document_type: 'purchase_order', account_id: vendor.id, lines: [{ product_id: product.id, quantity: 2, unit_of_measure_id: caseUnit.id }] },
    });
    expect(po.status, po.text).toBe(201);
    expect(withLines(po.body).lines[0]).toMatchObject({ unit_of_measure_id: caseUnit.id, quantity: 2 });

    // Refusals write nothing: a sales document line (400), another entity's unit (404), on create and on update.
    const before = await tenantRowCounts(entity.id);
    const onSales = await api.request('POST', '/v1/orders', {
      key: secret,
      body: { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: product.id, quantity: 1, unit_of_measure_id: each.id }] },
    });
    expect(onSales.status).toBe(400);
    expect(onSales.error).toMatchObject({ code: 'parameter_invalid', param: 'lines[0].unit_of_measure_id' });
    const foreign = await api.request('POST', `/v1/orders/${po.body.id}/lines`, {
      key: secret,
      body: { product_id: product.id, quantity: 1, unit_of_measure_id: theirs.id },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'not_found', param: 'unit_of_measure_id' });
    const badPatch = await api.request('PATCH', `/v1/orders/${po.body.id}/items/${withLines(po.body).lines[0].id}`, {
      key: secret,
      body: { unit_of_measure_id: theirs.id },
    });
    expect(badPatch.error).toMatchObject({ code: 'not_found', param: 'unit_of_measure_id' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);

    const inUse = await api.request('DELETE', `/v1/units-of-measure/${caseUnit.id}`, { key: secret });
    expect(inUse.status).toBe(409);
    expect(inUse.error).toMatchObject({
      code: 'uom_in_use',
      param: 'id',
      references: { product_count: 0, has_order_lines: true, has_inventory_transactions: false },
    });

    // The line moves to another unit: the case is free again.
    const patched = await api.request('PATCH', `/v1/orders/${po.body.id}/items/${withLines(po.body).lines[0].id}`, {
      key: secret,
      body: { unit_of_measure_id: each.id },
    });
    expect(patched.status, patched.text).toBe(200);
    const line = (await api.get(secret, `/v1/orders/${po.body.id}`)).lines[0];
    expect(line.unit_of_measure_id).toBe(each.id);
    expect((await api.request('DELETE', `/v1/units-of-measure/${caseUnit.id}`, { key: secret })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/units-of-measure/${each.id}`, { key: secret })).error).toMatchObject({ code: 'uom_in_use' });
  });
});
