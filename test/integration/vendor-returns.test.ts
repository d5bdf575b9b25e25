/**
 * Vendor returns (issue 17, "Vendor credits": "issued ... from a vendor return (return received
 * goods to the vendor from a purchase order: stock leaves at its FIFO cost, the credit references
 * the return)"): POST /v1/orders/{id}/vendor-returns, GET /v1/vendor-returns/{id} and the list,
 * GET /v1/vendor-returns.
 */
import { describe, expect, it } from 'vitest';
import { amount, sum } from '../../shared/money';
import { apWorld, receivedPurchaseOrder } from '../support/ap-fixtures';
import { glBalance } from '../support/cash-fixtures';
import { eventTypesOf, setupTestApi, type TestEntity } from '../support/harness';
import { entryLines } from '../support/ledger-helpers';

const api = setupTestApi();

const onHand = async (owner: TestEntity, productId: string, locationId: string) =>
  (await api.get(owner, '/v1/inventory/balances', { product_id: productId, location_id: locationId })).data[0]?.on_hand;

describe('vendor returns (POST /v1/orders/{id}/vendor-returns)', () => {
  it('a vendor return issues a credit that references the return; stock leaves at its FIFO cost', async () => {
    const w = await apWorld(api);
    const product = await api.post(w.owner, '/v1/products', { sku: `VR-FIFO-${Date.now().toString(36)}`, name: 'Returned widget', cost: 3 });
    const location = await api.post(w.owner, '/v1/locations', { name: `Return dock ${Date.now().toString(36)}` });
    // An older layer of 2 units at 2.00, then the purchase order's 4 units at 3.00.
    await api.post(w.owner, '/v1/inventory/receipts', { product_id: product.id, location_id: location.id, quantity: 2, unit_cost: 2 });
    const order = await api.post(w.owner, '/v1/orders', {
      document_type: 'purchase_order',
      account_id: w.vendor.id,
      location_id: location.id,
      lines: [{ product_id: product.id, quantity: 4, sell_rate: 3 }],
    });
    await api.post(w.owner, `/v1/orders/${order.id}/confirm`, undefined, 200);
    await api.post(w.owner, `/v1/orders/${order.id}/receipts`, { lines: [{ line_id: order.lines[0].id, quantity: 4 }] });

    const returned = await api.post(w.owner, `/v1/orders/${order.id}/vendor-returns`, {
      lines: [{ line_id: order.lines[0].id, quantity: 3 }],
      returned_at: '2026-03-10T12:00:00Z',
      reason: 'Damaged in transit',
    });
    // FIFO: the 2 units at 2.00 leave first, then 1 at 3.00: 7.00. The vendor credits 3 × 3.00.
    expect(returned).toMatchObject({
      object: 'vendor_return',
      order_id: order.id,
      order_number: order.order_number,
      vendor_id: w.vendor.id,
      return_number: expect.stringMatching(/^VR-\d{6}$/),
      returned_at: '2026-03-10T12:00:00.000Z',
      credit_amount: 9,
      inventory_cost: 7,
      purchase_price_variance: 2,
      reason: 'Damaged in transit',
    });
    expect(returned.lines).toEqual([
      expect.objectContaining({
        line_id: order.lines[0].id,
        product_id: product.id,
        location_id: location.id,
        quantity: 3,
        quantity_received: 4,
        quantity_returned: 3,
        unit_credit: 3,
        credit_amount: 9,
        inventory_cost: 7,
      }),
    ]);

    // The credit references the return, and expand[]=source gives the return back.
    const credit = await api.get(w.owner, `/v1/vendor-credits/${returned.vendor_credit_id}`, { 'expand[]': ['source'] });
    expect(credit).toMatchObject({
      vendor_id: w.vendor.id,
      source_type: 'vendor_return',
      source_id: returned.id,
      amount: '9.0000',
      remaining_amount: '9.0000',
      status: 'open',
      credit_date: '2026-03-10',
    });
    expect(credit.source).toMatchObject({ object: 'vendor_return', id: returned.id, credit_amount: 9, vendor_credit_id: credit.id });
    expect(await api.get(w.owner, `/v1/vendor-returns/${returned.id}`)).toEqual(returned);

    // The stock left at its FIFO cost through a vendor_return transaction.
    const transaction = await api.get(w.owner, `/v1/inventory/transactions/${returned.lines[0].inventory_transaction_id}`);
    expect(transaction).toMatchObject({ transaction_type: 'vendor_return', quantity: -3, total_cost: -7, location_id: location.id });
    expect(await onHand(w.owner, product.id, location.id)).toBe(3);
    // The next unit out is the last 3.00 layer's.
    const adjustment = await api.post(w.owner, '/v1/inventory/adjustments', {
      product_id: product.id,
      location_id: location.id,
      quantity: -1,
      reason: 'count',
    });
    expect(adjustment.total_cost).toBe(-3);

    // The ledger: the credit's issuance, and the return's own entry with the variance.
    expect((await entryLines(api, w.owner, credit.journal_entry_id)).lines).toEqual([
      { key: 'vendor_returns_receivable', debit: 9, credit: 0 },
      { key: 'vendor_credits', debit: 0, credit: 9 },
    ]);
    const { entry, lines } = await entryLines(api, w.owner, returned.journal_entry_id);
    expect(entry).toMatchObject({ entry_date: '2026-03-10', source_type: 'vendor_return', source_id: returned.id });
    expect(lines).toEqual([
      { key: 'cost_of_goods_sold', debit: 9, credit: 0 },
      { key: 'inventory', debit: 0, credit: 7 },
      { key: 'purchase_price_variance', debit: 0, credit: 2 },
    ]);

    // What was received stays received (and billable); the purchase order's status does not move.
    const after = await api.get(w.owner, `/v1/orders/${order.id}`);
    expect(after).toMatchObject({ order_status: 'fulfilled' });
    expect(after.lines[0]).toMatchObject({ quantity_fulfilled: 4 });
    expect(await eventTypesOf(w.owner, returned.id)).toContain('vendor_return.created');
  });

  it('a return costing more than its credit debits the difference to purchase_price_variance', async () => {
    const w = await apWorld(api);
    const po = await receivedPurchaseOrder(api, w.owner, { vendorId: w.vendor.id, quantity: 2, unitCost: 5 });
    // Received at 5.00 per unit, but the vendor credits 4.00 per unit (the line's unit cost was renegotiated).
    await w.owner.sql((db) => db.query('UPDATE order_lines SET unit_cost = 4 WHERE entity_id = $1 AND id = $2', [w.owner.entity.id, po.lineId]));
    const returned = await api.post(w.owner, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 2 }] });
    expect(returned).toMatchObject({ credit_amount: 8, inventory_cost: 10, purchase_price_variance: -2 });
    expect((await entryLines(api, w.owner, returned.journal_entry_id)).lines).toEqual([
      { key: 'cost_of_goods_sold', debit: 8, credit: 0 },
      { key: 'inventory', debit: 0, credit: 10 },
      { key: 'purchase_price_variance', debit: 2, credit: 0 },
    ]);
  });

  it('refuses more than received less already returned: 422 with the line and the quantities, and nothing moves', async () => {
    const w = await apWorld(api);
    const po = await receivedPurchaseOrder(api, w.owner, { vendorId: w.vendor.id, quantity: 2 });
    await api.post(w.owner, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] });
    const error = await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${po.id}/vendor-returns`,
      { lines: [{ line_id: po.lineId, quantity: 2 }] },
      422,
      'vendor_return_exceeds_received',
      'lines[0].quantity',
    );
    expect(error).toMatchObject({ line_id: po.lineId, quantity_received: 2, quantity_returned: 1, quantity_requested: 2, returnable: 1 });
    // The last unit can go; then nothing is left to return.
    const last = await api.post(w.owner, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] });
    expect(last.lines[0]).toMatchObject({ quantity: 1, quantity_received: 2, quantity_returned: 2 });
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${po.id}/vendor-returns`,
      { lines: [{ line_id: po.lineId, quantity: 0.5 }] },
      422,
      'vendor_return_exceeds_received',
      'lines[0].quantity',
    );
    expect(await onHand(w.owner, po.productId, po.locationId)).toBe(0);
  });

  it("another entity's purchase order, a sales order and another entity's return are 404", async () => {
    const w = await apWorld(api);
    const other = await apWorld(api);
    const po = await receivedPurchaseOrder(api, other.owner, { vendorId: other.vendor.id });
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] }, 404, 'not_found', 'id');
    const returned = await api.post(other.owner, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] });
    const response = await api.raw('GET', `/v1/vendor-returns/${returned.id}`, { key: w.owner.secret });
    expect(response.status).toBe(404);
    expect(response.error.code).toBe('not_found');
    const customer = await api.post(w.owner, '/v1/accounts', { name: `Customer ${Date.now().toString(36)}` });
    const sales = await api.post(w.owner, '/v1/orders', { document_type: 'sales_order', account_id: customer.id, lines: [] });
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${sales.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] }, 404, 'not_found', 'id');
  });

  it('the ledger ties: the trial balance, and vendor_returns_receivable and vendor_credits each equal Σ remaining_amount, through application and void', async () => {
    const w = await apWorld(api);
    const first = await receivedPurchaseOrder(api, w.owner, { vendorId: w.vendor.id, quantity: 3, unitCost: 4 });
    const second = await receivedPurchaseOrder(api, w.owner, { vendorId: w.vendor.id, quantity: 2, unitCost: 5 });
    const a = await api.post(w.owner, `/v1/orders/${first.id}/vendor-returns`, { lines: [{ line_id: first.lineId, quantity: 3 }] });
    const b = await api.post(w.owner, `/v1/orders/${second.id}/vendor-returns`, { lines: [{ line_id: second.lineId, quantity: 1 }] });
    const ties = async (expected: string) => {
      const credits = await api.get(w.owner, '/v1/vendor-credits', { vendor_id: w.vendor.id, limit: '100' });
      const remaining = sum(credits.data.map((credit) => credit.remaining_amount));
      expect(remaining.toString()).toBe(expected);
      expect(amount(await glBalance(w.owner, 'vendor_returns_receivable')).toString()).toBe(expected);
      expect(
        amount(await glBalance(w.owner, 'vendor_credits'))
          .negated()
          .toString(),
      ).toBe(expected);
      const trial = await api.get(w.owner, `/v1/entities/${w.owner.entity.id}/reconciliation/trial-balance`);
      expect(trial.total_debits).toBe(trial.total_credits);
    };
    await ties('17');
    // Applied in part to a bill: the return's credit lowers what is owed.
    const bill = await w.postedBill(20);
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: bill.id, amount: 10 }], vendor_credit_ids: [a.vendor_credit_id!], method: 'check' });
    expect(await api.get(w.owner, `/v1/vendor-credits/${a.vendor_credit_id}`)).toMatchObject({ remaining_amount: '2.0000', status: 'partially_applied' });
    await ties('7');
    await api.post(w.owner, `/v1/vendor-credits/${b.vendor_credit_id}/void`, {}, 200);
    await ties('2');
    // Inventory holds what was not returned: 1 unit at 5.00.
    expect(amount(await glBalance(w.owner, 'inventory')).toString()).toBe('5');
  });
});

describe('vendor returns list (GET /v1/vendor-returns)', () => {
  const ids = (page: { data: { id: string }[] }) => page.data.map((returned) => returned.id);

  it('lists newest first, each return as GET gives it, by vendor, purchase order and creation time, a page at a time', async () => {
    const w = await apWorld(api);
    const otherVendor = await api.post(w.owner, '/v1/vendors', { name: `Other supplier ${Date.now().toString(36)}` });
    const first = await receivedPurchaseOrder(api, w.owner, { vendorId: w.vendor.id, quantity: 3 });
    const second = await receivedPurchaseOrder(api, w.owner, { vendorId: otherVendor.id, quantity: 2 });
    const a = await api.post(w.owner, `/v1/orders/${first.id}/vendor-returns`, { lines: [{ line_id: first.lineId, quantity: 1 }] });
    const b = await api.post(w.owner, `/v1/orders/${second.id}/vendor-returns`, { lines: [{ line_id: second.lineId, quantity: 2 }] });
    const c = await api.post(w.owner, `/v1/orders/${first.id}/vendor-returns`, { lines: [{ line_id: first.lineId, quantity: 1 }] });

    const all = await api.get(w.owner, '/v1/vendor-returns');
    expect(all).toMatchObject({ object: 'list', url: '/v1/vendor-returns', has_more: false, next_cursor: null });
    expect(ids(all)).toEqual([c.id, b.id, a.id]);
    // Each return reads as it does alone: the line's units returned so far include later returns.
    expect(all.data[2]).toEqual(await api.get(w.owner, `/v1/vendor-returns/${a.id}`));
    expect(all.data[2].lines[0]).toMatchObject({ quantity: 1, quantity_received: 3, quantity_returned: 2 });
    expect(all.data[1]).toMatchObject({ vendor_id: otherVendor.id, order_id: second.id, credit_amount: b.credit_amount });

    expect(ids(await api.get(w.owner, '/v1/vendor-returns', { vendor_id: w.vendor.id }))).toEqual([c.id, a.id]);
    expect(ids(await api.get(w.owner, '/v1/vendor-returns', { order_id: second.id }))).toEqual([b.id]);
    expect(ids(await api.get(w.owner, '/v1/vendor-returns', { vendor_id: otherVendor.id, order_id: first.id }))).toEqual([]);
    // Inclusive bounds at the precision the API prints.
    expect(ids(await api.get(w.owner, '/v1/vendor-returns', { created_gte: b.created_at }))).toEqual([c.id, b.id]);
    expect(ids(await api.get(w.owner, '/v1/vendor-returns', { created_lte: b.created_at }))).toEqual([b.id, a.id]);
    expect(ids(await api.get(w.owner, '/v1/vendor-returns', { created_gte: b.created_at, created_lte: b.created_at }))).toEqual([b.id]);

    const page = await api.get(w.owner, '/v1/vendor-returns', { limit: '2' });
    expect(ids(page)).toEqual([c.id, b.id]);
    expect(page).toMatchObject({ has_more: true, next_cursor: b.id });
    const next = await api.get(w.owner, '/v1/vendor-returns', { limit: '2', starting_after: b.id });
    expect(ids(next)).toEqual([a.id]);
    expect(next).toMatchObject({ has_more: false, next_cursor: null });
    expect(ids(await api.get(w.owner, '/v1/vendor-returns', { limit: '2', ending_before: a.id }))).toEqual([c.id, b.id]);
  });

  it("lists only the key's entity and mode: the other mode and another entity see none, and cannot page from their ids", async () => {
    const { live, test } = await api.newEntityPair();
    const stranger = await api.newEntity();
    const po = await receivedPurchaseOrder(api, live);
    const returned = await api.post(live, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] });
    expect(ids(await api.get(live, '/v1/vendor-returns'))).toEqual([returned.id]);
    for (const owner of [test, stranger]) {
      expect(ids(await api.get(owner, '/v1/vendor-returns'))).toEqual([]);
      expect(ids(await api.get(owner, '/v1/vendor-returns', { vendor_id: po.vendorId, order_id: po.id }))).toEqual([]);
      const cursor = await api.raw('GET', '/v1/vendor-returns', { key: owner.secret, query: { starting_after: returned.id } });
      expect(cursor.status).toBe(400);
      expect(cursor.error).toMatchObject({ code: 'parameter_invalid', param: 'starting_after' });
    }
  });

  it('refuses malformed filters, an unknown parameter and a limit over 100 with a 400 naming the parameter, and a key without purchasing:read', async () => {
    const w = await apWorld(api);
    for (const [query, param] of [
      [{ vendor_id: 'not-a-uuid' }, 'vendor_id'],
      [{ order_id: '42' }, 'order_id'],
      [{ created_gte: 'yesterday' }, 'created_gte'],
      [{ created_lte: '2026-13-40T00:00:00Z' }, 'created_lte'],
      [{ limit: '101' }, 'limit'],
      [{ status: 'open' }, 'status'],
    ] as const) {
      const response = await api.raw('GET', '/v1/vendor-returns', { key: w.owner.secret, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.error).toMatchObject({ param });
      expect(['parameter_invalid', 'parameter_unknown']).toContain(response.error.code);
    }
    const ordersOnly = await api.newEntity({ scopes: ['orders:read'] });
    const forbidden = await api.raw('GET', '/v1/vendor-returns', { key: ordersOnly.secret });
    expect(forbidden.status).toBe(403);
    expect(forbidden.error).toMatchObject({ code: 'insufficient_scope', required: 'purchasing:read' });
  });
});
