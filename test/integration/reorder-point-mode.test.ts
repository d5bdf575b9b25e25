import { describe, expect, it } from 'vitest';
import { postMovementDirect } from '../support/inventory-fixtures';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();
const DAY_MS = 86_400_000;

interface FeedEvent {
  type: string;
  data: { object: { location_id?: string; on_hand?: number; reorder_point?: number | null } };
}

/** The stock events of the entity's feed, oldest first (movements posted in the data layer reach the feed, not the bus). */
async function stockEvents(owner: TestEntity) {
  const response = await api.raw('GET', `/v1/entities/${owner.entity.id}/events`, { key: owner.secret, query: { limit: '100' } });
  expect(response.status).toBe(200);
  return (response.body as { data: FeedEvent[] }).data
    .filter((e) => ['inventory.low_stock', 'inventory.out_of_stock', 'inventory.back_in_stock'].includes(e.type))
    .reverse()
    .map((e) => [e.type, e.data.object.location_id, e.data.object.on_hand, e.data.object.reorder_point]);
}

describe('reorder_point_mode: manual | demand', () => {
  it('manual stays the default: a product keeps the reorder point it was given, whatever its demand', async () => {
    const owner = await api.newEntity();
    const location = await api.post(owner, '/v1/locations', { name: 'Main' });
    const plain = await api.post(owner, '/v1/products', { sku: 'MAN-1', name: 'Manual', reorder_point: 3 });
    expect(plain).toMatchObject({ reorder_point_mode: 'manual', reorder_point: 3 });
    await api.post(owner, '/v1/inventory/receipts', { product_id: plain.id, location_id: location.id, quantity: 50, unit_cost: 1 });
    await postMovementDirect(owner, plain.id, location.id, 'sale_fulfillment', '-40', 1);
    expect(await api.get(owner, `/v1/products/${plain.id}`)).toMatchObject({ reorder_point_mode: 'manual', reorder_point: 3 });
    expect(await stockEvents(owner)).toEqual([]);
  });

  it('demand: the reorder point follows demand × lead time, moved by stock movements, and the stock events follow it at every location', async () => {
    const owner = await api.newEntity();
    const main = await api.post(owner, '/v1/locations', { name: 'Main' });
    const annex = await api.post(owner, '/v1/locations', { name: 'Annex' });
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Acme' });
    const widget = await api.post(owner, '/v1/products', { sku: 'DEM-1', name: 'Widget', reorder_point_mode: 'demand' });
    // No demand yet: the point is 0 (in the population of stock events, unlike a product without one).
    expect(widget).toMatchObject({ reorder_point_mode: 'demand', reorder_point: 0 });
    await api.post(owner, `/v1/products/${widget.id}/vendors`, { vendor_id: vendor.id, lead_time_days: 10, is_preferred: true });
    const longAgo = new Date(Date.now() - 39.5 * DAY_MS).toISOString();
    await api.post(owner, '/v1/inventory/receipts', { product_id: widget.id, location_id: main.id, quantity: 100, unit_cost: 1, occurred_at: longAgo });
    await api.post(owner, '/v1/inventory/receipts', { product_id: widget.id, location_id: annex.id, quantity: 15, unit_cost: 1 });
    expect(await stockEvents(owner)).toEqual([]);

    // 90 units sold over Main's 40 days of history: 2.25 a day; 10 days of lead time: 22.5.
    await postMovementDirect(owner, widget.id, main.id, 'sale_fulfillment', '-90', 1);
    const after = await api.get(owner, `/v1/products/${widget.id}`);
    expect(after).toMatchObject({ reorder_point_mode: 'demand', demand_avg_per_day: 2.25, reorder_point: 22.5 });
    // Main crossed on its own movement; Annex (15 on hand) crossed because the point moved.
    expect(await stockEvents(owner)).toEqual([
      ['inventory.low_stock', main.id, 10, 22.5],
      ['inventory.low_stock', annex.id, 15, 22.5],
    ]);
    const balances = (await api.get(owner, '/v1/inventory/balances', { product_id: widget.id })).data;
    expect(balances.map((b) => b.stock_status)).toEqual(['low_stock', 'low_stock']);
    expect(balances.every((b) => b.reorder_point === 22.5)).toBe(true);

    // The server keeps it: setting it is refused while the mode is demand, writing nothing.
    const refused = await api.request('PATCH', `/v1/products/${widget.id}`, { key: owner.secret, body: { reorder_point: 5 } });
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'reorder_point_follows_demand', param: 'reorder_point' });
    const created = await api.request('POST', '/v1/products', {
      key: owner.secret,
      body: { sku: 'DEM-2', name: 'Both', reorder_point_mode: 'demand', reorder_point: 4 },
    });
    expect(created.status).toBe(422);
    expect(created.error).toMatchObject({ code: 'reorder_point_follows_demand', param: 'reorder_point' });
    expect(await api.get(owner, `/v1/products/${widget.id}`)).toMatchObject({ reorder_point: 22.5 });

    // Back to manual with a point of its own: movements leave it alone again.
    const manual = await api.patch(owner, `/v1/products/${widget.id}`, { reorder_point_mode: 'manual', reorder_point: 5 });
    expect(manual).toMatchObject({ reorder_point_mode: 'manual', reorder_point: 5 });
    await postMovementDirect(owner, widget.id, main.id, 'sale_fulfillment', '-1', 0);
    expect(await api.get(owner, `/v1/products/${widget.id}`)).toMatchObject({ reorder_point: 5 });
  });

  it('demand: setting the mode sets the reorder point at once, and product.updated carries both', async () => {
    const owner = await api.newEntity();
    const location = await api.post(owner, '/v1/locations', { name: 'Main' });
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Acme' });
    const widget = await api.post(owner, '/v1/products', { sku: 'SWITCH-1', name: 'Widget' });
    await api.post(owner, `/v1/products/${widget.id}/vendors`, { vendor_id: vendor.id, lead_time_days: 4, is_preferred: true });
    await api.post(owner, '/v1/inventory/receipts', {
      product_id: widget.id,
      location_id: location.id,
      quantity: 50,
      unit_cost: 1,
      occurred_at: new Date(Date.now() - 9.5 * DAY_MS).toISOString(),
    });
    // 30 units over 10 days: 3 a day; 4 days of lead time: 12. No stock event: the product had no reorder point.
    await postMovementDirect(owner, widget.id, location.id, 'sale_fulfillment', '-30', 1);
    expect(await stockEvents(owner)).toEqual([]);
    const switched = await api.patch(owner, `/v1/products/${widget.id}`, { reorder_point_mode: 'demand' });
    expect(switched).toMatchObject({ reorder_point_mode: 'demand', reorder_point: 12, demand_avg_per_day: 3 });
    const updated = api.published.filter((e) => e.type === 'product.updated' && e.data.object.id === widget.id).at(-1);
    expect(updated?.data.previous_attributes).toEqual({ reorder_point_mode: 'manual', reorder_point: null });
    // 20 on hand is above 12: no crossing; a movement down to 10 crosses.
    expect(await stockEvents(owner)).toEqual([]);
    await postMovementDirect(owner, widget.id, location.id, 'sale_fulfillment', '-10', 0);
    const point = (await api.get(owner, `/v1/products/${widget.id}`)).reorder_point;
    expect(point).toBe(16); // 40 units over 10 days: 4 a day × 4
    expect(await stockEvents(owner)).toEqual([['inventory.low_stock', location.id, 10, 16]]);
  });
});
