import { describe, expect, it } from 'vitest';
import { postMovementDirect } from '../support/inventory-fixtures';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();

async function post(owner: TestEntity, path: string, body: unknown) {
  const response = await api.request('POST', path, { key: owner.secret, body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('GET /v1/purchasing/reorder-report', () => {
  it('suggests quantities from demand, lead time and reorder point, rounded up to the order multiple', async () => {
    const owner = await api.newEntity();
    const location = await post(owner, '/v1/locations', { name: 'Main' });
    const vendor = await post(owner, '/v1/vendors', { name: 'Acme' });
    const widget = await post(owner, '/v1/products', { sku: 'W-1', name: 'Widget', reorder_point: 20 });
    const gadget = await post(owner, '/v1/products', { sku: 'G-1', name: 'Gadget', reorder_point: 1 });
    await post(owner, `/v1/products/${widget.id}/vendors`, {
      vendor_id: vendor.id,
      lead_time_days: 10,
      order_multiple: 12,
      vendor_cost: 2.5,
      is_preferred: true,
    });
    await post(owner, '/v1/inventory/receipts', {
      product_id: widget.id,
      location_id: location.id,
      quantity: 200,
      unit_cost: 2,
      occurred_at: new Date(Date.now() - 100 * 86_400_000).toISOString(),
    });
    await post(owner, '/v1/inventory/receipts', { product_id: gadget.id, location_id: location.id, quantity: 50, unit_cost: 2 });
    // 60 sold and 30 drawn by builds in the last 30 days; 90 sold before the window.
    await postMovementDirect(owner, widget.id, location.id, 'sale_fulfillment', '-60', 5);
    await postMovementDirect(owner, widget.id, location.id, 'build_consume', '-30', 20);
    await postMovementDirect(owner, widget.id, location.id, 'sale_fulfillment', '-90', 60);
    // on hand 20; sales_and_builds over 30 days: 90 / 30 = 3 a day; target 20 + 3 x 10 = 50; need 30; rounded to 12s: 36
    const report = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { demand_window: '30' } });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ object: 'reorder_report', demand_window: 30, demand_basis: 'sales_and_builds', has_more: false });
    expect(report.body.data).toHaveLength(1);
    expect(report.body.data[0]).toMatchObject({
      product_id: widget.id,
      on_hand: 20,
      demand_units: 90,
      daily_demand: 3,
      lead_time_days: 10,
      target_level: 50,
      suggested_qty: 30,
      net_suggested_qty: 36,
      order_multiple: 12,
      preferred_vendor_id: vendor.id,
      preferred_vendor_name: 'Acme',
      estimated_cost: 90,
    });
    const sales = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { demand_window: '30', demand_basis: 'sales' } });
    expect(sales.body.data[0]).toMatchObject({ daily_demand: 2, suggested_qty: 20, net_suggested_qty: 24 });
    const builds = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { demand_window: '30', demand_basis: 'builds' } });
    expect(builds.body.data[0]).toMatchObject({ daily_demand: 1, net_suggested_qty: 12 });
    const longer = await api.request('GET', '/v1/purchasing/reorder-report', {
      key: owner.secret,
      query: { demand_window: '90', demand_basis: 'consumption' },
    });
    expect(longer.body.data[0]).toMatchObject({ demand_units: 180, daily_demand: 2 });
    const all = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { include_all: 'true', limit: '1' } });
    expect(all.body.data.map((r: any) => r.sku)).toEqual(['G-1']);
    expect(all.body).toMatchObject({ has_more: true, next_cursor: gadget.id });
    const next = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { include_all: 'true', starting_after: gadget.id } });
    expect(next.body.data.map((r: any) => r.sku)).toEqual(['W-1']);
    const byVendor = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { include_all: 'true', vendor_id: vendor.id } });
    expect(byVendor.body.data.map((r: any) => r.sku)).toEqual(['W-1']);
  });

  it('validates its parameters', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const theirs = await post(other, '/v1/locations', { name: 'Theirs' });
    for (const [query, param] of [
      [{ demand_window: '0' }, 'demand_window'],
      [{ demand_window: '366' }, 'demand_window'],
      [{ demand_basis: 'orders' }, 'demand_basis'],
      [{ starting_after: theirs.id }, 'starting_after'],
    ] as const) {
      const response = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.param).toBe(param);
    }
    const location = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { location_id: theirs.id } });
    expect(location.status).toBe(404);
    expect(location.body).toMatchObject({ code: 'not_found', param: 'location_id' });
  });
});
