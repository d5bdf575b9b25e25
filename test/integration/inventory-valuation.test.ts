/**
 * Every stock movement that changes value posts, and the inventory account equals Σ inventory_value
 * of GET /v1/inventory/balances to the cent after each one (docs/decisions.md, "Inventory valuation
 * in cents": a layer is worth quantity × unit cost in cents, a draw takes its share of the layer's
 * cents, and each movement posts exactly the change it makes).
 */
import { describe, expect, it } from 'vitest';
import { amount } from '../../shared/money';
import { entryLines, closedPeriod } from '../support/ledger-helpers';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { inventoryTies, stockValuation, trialBalanceOf } from '../support/valuation-fixtures';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();

/** The one journal entry a source posted (by source_id), its lines named by system key. */
async function entryOf(owner: TestEntity, sourceId: string) {
  const list = await api.get(owner, '/v1/journal-entries', { source_id: sourceId });
  expect(list.data).toHaveLength(1);
  return entryLines(api, owner, list.data[0].id);
}

async function balanceValue(owner: TestEntity, productId: string, locationId: string) {
  const list = await api.get(owner, '/v1/inventory/balances', { product_id: productId, location_id: locationId });
  return list.data[0]?.inventory_value ?? 0;
}

const adjust = (owner: TestEntity, body: { product_id: string; location_id: string; quantity: number; allow_negative?: boolean; occurred_at?: string }) =>
  api.post(owner, '/v1/inventory/adjustments', { reason: 'count', ...body });

describe('inventory valuation in cents', () => {
  it('a stock receipt posts its value to the inventory account, to the cent (40 × 7.3333 = 293.332 → 293.33)', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 7.3333 } });
    const receipt = await w.receive(w.widget.id, 40, 7.3333);
    expect(receipt).toMatchObject({ quantity: 40, unit_cost: 7.3333, total_cost: 293.332 });
    expect(await balanceValue(w.owner, w.widget.id, w.location.id)).toBe(293.33);
    const { entry, lines } = await entryOf(w.owner, receipt.id);
    expect(entry).toMatchObject({ source_type: 'inventory_receipt', status: 'posted', entry_date: new Date().toISOString().slice(0, 10) });
    expect(lines).toEqual([
      { key: 'inventory', debit: 293.33, credit: 0 },
      { key: 'opening_balance_equity', debit: 0, credit: 293.33 },
    ]);
    expect(await inventoryTies(api, w.owner)).toBe('293.33');
  });

  it('an adjustment posts the change of the valuation against inventory shrinkage and adjustments, in both directions', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 7.3333 } });
    await w.receive(w.widget.id, 40, 7.3333);
    // −2 takes 2/40 of the layer's 293.33: 14.6665 → 14.67.
    const out = await adjust(w.owner, { product_id: w.widget.id, location_id: w.location.id, quantity: -2 });
    expect(out.total_cost).toBe(-14.6666);
    expect(await balanceValue(w.owner, w.widget.id, w.location.id)).toBe(278.66);
    expect((await entryOf(w.owner, out.id)).lines).toEqual([
      { key: 'inventory_adjustments', debit: 14.67, credit: 0 },
      { key: 'inventory', debit: 0, credit: 14.67 },
    ]);
    expect(await inventoryTies(api, w.owner)).toBe('278.66');
    // +3 at the product cost opens a layer worth 21.9999 → 22.00.
    const found = await adjust(w.owner, { product_id: w.widget.id, location_id: w.location.id, quantity: 3 });
    expect((await entryOf(w.owner, found.id)).lines).toEqual([
      { key: 'inventory', debit: 22, credit: 0 },
      { key: 'inventory_adjustments', debit: 0, credit: 22 },
    ]);
    expect(await inventoryTies(api, w.owner)).toBe('300.66');
    expect(await trialBalanceOf(api, w.owner, 'inventory_adjustments')).toBe('-7.33');
  });

  it('selling units afterwards credits inventory by exactly the valuation change (COGS)', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 7.3333 } });
    await w.receive(w.widget.id, 40, 7.3333);
    await adjust(w.owner, { product_id: w.widget.id, location_id: w.location.id, quantity: -2 });
    await adjust(w.owner, { product_id: w.widget.id, location_id: w.location.id, quantity: 3 });
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 4, unit_price: 21 }]);
    await w.act(invoice.id, 'confirm');
    const before = await balanceValue(w.owner, w.widget.id, w.location.id);
    const shipped = await w.act(invoice.id, 'fulfillments', { lines: [{ line_id: invoice.lines[0].id, quantity: 4 }] });
    const after = await balanceValue(w.owner, w.widget.id, w.location.id);
    // 4 of the 38 units left in the first layer (278.66): 29.3326 → 29.33.
    expect(shipped.cost_total).toBe(29.33);
    expect(amount(before).minus(after).toFixed(2)).toBe('29.33');
    const { lines } = await entryLines(api, w.owner, shipped.journal_entry_id);
    expect(lines).toEqual([
      { key: 'cost_of_goods_sold', debit: 29.33, credit: 0 },
      { key: 'inventory', debit: 0, credit: 29.33 },
    ]);
    expect(await inventoryTies(api, w.owner)).toBe('271.33');
  });

  it('a transfer carries the cents of the layers it moves and posts nothing; both locations still tie', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 7.3333 } });
    const second = await api.post(w.owner, '/v1/locations', { name: 'Second' });
    await w.receive(w.widget.id, 40, 7.3333);
    const transfer = await api.post(w.owner, '/v1/inventory/transfers', {
      product_id: w.widget.id,
      from_location_id: w.location.id,
      to_location_id: second.id,
      quantity: 15,
    });
    // 15/40 of 293.33 = 109.99875 → 110.00 moves; 183.33 stays.
    expect(await balanceValue(w.owner, w.widget.id, w.location.id)).toBe(183.33);
    expect(await balanceValue(w.owner, w.widget.id, second.id)).toBe(110);
    expect((await api.get(w.owner, '/v1/journal-entries', { source_id: transfer.id })).data).toHaveLength(0);
    expect(await inventoryTies(api, w.owner)).toBe('293.33');
    // Selling the moved units draws the moved cents.
    await adjust(w.owner, { product_id: w.widget.id, location_id: second.id, quantity: -15 });
    expect(await balanceValue(w.owner, w.widget.id, second.id)).toBe(0);
    expect(await inventoryTies(api, w.owner)).toBe('183.33');
  });

  it('a kit build carries the components’ cents into the kits and posts nothing', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 7.3333 } });
    await w.receive(w.widget.id, 40, 7.3333);
    const kit = await api.post(w.owner, '/v1/kits', {
      sku: 'KIT-1',
      product_name: 'Kit',
      components: [{ component_product_id: w.widget.id, quantity_per_kit: 3 }],
    });
    const build = await api.post(w.owner, `/v1/kits/${kit.id}/builds`, { location_id: w.location.id, quantity: 7 });
    // 21/40 of 293.33 = 153.99825 → 154.00 leaves the widgets and enters the kits.
    expect(await balanceValue(w.owner, kit.id, w.location.id)).toBe(154);
    expect(await balanceValue(w.owner, w.widget.id, w.location.id)).toBe(139.33);
    expect((await api.get(w.owner, '/v1/journal-entries', { source_id: build.id })).data).toHaveLength(0);
    expect(await inventoryTies(api, w.owner)).toBe('293.33');
  });

  it('negative stock is worth nothing; the receipt that settles it charges the settled units to inventory adjustments', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 4 } });
    await w.receive(w.widget.id, 2, 1);
    const out = await adjust(w.owner, { product_id: w.widget.id, location_id: w.location.id, quantity: -3, allow_negative: true });
    expect((await entryOf(w.owner, out.id)).lines).toEqual([
      { key: 'inventory_adjustments', debit: 2, credit: 0 },
      { key: 'inventory', debit: 0, credit: 2 },
    ]);
    expect(await inventoryTies(api, w.owner)).toBe('0.00');
    const receipt = await w.receive(w.widget.id, 5, 3);
    expect((await entryOf(w.owner, receipt.id)).lines).toEqual([
      { key: 'inventory', debit: 12, credit: 0 },
      { key: 'inventory_adjustments', debit: 3, credit: 0 },
      { key: 'opening_balance_equity', debit: 0, credit: 15 },
    ]);
    expect(await inventoryTies(api, w.owner)).toBe('12.00');
  });

  it('a purchase order receipt and a vendor return move inventory by exactly the valuation change', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 7.3333 }, vendor: { name: 'Supplier' } });
    const po = await api.post(w.owner, '/v1/orders', {
      document_type: 'purchase_order',
      account_id: w.vendor.id,
      location_id: w.location.id,
      lines: [{ product_id: w.widget.id, quantity: 40, sell_rate: 7.3333 }],
    });
    await w.act(po.id, 'confirm');
    const receipt = await w.act(po.id, 'receipts', { lines: [{ line_id: po.lines[0].id, quantity: 40 }] });
    expect(receipt.inventory_cost).toBe(293.33);
    expect(await trialBalanceOf(api, w.owner, 'received_not_billed')).toBe('-293.33');
    expect(await inventoryTies(api, w.owner)).toBe('293.33');
    const back = await api.post(w.owner, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lines[0].id, quantity: 3 }] });
    // 3/40 of 293.33 = 21.99975 → 22.00 leaves inventory; the credit is 3 × 7.3333 = 22.00.
    expect(back).toMatchObject({ inventory_cost: 22, credit_amount: 22, purchase_price_variance: 0 });
    expect(await inventoryTies(api, w.owner)).toBe('271.33');
  });

  it('receipts and adjustments are dated occurred_at; in a closed period they are refused with 422 period_closed and write nothing', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 7.3333 } });
    await closedPeriod(api, w.owner, { period_name: 'Jan 2026', start_date: '2026-01-01', end_date: '2026-01-31' });
    const before = await tenantRowCounts(w.owner.entity.id);
    await api.expectRefusal(
      w.owner,
      'POST',
      '/v1/inventory/receipts',
      { product_id: w.widget.id, location_id: w.location.id, quantity: 1, occurred_at: '2026-01-15T10:00:00Z' },
      422,
      'period_closed',
      'occurred_at',
    );
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
    const receipt = await api.post(w.owner, '/v1/inventory/receipts', {
      product_id: w.widget.id,
      location_id: w.location.id,
      quantity: 10,
      occurred_at: '2026-02-10T10:00:00Z',
    });
    expect((await entryOf(w.owner, receipt.id)).entry.entry_date).toBe('2026-02-10');
    await api.expectRefusal(
      w.owner,
      'POST',
      '/v1/inventory/adjustments',
      { product_id: w.widget.id, location_id: w.location.id, quantity: -1, reason: 'damage', occurred_at: '2026-01-31T23:00:00Z' },
      422,
      'period_closed',
      'occurred_at',
    );
    expect(await stockValuation(api, w.owner)).toBe('73.33');
    expect(await inventoryTies(api, w.owner)).toBe('73.33');
  });
});
