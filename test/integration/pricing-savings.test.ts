/**
 * list_price_total and pricing_savings are sums over non-kit lines (the spec): a kit's line, priced
 * as a whole with no list price of its own, and its component lines count in neither.
 */
import { describe, expect, it } from 'vitest';
import { setupTestApi } from '../support/harness';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();

describe('pricing_savings', () => {
  it('is a positive magnitude over the non-kit lines: W-1 × 3 at list 25 sold at 21, plus a kit at 40 with no list price, saves 12', async () => {
    const w = await salesWorld(api, { widget: { name: 'W-1', list_price: 25, cost: 10 } });
    const kit = await api.post(w.owner, '/v1/kits', {
      sku: 'KIT-40',
      product_name: 'Kit',
      components: [{ component_product_id: w.gadget.id, quantity_per_kit: 2 }],
    });
    expect(kit.list_price ?? 0).toBe(0);
    const order = await w.order('sales_order', [
      { product_id: w.widget.id, quantity: 3, unit_price: 21 },
      { product_id: kit.id, quantity: 1, unit_price: 40 },
    ]);
    expect(order.lines.filter((line) => line.kit_parent_line_id !== null)).toHaveLength(1);
    expect(order).toMatchObject({ subtotal: 103, list_price_total: 75, pricing_savings: 12, order_total: 103 });
    // list_price_total − pricing_savings = the subtotal of the non-kit lines (63).
    expect(order.list_price_total - order.pricing_savings).toBe(63);

    // It follows line edits: the widget back at list price saves nothing.
    await api.patch(w.owner, `/v1/orders/${order.id}/items/${order.lines[0].id}`, { unit_price: 25 });
    expect(await w.getOrder(order.id)).toMatchObject({ subtotal: 115, list_price_total: 75, pricing_savings: 0 });
  });
});
