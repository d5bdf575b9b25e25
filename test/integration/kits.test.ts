import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';

const api = setupTestApi();

async function product(owner: TestEntity, sku: string, extra: Record<string, unknown> = {}) {
  const response = await api.request('POST', '/v1/products', { key: owner.secret, body: { sku, name: `${sku} name`, ...extra } });
  expect(response.status).toBe(201);
  return response.body;
}

describe('kits (E7, E24, GET /v1/kits)', () => {
  it('creates the kit header and components atomically and returns the kit with embedded components', async () => {
    const owner = await api.newEntity();
    const frame = await product(owner, 'FRAME');
    const wheel = await product(owner, 'WHEEL');
    const created = await api.request('POST', '/v1/kits', {
      key: owner.secret,
      body: {
        sku: 'BIKE-KIT',
        product_name: 'Bike kit',
        description: 'Frame and two wheels',
        metadata: { line: 'road' },
        components: [
          { component_product_id: frame.id, quantity_per_kit: 1, sequence: 1, is_assembled: true },
          { component_product_id: wheel.id, quantity_per_kit: '2.5', sequence: 2, metadata: { side: 'both' } },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'product',
      product_type: 'kit',
      sku: 'BIKE-KIT',
      name: 'Bike kit',
      product_name: 'Bike kit',
      metadata: { line: 'road' },
    });
    expect(created.body.components).toHaveLength(2);
    expect(created.body.components[1]).toMatchObject({
      object: 'kit_component',
      parent_product_id: created.body.id,
      component_product_id: wheel.id,
      component_product_sku: 'WHEEL',
      component_product_title: 'WHEEL name',
      quantity_per_kit: 2.5,
      sequence: 2,
      is_assembled: false,
      metadata: { side: 'both' },
    });
    const components = await api.request('GET', `/v1/products/${created.body.id}/components`, { key: owner.secret });
    expect(components.body).toMatchObject({ object: 'list', total: 2, has_more: false });
    expect(components.body.data.map((c: any) => c.component_product_id)).toEqual([frame.id, wheel.id]);
    expect((await api.request('GET', `/v1/kits/${created.body.id}`, { key: owner.secret })).body).toEqual(created.body);
    const list = await api.request('GET', '/v1/kits', { key: owner.secret });
    expect(list.body.data.map((k: any) => k.id)).toEqual([created.body.id]);
    expect(list.body.data[0].components).toHaveLength(2);
    const asProduct = await api.request('GET', `/v1/products/${created.body.id}`, { key: owner.secret });
    expect(asProduct.body.product_type).toBe('kit');
  });

  it('writes nothing when any component is invalid', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const part = await product(owner, 'PART');
    const service = await product(owner, 'SETUP', { product_type: 'service' });
    const foreign = await product(other, 'THEIRS');
    const before = await tenantRowCounts(owner.entity.id);
    const kit = (components: unknown[]) => api.request('POST', '/v1/kits', { key: owner.secret, body: { sku: 'K', product_name: 'K', components } });
    const notFound = await kit([
      { component_product_id: part.id, quantity_per_kit: 1 },
      { component_product_id: foreign.id, quantity_per_kit: 1 },
    ]);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ code: 'not_found', param: 'components[1].component_product_id' });
    const notSimple = await kit([{ component_product_id: service.id, quantity_per_kit: 1 }]);
    expect(notSimple.body).toMatchObject({ code: 'parameter_invalid', param: 'components[0].component_product_id' });
    const repeated = await kit([
      { component_product_id: part.id, quantity_per_kit: 1 },
      { component_product_id: part.id, quantity_per_kit: 2 },
    ]);
    expect(repeated.body).toMatchObject({ code: 'parameter_invalid', param: 'components[1].component_product_id' });
    const badQuantity = await kit([{ component_product_id: part.id, quantity_per_kit: 0 }]);
    expect(badQuantity.body).toMatchObject({ code: 'parameter_invalid', param: 'components[0].quantity_per_kit' });
    const tooPrecise = await kit([{ component_product_id: part.id, quantity_per_kit: 1.00001 }]);
    expect(tooPrecise.body).toMatchObject({ code: 'parameter_invalid', param: 'components[0].quantity_per_kit' });
    expect((await kit([])).body).toMatchObject({ code: 'parameter_invalid', param: 'components' });
    const skuTaken = await api.request('POST', '/v1/kits', {
      key: owner.secret,
      body: { sku: 'part', product_name: 'K', components: [{ component_product_id: part.id, quantity_per_kit: 1 }] },
    });
    expect(skuTaken.body).toMatchObject({ code: 'product_sku_taken', param: 'sku' });
    const bundle = await api.request('POST', '/v1/kits', {
      key: owner.secret,
      body: { sku: 'B', product_name: 'B', product_type: 'bundle', components: [{ component_product_id: part.id, quantity_per_kit: 1 }] },
    });
    expect(bundle.body).toMatchObject({ code: 'parameter_invalid', param: 'product_type' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('answers 404 for the components and builds of a product that is not a kit', async () => {
    const owner = await api.newEntity();
    const simple = await product(owner, 'SIMPLE');
    const components = await api.request('GET', `/v1/products/${simple.id}/components`, { key: owner.secret });
    expect(components.status).toBe(404);
    expect(components.body).toMatchObject({ code: 'not_found', param: 'id' });
    expect((await api.request('GET', `/v1/kits/${simple.id}`, { key: owner.secret })).status).toBe(404);
  });

  it('builds kits from component stock, drawing FIFO cost, and reports availability', async () => {
    const owner = await api.newEntity();
    const location = (await api.request('POST', '/v1/locations', { key: owner.secret, body: { name: 'Shop' } })).body;
    const bolt = await product(owner, 'BOLT');
    const plate = await product(owner, 'PLATE');
    const kit = (
      await api.request('POST', '/v1/kits', {
        key: owner.secret,
        body: {
          sku: 'BRACKET',
          product_name: 'Bracket',
          components: [
            { component_product_id: bolt.id, quantity_per_kit: 4 },
            { component_product_id: plate.id, quantity_per_kit: '0.5' },
          ],
        },
      })
    ).body;
    const receive = (productId: string, quantity: number, unit_cost: number) =>
      api.request('POST', '/v1/inventory/receipts', { key: owner.secret, body: { product_id: productId, location_id: location.id, quantity, unit_cost } });
    await receive(bolt.id, 10, 0.1);
    await receive(bolt.id, 10, 0.2);
    await receive(plate.id, 3, 4);
    const availability = await api.request('GET', `/v1/kits/${kit.id}/availability`, { key: owner.secret, query: { location_id: location.id } });
    expect(availability.body).toMatchObject({ object: 'kit_availability', buildable_quantity: 5 });
    expect(availability.body.components.map((c: any) => c.buildable_quantity)).toEqual([5, 6]);

    const build = await api.request('POST', `/v1/kits/${kit.id}/builds`, { key: owner.secret, body: { location_id: location.id, quantity: 3 } });
    expect(build.status).toBe(201);
    // 12 bolts: 10 at 0.10 + 2 at 0.20 = 1.40; 1.5 plates at 4 = 6.00
    expect(build.body).toMatchObject({ object: 'kit_build', kit_product_id: kit.id, quantity: 3, total_cost: 7.4, unit_cost: 2.4667 });
    expect(build.body.transactions.map((t: any) => [t.transaction_type, t.quantity, t.total_cost])).toEqual([
      ['build_consume', -12, -1.4],
      ['build_consume', -1.5, -6],
      ['build_produce', 3, 7.4],
    ]);
    expect(new Set(build.body.transactions.map((t: any) => t.group_id))).toEqual(new Set([build.body.id]));
    const after = await api.request('GET', `/v1/kits/${kit.id}/availability`, { key: owner.secret });
    expect(after.body.buildable_quantity).toBe(2);

    const before = await tenantRowCounts(owner.entity.id);
    const short = await api.request('POST', `/v1/kits/${kit.id}/builds`, { key: owner.secret, body: { location_id: location.id, quantity: 3 } });
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ code: 'insufficient_stock', param: 'quantity', product_id: bolt.id, on_hand: 8 });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const badLocation = await api.request('POST', `/v1/kits/${kit.id}/builds`, {
      key: owner.secret,
      body: { location_id: '00000000-0000-4000-8000-000000000000', quantity: 1 },
    });
    expect(badLocation.body).toMatchObject({ code: 'not_found', param: 'location_id' });
  });
});
