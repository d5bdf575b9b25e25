import { describe, expect, it } from 'vitest';
import { expectError, unchecked, withLines, type BodyFor } from '../support/client';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import type { DocumentType, OrderLineBody } from '../support/worlds';

const api = setupTestApi();

async function product(owner: TestEntity, sku: string, extra: Partial<BodyFor<'POST', '/v1/products'>> = {}) {
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
    expect(components.body.data.map((c) => c.component_product_id)).toEqual([frame.id, wheel.id]);
    expect(await api.get(owner, `/v1/kits/${created.body.id}`)).toEqual(created.body);
    const list = await api.request('GET', '/v1/kits', { key: owner.secret });
    expect(list.body.data.map((k) => k.id)).toEqual([created.body.id]);
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
    const kit = (components: unknown[]) => api.request('POST', '/v1/kits', { key: owner.secret, body: unchecked({ sku: 'K', product_name: 'K', components }) });
    const notFound = await kit([
      { component_product_id: part.id, quantity_per_kit: 1 },
      { component_product_id: foreign.id, quantity_per_kit: 1 },
    ]);
    expect(notFound.status).toBe(404);
    expect(notFound.error).toMatchObject({ code: 'not_found', param: 'components[1].component_product_id' });
    const notSimple = await kit([{ component_product_id: service.id, quantity_per_kit: 1 }]);
    expect(notSimple.error).toMatchObject({ code: 'parameter_invalid', param: 'components[0].component_product_id' });
    const repeated = await kit([
      { component_product_id: part.id, quantity_per_kit: 1 },
      { component_product_id: part.id, quantity_per_kit: 2 },
    ]);
    expect(repeated.error).toMatchObject({ code: 'parameter_invalid', param: 'components[1].component_product_id' });
    const badQuantity = await kit([{ component_product_id: part.id, quantity_per_kit: 0 }]);
    expect(badQuantity.error).toMatchObject({ code: 'parameter_invalid', param: 'components[0].quantity_per_kit' });
    const tooPrecise = await kit([{ component_product_id: part.id, quantity_per_kit: 1.00001 }]);
    expect(tooPrecise.error).toMatchObject({ code: 'parameter_invalid', param: 'components[0].quantity_per_kit' });
    expect((await kit([])).error).toMatchObject({ code: 'parameter_invalid', param: 'components' });
    const skuTaken = await api.request('POST', '/v1/kits', {
      key: owner.secret,
      body: { sku: 'part', product_name: 'K', components: [{ component_product_id: part.id, quantity_per_kit: 1 }] },
    });
    expect(skuTaken.error).toMatchObject({ code: 'product_sku_taken', param: 'sku' });
    const bundle = await api.request('POST', '/v1/kits', {
      key: owner.secret,
      body: unchecked({ sku: 'B', product_name: 'B', product_type: 'service', components: [{ component_product_id: part.id, quantity_per_kit: 1 }] }),
    });
    expect(bundle.error).toMatchObject({ code: 'parameter_invalid', param: 'product_type' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('answers 404 for the components and builds of a product that is not a kit', async () => {
    const owner = await api.newEntity();
    const simple = await product(owner, 'SIMPLE');
    const components = await api.request('GET', `/v1/products/${simple.id}/components`, { key: owner.secret });
    expect(components.status).toBe(404);
    expect(components.error).toMatchObject({ code: 'not_found', param: 'id' });
    expect((await api.request('GET', `/v1/kits/${simple.id}`, { key: owner.secret })).status).toBe(404);
  });

  it('E24 is only valid for product_type kit; 404 otherwise: a bundle is a 404 there, and lists its components on GET /v1/kits/{id}/components', async () => {
    const owner = await api.newEntity();
    const soap = await product(owner, 'SOAP');
    const towel = await product(owner, 'TOWEL');
    const service = await product(owner, 'SETUP', { product_type: 'service' });
    const bundle = await api.post(owner, '/v1/kits', {
      sku: 'SPA-SET',
      product_name: 'Spa set',
      product_type: 'bundle',
      components: [
        { component_product_id: soap.id, quantity_per_kit: 2 },
        { component_product_id: towel.id, quantity_per_kit: 1 },
      ],
    });
    const kit = await api.post(owner, '/v1/kits', {
      sku: 'SOAP-KIT',
      product_name: 'Soap kit',
      components: [{ component_product_id: soap.id, quantity_per_kit: 3 }],
    });
    for (const id of [bundle.id, soap.id, service.id]) {
      const refused = await api.request('GET', `/v1/products/${id}/components`, { key: owner.secret });
      expect(refused.status).toBe(404);
      expect(refused.error).toMatchObject({ code: 'not_found', type: 'not_found', param: 'id' });
    }
    expect(await api.get(owner, `/v1/products/${kit.id}/components`)).toMatchObject({
      object: 'list',
      total: 1,
      data: [{ component_product_id: soap.id, quantity_per_kit: 3 }],
    });
    const bundleComponents = await api.get(owner, `/v1/kits/${bundle.id}/components`);
    expect(bundleComponents).toMatchObject({ object: 'list', total: 2, has_more: false });
    expect(bundleComponents.data.map((c) => [c.component_product_id, c.quantity_per_kit])).toEqual([
      [soap.id, 2],
      [towel.id, 1],
    ]);
    expect(await api.get(owner, `/v1/kits/${kit.id}/components`)).toMatchObject({ total: 1 });
    const notKit = await api.request('GET', `/v1/kits/${soap.id}/components`, { key: owner.secret });
    expect(notKit.status).toBe(404);
    expect(notKit.error).toMatchObject({ code: 'not_found', param: 'id' });
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
    expect(availability.body.components.map((c) => c.buildable_quantity)).toEqual([5, 6]);

    const build = await api.request('POST', `/v1/kits/${kit.id}/builds`, { key: owner.secret, body: { location_id: location.id, quantity: 3 } });
    expect(build.status).toBe(201);
    // 12 bolts: 10 at 0.10 + 2 at 0.20 = 1.40; 1.5 plates at 4 = 6.00
    expect(build.body).toMatchObject({ object: 'kit_build', kit_product_id: kit.id, quantity: 3, total_cost: 7.4, unit_cost: 2.4667 });
    expect(build.body.transactions.map((t) => [t.transaction_type, t.quantity, t.total_cost])).toEqual([
      ['build_consume', -12, -1.4],
      ['build_consume', -1.5, -6],
      ['build_produce', 3, 7.4],
    ]);
    expect(new Set(build.body.transactions.map((t) => t.group_id))).toEqual(new Set([build.body.id]));
    const after = await api.request('GET', `/v1/kits/${kit.id}/availability`, { key: owner.secret });
    expect(after.body.buildable_quantity).toBe(2);

    // Committed demand takes stock away from building: a confirmed sales order of 6 bolts (drafts and
    // purchase orders do not count), and a sold kit's component lines (its own line does not).
    const account = (await api.request('POST', '/v1/accounts', { key: owner.secret, body: { name: 'Buyer' } })).body;
    const vendor = (await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'Supplier' } })).body;
    const order = async (document_type: DocumentType, party: string, lines: OrderLineBody[], confirm: boolean) => {
      const created = await api.request('POST', '/v1/orders', {
        key: owner.secret,
        body: { document_type, account_id: party, location_id: location.id, lines },
      });
      expect(created.status, created.text).toBe(201);
      if (confirm) expect((await api.request('POST', `/v1/orders/${created.body.id}/confirm`, { key: owner.secret })).status).toBe(200);
    };
    await order('sales_order', account.id, [{ product_id: bolt.id, quantity: 6 }], true);
    await order('sales_order', account.id, [{ product_id: bolt.id, quantity: 8 }], false);
    await order('purchase_order', vendor.id, [{ product_id: bolt.id, quantity: 50 }], true);
    // bolts: 8 on hand - 6 committed = 2, less than one kit's 4.
    const committed = await api.request('GET', `/v1/kits/${kit.id}/availability`, { key: owner.secret, query: { location_id: location.id } });
    expect(committed.body).toMatchObject({ buildable_quantity: 0 });
    expect(committed.body.components.map((c) => [c.available, c.buildable_quantity])).toEqual([
      [2, 0],
      [1.5, 3],
    ]);
    // One kit sold: its component lines commit 4 bolts and 0.5 plates; the kit line itself commits nothing.
    await order('sales_order', account.id, [{ product_id: kit.id, quantity: 1 }], true);
    const sold = await api.request('GET', `/v1/kits/${kit.id}/availability`, { key: owner.secret });
    expect(sold.body.components.map((c) => c.available)).toEqual([-2, 1]);
    const kitBalance = (await api.get(owner, '/v1/inventory/balances', { product_id: kit.id })).data[0];
    expect(kitBalance).toMatchObject({ on_hand: 3, committed: 0, available: 3 });

    const before = await tenantRowCounts(owner.entity.id);
    const short = await api.request('POST', `/v1/kits/${kit.id}/builds`, { key: owner.secret, body: { location_id: location.id, quantity: 3 } });
    expect(short.status).toBe(422);
    expect(short.error).toMatchObject({ code: 'insufficient_stock', param: 'quantity', product_id: bolt.id, on_hand: 8 });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const badLocation = await api.request('POST', `/v1/kits/${kit.id}/builds`, {
      key: owner.secret,
      body: { location_id: '00000000-0000-4000-8000-000000000000', quantity: 1 },
    });
    expect(badLocation.error).toMatchObject({ code: 'not_found', param: 'location_id' });
  });
});

describe('kit components after creation', () => {
  async function bikeKit(owner: TestEntity) {
    const frame = await product(owner, 'FRAME');
    const wheel = await product(owner, 'WHEEL');
    const created = await api.request('POST', '/v1/kits', {
      key: owner.secret,
      body: {
        sku: 'BIKE',
        product_name: 'Bike',
        components: [
          { component_product_id: frame.id, quantity_per_kit: 1 },
          { component_product_id: wheel.id, quantity_per_kit: 2 },
        ],
      },
    });
    expect(created.status).toBe(201);
    return { kit: created.body, frame, wheel };
  }
  const listed = async (owner: TestEntity, kitId: string) => await api.get(owner, `/v1/products/${kitId}/components`);

  it('adds, changes and removes components; E24 and the kit reflect each change; events record them', async () => {
    const owner = await api.newEntity();
    const { kit, frame, wheel } = await bikeKit(owner);
    const bell = await product(owner, 'BELL');
    const base = `/v1/kits/${kit.id}/components` as const;

    const added = await api.request('POST', base, {
      key: owner.secret,
      body: { component_product_id: bell.id, quantity_per_kit: '0.25', metadata: { note: 'optional' } },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      object: 'kit_component',
      parent_product_id: kit.id,
      component_product_id: bell.id,
      component_product_sku: 'BELL',
      component_product_title: 'BELL name',
      quantity_per_kit: 0.25,
      sequence: 3,
      is_assembled: false,
      metadata: { note: 'optional' },
    });
    let components = await listed(owner, kit.id);
    expect(components).toMatchObject({ object: 'list', total: 3, has_more: false });
    expect(components.data.map((c) => c.component_product_id)).toEqual([frame.id, wheel.id, bell.id]);
    const kitAfterAdd = await api.get(owner, `/v1/kits/${kit.id}`);
    expect(kitAfterAdd.components).toHaveLength(3);
    expect(kitAfterAdd.updated_at > kit.updated_at).toBe(true);

    const wheelRow = kit.components[1];
    const fetched = await api.request('GET', `${base}/${wheelRow.id}`, { key: owner.secret });
    expect(fetched.body).toEqual(wheelRow);
    const etag = fetched.headers.get('etag')!;
    const patched = await api.request('PATCH', `${base}/${wheelRow.id}`, {
      key: owner.secret,
      headers: { 'If-Match': etag },
      body: { quantity_per_kit: '2.5', sequence: 0, is_assembled: true, metadata: { side: 'both' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: wheelRow.id, quantity_per_kit: 2.5, sequence: 0, is_assembled: true, metadata: { side: 'both' } });
    components = await listed(owner, kit.id);
    expect(components.data.map((c) => c.component_product_id)).toEqual([wheel.id, frame.id, bell.id]);
    // The ETag read before the change no longer matches: 412, nothing written.
    const before = await tenantRowCounts(owner.entity.id);
    const stale = await api.request('PATCH', `${base}/${wheelRow.id}`, { key: owner.secret, headers: { 'If-Match': etag }, body: { quantity_per_kit: 9 } });
    expect(stale.status).toBe(412);
    expect(stale.error).toMatchObject({ code: 'precondition_failed', param: 'If-Match' });
    const staleDelete = await api.request('DELETE', `${base}/${wheelRow.id}`, { key: owner.secret, headers: { 'If-Match': etag } });
    expect(staleDelete.status).toBe(412);
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    expect((await api.get(owner, `${base}/${wheelRow.id}`)).quantity_per_kit).toBe(2.5);
    // Sending the current values changes nothing and records no event.
    expect((await api.request('PATCH', `${base}/${wheelRow.id}`, { key: owner.secret, body: { is_assembled: true } })).status).toBe(200);

    const removed = await api.request('DELETE', `${base}/${added.body.id}`, { key: owner.secret });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: added.body.id, object: 'kit_component', livemode: false, deleted: true });
    components = await listed(owner, kit.id);
    expect(components.total).toBe(2);
    expect(components.data.map((c) => c.id)).toEqual([wheelRow.id, kit.components[0].id]);
    expect((await api.request('GET', `${base}/${added.body.id}`, { key: owner.secret })).error).toMatchObject({ code: 'not_found', param: 'component_id' });

    // Builds use the components as they are now: 2.5 wheels and 1 frame per kit.
    const location = (await api.request('POST', '/v1/locations', { key: owner.secret, body: { name: 'Shop' } })).body;
    for (const id of [frame.id, wheel.id]) {
      await api.request('POST', '/v1/inventory/receipts', {
        key: owner.secret,
        body: { product_id: id, location_id: location.id, quantity: 10, unit_cost: 1 },
      });
    }
    const build = await api.request('POST', `/v1/kits/${kit.id}/builds`, { key: owner.secret, body: { location_id: location.id, quantity: 2 } });
    expect(build.body.transactions.map((t) => [t.product_id, t.quantity])).toEqual([
      [wheel.id, -5],
      [frame.id, -2],
      [kit.id, 2],
    ]);

    const events = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('kit_component.'));
    expect(events.map((e) => e.type)).toEqual(['kit_component.created', 'kit_component.updated', 'kit_component.deleted']);
    expect(events[1].data.previous_attributes).toEqual({ quantity_per_kit: 2, sequence: 2, is_assembled: false, metadata: {} });
  });

  it('refuses invalid components with the rules of E7, writing nothing', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const { kit, frame } = await bikeKit(owner);
    const service = await product(owner, 'SETUP', { product_type: 'service' });
    const simple = await product(owner, 'LOOSE');
    const foreign = await product(other, 'THEIRS');
    const theirKit = await bikeKit(other);
    const otherKit = (
      await api.request('POST', '/v1/kits', {
        key: owner.secret,
        body: { sku: 'SOLO', product_name: 'Solo', components: [{ component_product_id: simple.id, quantity_per_kit: 1 }] },
      })
    ).body;
    const before = await tenantRowCounts(owner.entity.id);
    const add = (kitId: string, body: unknown) => api.request('POST', `/v1/kits/${kitId}/components`, { key: owner.secret, body: unchecked(body) });
    expectError(await add(theirKit.kit.id, { component_product_id: simple.id, quantity_per_kit: 1 }), 404, 'not_found', 'id');
    expectError(await add(simple.id, { component_product_id: frame.id, quantity_per_kit: 1 }), 404, 'not_found', 'id');
    expectError(await add(kit.id, { component_product_id: foreign.id, quantity_per_kit: 1 }), 404, 'not_found', 'component_product_id');
    expectError(await add(kit.id, { component_product_id: service.id, quantity_per_kit: 1 }), 400, 'parameter_invalid', 'component_product_id');
    expectError(await add(kit.id, { component_product_id: otherKit.id, quantity_per_kit: 1 }), 400, 'parameter_invalid', 'component_product_id');
    expectError(await add(kit.id, { component_product_id: kit.id, quantity_per_kit: 1 }), 400, 'parameter_invalid', 'component_product_id');
    expectError(await add(kit.id, { component_product_id: frame.id, quantity_per_kit: 3 }), 409, 'kit_component_exists', 'component_product_id');
    expectError(await add(kit.id, { component_product_id: simple.id, quantity_per_kit: 0 }), 400, 'parameter_invalid', 'quantity_per_kit');
    expectError(await add(kit.id, { component_product_id: simple.id, quantity_per_kit: 1.00001 }), 400, 'parameter_invalid', 'quantity_per_kit');
    expectError(await add(kit.id, { component_product_id: simple.id }), 400, 'parameter_missing', 'quantity_per_kit');

    const frameRow = kit.components[0];
    const patch = (kitId: string, componentId: string, body: unknown) =>
      api.request('PATCH', `/v1/kits/${kitId}/components/${componentId}`, { key: owner.secret, body: unchecked(body) });
    expectError(await patch(kit.id, frameRow.id, { quantity_per_kit: -1 }), 400, 'parameter_invalid', 'quantity_per_kit');
    expectError(await patch(kit.id, frameRow.id, { quantity_per_kit: '0.00001' }), 400, 'parameter_invalid', 'quantity_per_kit');
    expectError(await patch(kit.id, frameRow.id, { component_product_id: simple.id }), 400, 'parameter_unknown', 'component_product_id');
    // A component of another kit, or of another entity's kit, is not a component of this one.
    expectError(await patch(otherKit.id, frameRow.id, { sequence: 5 }), 404, 'not_found', 'component_id');
    expectError(await patch(theirKit.kit.id, theirKit.kit.components[0].id, { sequence: 5 }), 404, 'not_found', 'id');
    expectError(await patch(kit.id, theirKit.kit.components[0].id, { sequence: 5 }), 404, 'not_found', 'component_id');

    const last = await api.request('DELETE', `/v1/kits/${otherKit.id}/components/${otherKit.components[0].id}`, { key: owner.secret });
    expectError(last, 409, 'kit_component_last', 'component_id');
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    expect(await tenantRowCounts(other.entity.id)).toMatchObject({ kit_components: 2 });
  });

  it('keeps a kit at 200 components at most (409 kit_component_limit)', async () => {
    const owner = await api.newEntity();
    const { kit } = await bikeKit(owner);
    // 199 more products, 198 of them added to the kit (which has 2): 200 components. Ten requests at a time.
    const numbers = Array.from({ length: 199 }, (_, i) => i + 1);
    const bulk: string[] = [];
    for (let i = 0; i < numbers.length; i += 10) {
      bulk.push(
        ...(await Promise.all(numbers.slice(i, i + 10).map(async (n) => (await api.post(owner, '/v1/products', { sku: `BULK-${n}`, name: `Bulk ${n}` })).id))),
      );
    }
    for (let i = 0; i < 198; i += 10) {
      const ids = bulk.slice(i, Math.min(i + 10, 198));
      await Promise.all(ids.map((id) => api.post(owner, `/v1/kits/${kit.id}/components`, { component_product_id: id, quantity_per_kit: 1 })));
    }
    expect((await listed(owner, kit.id)).total).toBe(200);
    const spare = (await api.get(owner, '/v1/products', { sku: 'BULK-199' })).data[0];
    const before = await tenantRowCounts(owner.entity.id);
    const refused = await api.request('POST', `/v1/kits/${kit.id}/components`, {
      key: owner.secret,
      body: { component_product_id: spare.id, quantity_per_kit: 1 },
    });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'kit_component_limit', param: 'component_product_id', limit: 200 });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('bundles carry components like kits: sold, committed and drawn through them, never built nor stocked', async () => {
    const owner = await api.newEntity();
    const location = (await api.request('POST', '/v1/locations', { key: owner.secret, body: { name: 'Shop' } })).body;
    const soap = await product(owner, 'SOAP');
    const towel = await product(owner, 'TOWEL');
    const created = await api.request('POST', '/v1/kits', {
      key: owner.secret,
      body: {
        sku: 'SPA-SET',
        product_name: 'Spa set',
        product_type: 'bundle',
        list_price: 20,
        components: [
          { component_product_id: soap.id, quantity_per_kit: 2 },
          { component_product_id: towel.id, quantity_per_kit: 1 },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const bundle = created.body;
    expect(bundle).toMatchObject({ product_type: 'bundle', components: [{ component_product_id: soap.id }, { component_product_id: towel.id }] });
    const listed = await api.request('GET', '/v1/kits', { key: owner.secret });
    expect(listed.body.data.map((k) => k.id)).toContain(bundle.id);
    for (const [id, quantity, cost] of [
      [soap.id, 10, 1],
      [towel.id, 3, 2],
    ] as const) {
      await api.request('POST', '/v1/inventory/receipts', { key: owner.secret, body: { product_id: id, location_id: location.id, quantity, unit_cost: cost } });
    }
    expect(await api.get(owner, `/v1/kits/${bundle.id}/availability`)).toMatchObject({ buildable_quantity: 3 });

    // Never built, never stocked; nothing written.
    const before = await tenantRowCounts(owner.entity.id);
    const build = await api.request('POST', `/v1/kits/${bundle.id}/builds`, { key: owner.secret, body: { location_id: location.id, quantity: 1 } });
    expect(build.status).toBe(422);
    expect(build.error).toMatchObject({ code: 'product_not_stockable', param: 'id' });
    const receipt = await api.request('POST', '/v1/inventory/receipts', {
      key: owner.secret,
      body: { product_id: bundle.id, location_id: location.id, quantity: 1, unit_cost: 1 },
    });
    expect(receipt.error.code).toBe('product_not_stockable');
    const retype = await api.request('PATCH', `/v1/products/${bundle.id}`, { key: owner.secret, body: { product_type: 'simple' } });
    expect(retype.status).toBe(400);
    expect(retype.error).toMatchObject({ code: 'parameter_invalid', param: 'product_type' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);

    // Sold: the bundle's line carries component lines; they are committed, and shipping draws them.
    const account = (await api.request('POST', '/v1/accounts', { key: owner.secret, body: { name: 'Buyer' } })).body;
    const order = await api.request('POST', '/v1/orders', {
      key: owner.secret,
      body: { document_type: 'sales_order', account_id: account.id, location_id: location.id, lines: [{ product_id: bundle.id, quantity: 2 }] },
    });
    expect(order.status, order.text).toBe(201);
    const { lines } = withLines(order.body);
    const parent = lines.find((l) => l.product_id === bundle.id)!;
    expect(lines.filter((l) => l.kit_parent_line_id === parent.id).map((l) => [l.product_id, l.quantity])).toEqual([
      [soap.id, 4],
      [towel.id, 2],
    ]);
    expect(order.body.order_total).toBe(40);
    expect((await api.request('POST', `/v1/orders/${order.body.id}/confirm`, { key: owner.secret })).status).toBe(200);
    const availability = await api.request('GET', `/v1/kits/${bundle.id}/availability`, { key: owner.secret, query: { location_id: location.id } });
    // soap 10 - 4 = 6 (3 sets), towels 3 - 2 = 1 (1 set)
    expect(availability.body).toMatchObject({ buildable_quantity: 1 });
    const shipped = await api.request('POST', `/v1/orders/${order.body.id}/fulfillments`, {
      key: owner.secret,
      body: { lines: [{ line_id: parent.id, quantity: 2 }] },
    });
    expect(shipped.status, shipped.text).toBe(201);
    const balances = (await api.get(owner, '/v1/inventory/balances', { location_id: location.id })).data;
    expect(Object.fromEntries(balances.map((b) => [b.product_id, [b.on_hand, b.committed]]))).toEqual({ [soap.id]: [6, 0], [towel.id]: [1, 0] });

    // A bundle may lose its last component (a kit may not).
    const components = bundle.components as { id: string }[];
    expect((await api.request('DELETE', `/v1/kits/${bundle.id}/components/${components[0].id}`, { key: owner.secret })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/kits/${bundle.id}/components/${components[1].id}`, { key: owner.secret })).status).toBe(200);
    expect(await api.get(owner, `/v1/kits/${bundle.id}/components`)).toMatchObject({ data: [], total: 0 });
    expect((await api.request('PATCH', `/v1/products/${bundle.id}`, { key: owner.secret, body: { product_type: 'service' } })).status).toBe(200);
  });
});
