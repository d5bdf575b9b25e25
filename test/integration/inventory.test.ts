import { describe, expect, it } from 'vitest';
import { amount } from '../../shared/money';
import { postMovementDirect } from '../support/inventory-fixtures';
import { unchecked, type BodyFor } from '../support/client';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { orderAction } from '../support/worlds';

const api = setupTestApi();

async function setup(owner: TestEntity, productBody: Partial<BodyFor<'POST', '/v1/products'>> = {}) {
  const location = (await api.request('POST', '/v1/locations', { key: owner.secret, body: { name: `Loc ${Math.random().toString(36).slice(2)}` } })).body;
  const product = (
    await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: `P-${Math.random().toString(36).slice(2)}`, name: 'Stocked', ...productBody } })
  ).body;
  return { location, product };
}

/** A receipt; required fields may be left out, to test the refusal. */
const receive = (owner: TestEntity, body: Partial<BodyFor<'POST', '/v1/inventory/receipts'>>) =>
  api.request('POST', '/v1/inventory/receipts', { key: owner.secret, body: unchecked(body) });
/** An adjustment (reason count unless stated); required fields may be left out, to test the refusal. */
const adjust = (owner: TestEntity, body: Partial<BodyFor<'POST', '/v1/inventory/adjustments'>>) =>
  api.request('POST', '/v1/inventory/adjustments', { key: owner.secret, body: unchecked({ reason: 'count', ...body }) });

async function balanceOf(owner: TestEntity, productId: string, locationId: string) {
  const list = await api.request('GET', '/v1/inventory/balances', { key: owner.secret, query: { product_id: productId, location_id: locationId } });
  return list.body.data[0];
}

describe('inventory receipts, adjustments and FIFO', () => {
  it('keeps a location that stock references: 409 location_in_use, nothing deleted', async () => {
    const owner = await api.newEntity();
    await api.request('POST', '/v1/locations', { key: owner.secret, body: { name: 'Default first' } });
    const { location, product } = await setup(owner);
    await receive(owner, { product_id: product.id, location_id: location.id, quantity: 1, unit_cost: 1 });
    const before = await tenantRowCounts(owner.entity.id);
    const refused = await api.request('DELETE', `/v1/locations/${location.id}`, { key: owner.secret });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'location_in_use', param: 'id', references: { table: expect.any(String) } });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('reports a missing required quantity as parameter_missing', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner);
    const missing = await receive(owner, { product_id: product.id, location_id: location.id, unit_cost: 1 });
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ code: 'parameter_missing', param: 'quantity' });
  });

  it('receives stock into FIFO layers and draws the oldest first', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner);
    const first = await receive(owner, { product_id: product.id, location_id: location.id, quantity: 5, unit_cost: 2, notes: 'PO 1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'inventory_transaction',
      transaction_type: 'receive',
      quantity: 5,
      unit_cost: 2,
      total_cost: 10,
      notes: 'PO 1',
    });
    await receive(owner, { product_id: product.id, location_id: location.id, quantity: 5, unit_cost: '3.3333' });
    const draw = await adjust(owner, { product_id: product.id, location_id: location.id, quantity: -7, reason: 'damage' });
    expect(draw.status).toBe(201);
    // 5 at 2.0000 + 2 at 3.3333 = 16.6666
    expect(draw.body).toMatchObject({ transaction_type: 'adjust', quantity: -7, total_cost: -16.6666, unit_cost: 2.3809, reason: 'damage' });
    const balance = await balanceOf(owner, product.id, location.id);
    expect(balance).toMatchObject({
      object: 'inventory_balance',
      on_hand: 3,
      committed: 0,
      available: 3,
      on_order: 0,
      inventory_value: 10,
      stock_status: 'in_stock',
    });
    expect(await api.get(owner, `/v1/inventory/balances/${balance.id}`)).toEqual(balance);
    expect(await api.get(owner, `/v1/inventory/transactions/${draw.body.id}`)).toEqual(draw.body);
    const listed = await api.request('GET', '/v1/inventory/transactions', {
      key: owner.secret,
      query: { product_id: product.id, transaction_type: 'receive' },
    });
    expect(listed.body.data).toHaveLength(2);
  });

  it('refuses a draw below zero with 422 insufficient_stock, writing nothing, unless allow_negative', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner, { cost: 4 });
    await receive(owner, { product_id: product.id, location_id: location.id, quantity: 2, unit_cost: 1 });
    const before = await tenantRowCounts(owner.entity.id);
    const refused = await adjust(owner, { product_id: product.id, location_id: location.id, quantity: -3 });
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'insufficient_stock', param: 'quantity', on_hand: 2, product_id: product.id });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const allowed = await adjust(owner, { product_id: product.id, location_id: location.id, quantity: -3, allow_negative: true });
    // 2 from the layer at 1, the missing unit at the product cost 4
    expect(allowed.body).toMatchObject({ quantity: -3, total_cost: -6, unit_cost: 2 });
    expect((await balanceOf(owner, product.id, location.id)).on_hand).toBe(-1);
    // The next receipt settles the shortfall first: only 4 of 5 units open a layer.
    await receive(owner, { product_id: product.id, location_id: location.id, quantity: 5, unit_cost: 3 });
    const balance = await balanceOf(owner, product.id, location.id);
    expect(balance).toMatchObject({ on_hand: 4, inventory_value: 12 });
  });

  it('validates movements with precise codes', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const { location, product } = await setup(owner);
    const theirs = await setup(other);
    const service = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'SVC', name: 'Service', product_type: 'service' } })).body;
    const before = await tenantRowCounts(owner.entity.id);
    expect((await receive(owner, { product_id: theirs.product.id, location_id: location.id, quantity: 1, unit_cost: 1 })).error).toMatchObject({
      code: 'not_found',
      param: 'product_id',
    });
    expect((await receive(owner, { product_id: product.id, location_id: theirs.location.id, quantity: 1, unit_cost: 1 })).error).toMatchObject({
      code: 'not_found',
      param: 'location_id',
    });
    const notStocked = await receive(owner, { product_id: service.id, location_id: location.id, quantity: 1, unit_cost: 1 });
    expect(notStocked.status).toBe(422);
    expect(notStocked.error).toMatchObject({ code: 'product_not_stockable', param: 'product_id' });
    expect((await receive(owner, { product_id: product.id, location_id: location.id, quantity: 1 })).error).toMatchObject({
      code: 'parameter_missing',
      param: 'unit_cost',
    });
    expect((await receive(owner, { product_id: product.id, location_id: location.id, quantity: 0, unit_cost: 1 })).error).toMatchObject({
      code: 'parameter_invalid',
      param: 'quantity',
    });
    expect((await adjust(owner, { product_id: product.id, location_id: location.id, quantity: 0 })).body).toMatchObject({ param: 'quantity' });
    expect((await adjust(owner, { product_id: product.id, location_id: location.id, quantity: -1, unit_cost: 2 })).body).toMatchObject({
      param: 'unit_cost',
    });
    const transfer = await api.request('POST', '/v1/inventory/transfers', {
      key: owner.secret,
      body: { product_id: product.id, from_location_id: location.id, to_location_id: location.id, quantity: 1 },
    });
    expect(transfer.error).toMatchObject({ code: 'parameter_invalid', param: 'to_location_id' });
    const future = await receive(owner, {
      product_id: product.id,
      location_id: location.id,
      quantity: 1,
      unit_cost: 1,
      occurred_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(future.body).toMatchObject({ param: 'occurred_at' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('marks migrated rows with reference_type source_migration and keeps the source transaction id', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner);
    const migrated = await receive(owner, {
      product_id: product.id,
      location_id: location.id,
      quantity: 1,
      unit_cost: 1,
      source_migration: true,
      transaction_id: 'ITX-991',
      occurred_at: '2025-01-15T10:00:00Z',
    });
    expect(migrated.body).toMatchObject({
      reference_type: 'source_migration',
      reference_id: null,
      transaction_id: 'ITX-991',
      occurred_at: '2025-01-15T10:00:00.000Z',
    });
  });

  it('transfers keep FIFO cost: the destination receives the layers that left', async () => {
    const owner = await api.newEntity();
    const { location: from, product } = await setup(owner);
    const to = (await api.request('POST', '/v1/locations', { key: owner.secret, body: { name: 'Second' } })).body;
    await receive(owner, { product_id: product.id, location_id: from.id, quantity: 2, unit_cost: 1 });
    await receive(owner, { product_id: product.id, location_id: from.id, quantity: 2, unit_cost: 5 });
    const transfer = await api.request('POST', '/v1/inventory/transfers', {
      key: owner.secret,
      body: { product_id: product.id, from_location_id: from.id, to_location_id: to.id, quantity: 3 },
    });
    expect(transfer.status).toBe(201);
    expect(transfer.body).toMatchObject({ object: 'inventory_transfer', quantity: 3, total_cost: 7 });
    expect(transfer.body.transactions.map((t) => [t.location_id, t.quantity, t.total_cost])).toEqual([
      [from.id, -3, -7],
      [to.id, 3, 7],
    ]);
    // At the destination the cheap units still leave first.
    const draw = await adjust(owner, { product_id: product.id, location_id: to.id, quantity: -2 });
    expect(draw.body.total_cost).toBe(-2);
    const short = await api.request('POST', '/v1/inventory/transfers', {
      key: owner.secret,
      body: { product_id: product.id, from_location_id: from.id, to_location_id: to.id, quantity: 2 },
    });
    expect(short.error).toMatchObject({ code: 'insufficient_stock' });
  });
});

describe('stock events', () => {
  it('emits low_stock, out_of_stock and back_in_stock exactly when the balance crosses, never repeating', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner, { reorder_point: 5 });
    const body = { product_id: product.id, location_id: location.id };
    const stockEvents = () =>
      api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('inventory.')).map((e) => [e.type, e.data.object.on_hand]);
    await receive(owner, { ...body, quantity: 10, unit_cost: 1 });
    expect(stockEvents()).toEqual([]);
    await adjust(owner, { ...body, quantity: -5 });
    expect(stockEvents()).toEqual([['inventory.low_stock', 5]]);
    await adjust(owner, { ...body, quantity: -2 });
    expect(stockEvents()).toHaveLength(1);
    await adjust(owner, { ...body, quantity: -3 });
    expect(stockEvents()).toEqual([
      ['inventory.low_stock', 5],
      ['inventory.out_of_stock', 0],
    ]);
    await receive(owner, { ...body, quantity: 2, unit_cost: 1 });
    expect(stockEvents()).toHaveLength(2);
    await receive(owner, { ...body, quantity: 10, unit_cost: 1 });
    expect(stockEvents()).toEqual([
      ['inventory.low_stock', 5],
      ['inventory.out_of_stock', 0],
      ['inventory.back_in_stock', 12],
    ]);
    // Raising the reorder point above on hand crosses the low condition without any movement.
    await api.request('PATCH', `/v1/products/${product.id}`, { key: owner.secret, body: { reorder_point: 20 } });
    expect(stockEvents().at(-1)).toEqual(['inventory.low_stock', 12]);
    await api.request('PATCH', `/v1/products/${product.id}`, { key: owner.secret, body: { reorder_point: 15 } });
    expect(stockEvents()).toHaveLength(4);
    const balance = await balanceOf(owner, product.id, location.id);
    expect(balance).toMatchObject({ stock_status: 'low_stock', reorder_point: 15 });
  });

  it('are population-gated: a product without a reorder point emits no low, out or back-in-stock event, though its balance reports out_of_stock', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner);
    const body = { product_id: product.id, location_id: location.id };
    await receive(owner, { ...body, quantity: 3, unit_cost: 1 });
    await adjust(owner, { ...body, quantity: -3 });
    expect(await balanceOf(owner, product.id, location.id)).toMatchObject({ stock_status: 'out_of_stock' });
    await receive(owner, { ...body, quantity: 4, unit_cost: 1 });
    expect(api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('inventory.'))).toEqual([]);
  });
});

describe('concurrency', () => {
  it('parallel receipts and draws on one product never lose an update', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner);
    const body = { product_id: product.id, location_id: location.id };
    await receive(owner, { ...body, quantity: 50, unit_cost: 1 });
    const requests = [
      ...Array.from({ length: 15 }, (_, i) => receive(owner, { ...body, quantity: 2, unit_cost: 1 + i })),
      ...Array.from({ length: 15 }, () => adjust(owner, { ...body, quantity: -3 })),
    ];
    const results = await Promise.all(requests);
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    const balance = await balanceOf(owner, product.id, location.id);
    expect(balance.on_hand).toBe(50 + 30 - 45);
    const sums = await owner.sql((db) =>
      db.one<{ quantity: string; layers: string; value: string; cost: string }>(
        `SELECT (SELECT sum(quantity) FROM inventory_transactions WHERE product_id = $1) AS quantity,
                (SELECT sum(remaining_quantity) FROM inventory_cost_layers WHERE product_id = $1) AS layers,
                (SELECT sum(remaining_quantity * unit_cost) FROM inventory_cost_layers WHERE product_id = $1) AS value,
                (SELECT sum(total_cost) FROM inventory_transactions WHERE product_id = $1) AS cost`,
        [product.id],
      ),
    );
    expect(Number(sums.quantity)).toBe(35);
    expect(Number(sums.layers)).toBe(35);
    // Cost in minus cost out equals the value of what is left: no cost created or lost.
    expect(amount(sums.value).eq(sums.cost)).toBe(true);
  });
});

describe('demand fields on balances (2026-09-22 semantics)', () => {
  it('counts fulfilled sales and build_consume draws once each; returns, receipts and transfers do not count', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner);
    await receive(owner, {
      product_id: product.id,
      location_id: location.id,
      quantity: 1000,
      unit_cost: 1,
      occurred_at: new Date(Date.now() - 400 * 86_400_000).toISOString(),
    });
    await postMovementDirect(owner, product.id, location.id, 'sale_fulfillment', '-30', 10);
    await postMovementDirect(owner, product.id, location.id, 'build_consume', '-60', 60);
    await postMovementDirect(owner, product.id, location.id, 'sale_fulfillment', '-90', 120);
    await postMovementDirect(owner, product.id, location.id, 'sale_fulfillment', '-365', 300);
    await postMovementDirect(owner, product.id, location.id, 'return', '5', 5, { unitCost: '1' });
    await adjust(owner, { product_id: product.id, location_id: location.id, quantity: -100 });
    const balance = await balanceOf(owner, product.id, location.id);
    expect(balance).toMatchObject({
      run_rate_30: 1, // 30 / 30
      run_rate_90: 1, // (30 + 60) / 90
      run_rate_180: 1, // (30 + 60 + 90) / 180
      run_rate_365: 1.4932, // 545 / 365
      blended_daily: 1.0493, // 0.4 + 0.3 + 0.2 + 0.1 x 1.4932
      demand_avg_per_day: 1.4932, // first activity 400 days ago: the 365-day window
      current_demand_units: 0,
    });
  });
});

describe('on_order on inventory balances', () => {
  it('counts unreceived lines of confirmed, partially fulfilled and held purchase orders at their receiving location', async () => {
    const owner = await api.newEntity();
    const { location, product } = await setup(owner);
    const other = (await api.request('POST', '/v1/locations', { key: owner.secret, body: { name: 'Other' } })).body;
    await receive(owner, { product_id: product.id, location_id: location.id, quantity: 2, unit_cost: 1 });
    await receive(owner, { product_id: product.id, location_id: other.id, quantity: 1, unit_cost: 1 });
    const vendor = (await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'Supplier' } })).body;
    const po = (location_id: string, quantity: number) =>
      api.post(owner, '/v1/orders', { document_type: 'purchase_order', account_id: vendor.id, location_id, lines: [{ product_id: product.id, quantity }] });
    const confirmed = async (location_id: string, quantity: number) => {
      const order = await po(location_id, quantity);
      await orderAction(api, owner, order.id, 'confirm');
      return order;
    };
    await confirmed(location.id, 10);
    await orderAction(api, owner, (await confirmed(location.id, 3)).id, 'hold', { hold_type: 'credit' });
    await po(location.id, 100); // a draft: nothing on order
    await orderAction(api, owner, (await confirmed(location.id, 50)).id, 'cancel');
    await confirmed(other.id, 4);
    const here = await balanceOf(owner, product.id, location.id);
    expect(here).toMatchObject({ on_hand: 2, committed: 0, available: 2, on_order: 13, current_demand_units: 0 });
    expect(await api.get(owner, `/v1/inventory/balances/${here.id}`)).toMatchObject({ on_order: 13 });
    expect(await balanceOf(owner, product.id, other.id)).toMatchObject({ on_hand: 1, on_order: 4 });
    // Partially received (quantity_fulfilled on a purchase order line is the quantity received): only the rest is on order.
    const partial = await confirmed(other.id, 6);
    await orderAction(api, owner, partial.id, 'receipts', { lines: [{ line_id: partial.lines[0].id, quantity: 2.5 }] });
    expect(await balanceOf(owner, product.id, other.id)).toMatchObject({ on_order: 7.5 });
  });
});
