import { describe, expect, it } from 'vitest';
import { postMovementDirect } from '../support/inventory-fixtures';
import { setupTestApi } from '../support/harness';
import type { DocumentType } from '../support/worlds';

const api = setupTestApi();

describe('GET /v1/purchasing/reorder-report', () => {
  it('suggests quantities from demand, lead time and reorder point, rounded up to the order multiple', async () => {
    const owner = await api.newEntity();
    const location = await api.post(owner, '/v1/locations', { name: 'Main' });
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Acme' });
    const widget = await api.post(owner, '/v1/products', { sku: 'W-1', name: 'Widget', reorder_point: 20 });
    const gadget = await api.post(owner, '/v1/products', { sku: 'G-1', name: 'Gadget', reorder_point: 1 });
    await api.post(owner, `/v1/products/${widget.id}/vendors`, {
      vendor_id: vendor.id,
      lead_time_days: 10,
      order_multiple: 12,
      vendor_cost: 2.5,
      is_preferred: true,
    });
    await api.post(owner, '/v1/inventory/receipts', {
      product_id: widget.id,
      location_id: location.id,
      quantity: 200,
      unit_cost: 2,
      occurred_at: new Date(Date.now() - 100 * 86_400_000).toISOString(),
    });
    await api.post(owner, '/v1/inventory/receipts', { product_id: gadget.id, location_id: location.id, quantity: 50, unit_cost: 2 });
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
    expect(all.body.data.map((r) => r.sku)).toEqual(['G-1']);
    expect(all.body).toMatchObject({ has_more: true, next_cursor: gadget.id });
    const next = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { include_all: 'true', starting_after: gadget.id } });
    expect(next.body.data.map((r) => r.sku)).toEqual(['W-1']);
    const byVendor = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { include_all: 'true', vendor_id: vendor.id } });
    expect(byVendor.body.data.map((r) => r.sku)).toEqual(['W-1']);
  });

  it('validates its parameters', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const theirs = await api.post(other, '/v1/locations', { name: 'Theirs' });
    for (const [query, param] of [
      [{ demand_window: '0' }, 'demand_window'],
      [{ demand_window: '366' }, 'demand_window'],
      [{ demand_basis: 'orders' }, 'demand_basis'],
      [{ starting_after: theirs.id }, 'starting_after'],
    ] as const) {
      const response = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.error.param).toBe(param);
    }
    const location = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { location_id: theirs.id } });
    expect(location.status).toBe(404);
    expect(location.error).toMatchObject({ code: 'not_found', param: 'location_id' });
  });
});

describe('reorder report: committed and on_order from open orders', () => {
  it('subtracts committed sales demand and adds open purchase order quantity to the inventory position', async () => {
    const owner = await api.newEntity();
    const main = await api.post(owner, '/v1/locations', { name: 'Main', is_default: true });
    const annex = await api.post(owner, '/v1/locations', { name: 'Annex' });
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Acme' });
    const account = await api.post(owner, '/v1/accounts', { name: 'Customer' });
    const widget = await api.post(owner, '/v1/products', { sku: 'OW-1', name: 'Widget', reorder_point: 10, list_price: 5 });
    await api.post(owner, `/v1/products/${widget.id}/vendors`, { vendor_id: vendor.id, order_multiple: 5, vendor_cost: 1, is_preferred: true });
    await api.post(owner, '/v1/inventory/receipts', { product_id: widget.id, location_id: main.id, quantity: 30, unit_cost: 1 });
    await api.post(owner, '/v1/inventory/receipts', { product_id: widget.id, location_id: annex.id, quantity: 4, unit_cost: 1 });
    const order = (document_type: DocumentType, quantity: number, location_id: string | null, party = account.id) =>
      api.post(owner, '/v1/orders', { document_type, account_id: party, location_id, lines: [{ product_id: widget.id, quantity }] });
    const confirm = async (id: string) => {
      const response = await api.request('POST', `/v1/orders/${id}/confirm`, { key: owner.secret });
      expect(response.status, response.text).toBe(200);
    };
    const row = async (query: Record<string, string> = {}) => {
      const response = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { include_all: 'true', ...query } });
      expect(response.status, response.text).toBe(200);
      return response.body.data.find((r) => r.product_id === widget.id);
    };
    // Nothing open: position 34 > target 10.
    expect(await row()).toMatchObject({ on_hand: 34, committed: 0, on_order: 0, available: 34, net_suggested_qty: 0, suggested_reorder_point: 0 });

    // 27 committed at Main (a confirmed sales order), drafts and quotes count for nothing.
    const so = await order('sales_order', 27, main.id);
    await order('sales_order', 500, main.id);
    await order('quote', 500, main.id);
    await confirm(so.id);
    // position 34 - 27 = 7; target 10; need 3, rounded to the multiple 5.
    expect(await row()).toMatchObject({ committed: 27, available: 7, on_order: 0, suggested_qty: 3, net_suggested_qty: 5 });
    const needs = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret });
    expect(needs.body.data.map((r) => r.product_id)).toEqual([widget.id]);

    // A confirmed purchase order of 2 (no location: the default location, Main) covers part of it; a draft PO does not.
    const po = await order('purchase_order', 2, null, vendor.id);
    await order('purchase_order', 100, main.id, vendor.id);
    await confirm(po.id);
    expect(await row()).toMatchObject({ committed: 27, on_order: 2, suggested_qty: 1, net_suggested_qty: 5 });
    // A second confirmed PO of 5 at Annex: position 34 - 27 + 7 = 14 > 10, nothing needed, the row leaves the needs list.
    const annexPo = await order('purchase_order', 5, annex.id, vendor.id);
    await confirm(annexPo.id);
    expect(await row()).toMatchObject({ on_order: 7, suggested_qty: 0, net_suggested_qty: 0 });
    expect((await api.get(owner, '/v1/purchasing/reorder-report')).data).toEqual([]);

    // Per location: Main has 30 on hand, 27 committed, 2 on order; Annex 4 on hand, 5 on order.
    expect(await row({ location_id: main.id })).toMatchObject({ on_hand: 30, committed: 27, on_order: 2, suggested_qty: 5, net_suggested_qty: 5 });
    expect(await row({ location_id: annex.id })).toMatchObject({ on_hand: 4, committed: 0, on_order: 5, suggested_qty: 1 });

    // The balances agree with the report.
    const balances = (await api.get(owner, '/v1/inventory/balances', { product_id: widget.id })).data;
    const byLocation = Object.fromEntries(balances.map((b) => [b.location_id, [b.committed, b.on_order, b.available]]));
    expect(byLocation).toEqual({ [main.id]: [27, 2, 3], [annex.id]: [0, 5, 4] });
  });

  it('reports a suggested_reorder_point of lead-time demand while the stored reorder_point drives the target', async () => {
    const owner = await api.newEntity();
    const location = await api.post(owner, '/v1/locations', { name: 'Main' });
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Acme' });
    const widget = await api.post(owner, '/v1/products', { sku: 'SRP-1', name: 'Widget', reorder_point: 4 });
    await api.post(owner, `/v1/products/${widget.id}/vendors`, { vendor_id: vendor.id, lead_time_days: 7, is_preferred: true });
    await api.post(owner, '/v1/inventory/receipts', {
      product_id: widget.id,
      location_id: location.id,
      quantity: 100,
      unit_cost: 1,
      occurred_at: new Date(Date.now() - 40 * 86_400_000).toISOString(),
    });
    await postMovementDirect(owner, widget.id, location.id, 'sale_fulfillment', '-45', 3);
    // 45 / 30 = 1.5 a day; 7 days of lead time: 10.5. target = 4 + 10.5.
    const report = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { demand_window: '30', include_all: 'true' } });
    expect(report.body.data[0]).toMatchObject({ daily_demand: 1.5, suggested_reorder_point: 10.5, reorder_point: 4, target_level: 14.5 });
  });
});
