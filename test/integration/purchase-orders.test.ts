/** Purchase orders (issue 5): send, receive (receive inventory transactions, FIFO layers, GL), drop-ship purchase orders linked to sales lines. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { eventTypesOf, setupTestApi, type TestEntity } from '../support/harness';
import { closedPeriod, entryLines } from '../support/ledger-helpers';
import { withLines } from '../support/client';
import { salesWorld, WIDGET, type OrderBody, type OrderLineBody } from '../support/worlds';

const api = setupTestApi();
let n = 0;

const WORLD = { account: false, vendor: { name: 'Acme Supply', email: 'orders@acme.example' }, widget: { ...WIDGET, reorder_point: 2 } } as const;

/** The sales world without a customer: a vendor who sells the widget at 3.00, and drafts of purchase orders from it. */
async function purchaseWorld() {
  const w = await salesWorld(api, WORLD);
  await api.post(w.owner, `/v1/products/${w.widget.id}/vendors`, { vendor_id: w.vendor.id, vendor_cost: 3 });
  const purchaseOrder = (lines: OrderLineBody[], extra: Partial<OrderBody> = {}) =>
    api.post(w.owner, '/v1/orders', { document_type: 'purchase_order', account_id: w.vendor.id, location_id: w.location.id, lines, ...extra });
  return { ...w, purchaseOrder };
}

async function onHand(owner: TestEntity, productId: string): Promise<number> {
  const balances = await api.request('GET', '/v1/inventory/balances', { key: owner.secret, query: { product_id: productId } });
  return balances.body.data.reduce((sum, balance) => sum + balance.on_hand, 0);
}

describe('POST /v1/orders/{id}/send', () => {
  it("sends a draft purchase order to the vendor's email and confirms it; sending again records the new address and keeps the status", async () => {
    const { owner, widget, purchaseOrder } = await purchaseWorld();
    const po = await purchaseOrder([{ product_id: widget.id, quantity: 10 }]);
    expect(po).toMatchObject({ order_number: expect.stringMatching(/^PO-/), order_status: 'draft', sent_at: null, sent_to: null });
    const sent = await api.post(owner, `/v1/orders/${po.id}/send`, undefined, 200);
    expect(sent).toMatchObject({ order_status: 'confirmed', sent_to: 'orders@acme.example' });
    expect(Date.parse(sent.sent_at!)).toBeGreaterThan(Date.now() - 60_000);
    const again = await api.post(owner, `/v1/orders/${po.id}/send`, { email: 'buyer@acme.example', message: 'Please rush' }, 200);
    expect(again).toMatchObject({ order_status: 'confirmed', sent_to: 'buyer@acme.example' });
    expect(await eventTypesOf(owner, po.id)).toEqual(expect.arrayContaining(['order.created', 'purchase_order.sent']));
    const events = await owner.sql((db) =>
      db.query<{ payload: unknown }>(`SELECT payload FROM event_outbox WHERE type = 'purchase_order.sent' AND payload::text LIKE $1 ORDER BY created_at, id`, [
        `%${po.id}%`,
      ]),
    );
    expect(events).toHaveLength(2);
    expect(JSON.stringify(events[1].payload)).toContain('Please rush');
  });

  it('refuses other documents and statuses (409), a vendor without email (400 email), a bad email, an empty purchase order; writes nothing', async () => {
    const { owner, widget, purchaseOrder } = await purchaseWorld();
    const account = await api.post(owner, '/v1/accounts', { name: 'Customer' });
    const so = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1 }] });
    const body = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/send`, undefined, 409, 'order_invalid_transition', 'id');
    expect(body).toMatchObject({ current_status: 'draft', document_type: 'sales_order' });

    const silent = await api.post(owner, '/v1/vendors', { name: 'No email vendor' });
    const quiet = await api.post(owner, '/v1/orders', {
      document_type: 'purchase_order',
      account_id: silent.id,
      lines: [{ product_id: widget.id, quantity: 1 }],
    });
    await api.expectRefusal(owner, 'POST', `/v1/orders/${quiet.id}/send`, undefined, 400, 'parameter_missing', 'email');
    await api.expectRefusal(owner, 'POST', `/v1/orders/${quiet.id}/send`, { email: 'not-an-email' }, 400, 'parameter_invalid', 'email');
    const empty = await purchaseOrder([]);
    await api.expectRefusal(owner, 'POST', `/v1/orders/${empty.id}/send`, undefined, 400, 'parameter_invalid', 'id');

    const po = await purchaseOrder([{ product_id: widget.id, quantity: 1 }]);
    await api.post(owner, `/v1/orders/${po.id}/cancel`, undefined, 200);
    expect((await api.expectRefusal(owner, 'POST', `/v1/orders/${po.id}/send`, undefined, 409, 'order_invalid_transition')).current_status).toBe('cancelled');
  });

  it("another entity's purchase order is 404", async () => {
    const { widget, purchaseOrder } = await purchaseWorld();
    const po = await purchaseOrder([{ product_id: widget.id, quantity: 1 }]);
    const stranger = await api.newEntity();
    await api.expectRefusal(stranger, 'POST', `/v1/orders/${po.id}/send`, undefined, 404, 'not_found', 'id');
  });
});

describe('POST /v1/orders/{id}/receipts', () => {
  it('receives partly then fully: receive transactions with FIFO layers at the receipt cost, GL debit inventory credit received_not_billed, status and floors follow', async () => {
    const { owner, location, widget, gadget, purchaseOrder } = await purchaseWorld();
    const po = await purchaseOrder([
      { product_id: widget.id, quantity: 10 },
      { product_id: gadget.id, quantity: 5 },
    ]);
    // The vendor's cost on the product-vendor relationship prices the purchase order line.
    expect(po.lines[0]).toMatchObject({ sell_rate: 3, unit_cost: 3 });
    await api.post(owner, `/v1/orders/${po.id}/send`, undefined, 200);
    const [widgetLine, gadgetLine] = po.lines;

    const first = await api.post(owner, `/v1/orders/${po.id}/receipts`, { lines: [{ line_id: widgetLine.id, quantity: 4 }] });
    expect(first).toMatchObject({
      object: 'purchase_receipt',
      order_status: 'partially_fulfilled',
      fulfillment_status: 'partially_fulfilled',
      previous_order_status: 'confirmed',
      location_id: location.id,
      inventory_cost: 12,
      drop_ship_cost: 0,
      lines: [{ line_id: widgetLine.id, quantity: 4, quantity_received: 4, unit_cost: 3, total_cost: 12, drop_ship_sales_line_id: null }],
    });
    expect((await entryLines(api, owner, first.journal_entry_id)).lines).toEqual([
      { key: 'inventory', debit: 12, credit: 0 },
      { key: 'received_not_billed', debit: 0, credit: 12 },
    ]);
    const transaction = await api.get(owner, `/v1/inventory/transactions/${first.inventory_transaction_ids[0]}`);
    expect(transaction).toMatchObject({
      transaction_type: 'receive',
      quantity: 4,
      unit_cost: 3,
      reference_type: 'order',
      reference_id: po.id,
      group_id: first.id,
    });
    expect(await onHand(owner, widget.id)).toBe(4);

    let order = await api.get(owner, `/v1/orders/${po.id}`);
    expect(order).toMatchObject({ order_status: 'partially_fulfilled', fulfillment_status: 'partially_fulfilled' });
    expect(order.lines[0]).toMatchObject({ quantity_fulfilled: 4, received_floor: 4 });
    expect(order.lines[0].line_editability).toMatchObject({ qty: { allowed: true, floor: 4 }, unit_cost: { allowed: true, warn_received_qty: 4 } });
    expect(order.lines[0].line_editability.delete).toEqual({ allowed: false, reason: 'quantity_received' });
    // A purchase order line's quantity cannot go below what was received.
    const floor = await api.expectRefusal(
      owner,
      'PATCH',
      `/v1/orders/${po.id}/items/${widgetLine.id}`,
      { quantity: 3 },
      422,
      'line_quantity_below_floor',
      'quantity',
    );
    expect(floor).toMatchObject({ floor: 4, reason: 'quantity_received' });

    // The rest at a different landed cost: a second FIFO layer.
    const second = await api.post(owner, `/v1/orders/${po.id}/receipts`, {
      lines: [
        { line_id: widgetLine.id, quantity: 6, unit_cost: '3.5' },
        { line_id: gadgetLine.id, quantity: 5 },
      ],
    });
    expect(second).toMatchObject({ order_status: 'fulfilled', fulfillment_status: 'fulfilled', inventory_cost: 26 });
    const entry = await api.get(owner, `/v1/journal-entries/${second.journal_entry_id}`);
    expect(entry).toMatchObject({ source_type: 'purchase_receipt', source_id: po.id, metadata: { receipt_id: second.id } });
    // FIFO: shipping 5 widgets draws 4 at 3 and 1 at 3.5.
    const account = await api.post(owner, '/v1/accounts', { name: 'Buyer' });
    const so = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      location_id: location.id,
      lines: [{ product_id: widget.id, quantity: 5 }],
    });
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    const shipped = await api.post(owner, `/v1/orders/${so.id}/fulfillments`, { lines: [{ line_id: so.lines[0].id, quantity: 5 }] });
    expect(shipped.cost_total).toBe(15.5);

    order = await api.get(owner, `/v1/orders/${po.id}`);
    expect(order.lines.map((line) => [line.quantity_fulfilled, line.received_floor])).toEqual([
      [10, 10],
      [5, 5],
    ]);
    expect(await eventTypesOf(owner, po.id)).toEqual(expect.arrayContaining(['purchase_order.received', 'inventory_transaction.created']));
    // Fully received: no more receipts.
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${po.id}/receipts`,
      { lines: [{ line_id: gadgetLine.id, quantity: 1 }] },
      409,
      'order_invalid_transition',
      'id',
    );
  });

  it('fires stock events as any receipt does (back in stock after out of stock)', async () => {
    const { owner, location, widget, purchaseOrder } = await purchaseWorld();
    await api.post(owner, '/v1/inventory/adjustments', {
      product_id: widget.id,
      location_id: location.id,
      quantity: -1,
      allow_negative: true,
      reason: 'count',
    });
    const po = await purchaseOrder([{ product_id: widget.id, quantity: 10 }]);
    await api.post(owner, `/v1/orders/${po.id}/confirm`, undefined, 200);
    const receipt = await api.post(owner, `/v1/orders/${po.id}/receipts`, {
      lines: [{ line_id: po.lines[0].id, quantity: 10 }],
      received_at: '2026-01-05T10:00:00Z',
    });
    expect(receipt.received_at).toBe('2026-01-05T10:00:00.000Z');
    expect((await api.get(owner, `/v1/journal-entries/${receipt.journal_entry_id}`)).entry_date).toBe('2026-01-05');
    expect((await api.get(owner, `/v1/inventory/transactions/${receipt.inventory_transaction_ids[0]}`)).occurred_at).toBe('2026-01-05T10:00:00.000Z');
    const types = await owner.sql((db) => db.query<{ type: string }>(`SELECT type FROM event_outbox WHERE type LIKE 'inventory.%' ORDER BY created_at, id`));
    expect(types.map((row) => row.type)).toEqual(['inventory.low_stock', 'inventory.out_of_stock', 'inventory.back_in_stock']);
  });

  it('refuses bad receipts with the precise code and param, writing nothing', async () => {
    const { owner, location, widget, gadget, purchaseOrder } = await purchaseWorld();
    const po = await purchaseOrder([
      { product_id: widget.id, quantity: 5 },
      { product_id: gadget.id, quantity: 2 },
    ]);
    const path = `/v1/orders/${po.id}/receipts` as const;
    const line = po.lines[0].id;
    // A draft is not receivable.
    expect(
      (await api.expectRefusal(owner, 'POST', path, { lines: [{ line_id: line, quantity: 1 }] }, 409, 'order_invalid_transition', 'id')).current_status,
    ).toBe('draft');
    await api.post(owner, `/v1/orders/${po.id}/confirm`, undefined, 200);
    const over = await api.expectRefusal(
      owner,
      'POST',
      path,
      {
        lines: [
          { line_id: po.lines[1].id, quantity: 1 },
          { line_id: line, quantity: 6 },
        ],
      },
      422,
      'order_over_receipt',
      'lines[1].quantity',
    );
    expect(over).toMatchObject({ line_id: line, remaining: 5 });
    await api.expectRefusal(owner, 'POST', path, { lines: [{ line_id: newId(), quantity: 1 }] }, 404, 'not_found', 'lines[0].line_id');
    await api.expectRefusal(
      owner,
      'POST',
      path,
      {
        lines: [
          { line_id: line, quantity: 1 },
          { line_id: line, quantity: 1 },
        ],
      },
      400,
      'parameter_invalid',
      'lines[1].line_id',
    );
    await api.expectRefusal(owner, 'POST', path, { lines: [{ line_id: line, quantity: 0 }] }, 400, 'parameter_invalid', 'lines[0].quantity');
    await api.expectRefusal(owner, 'POST', path, { lines: [{ line_id: line, quantity: 1, unit_cost: -1 }] }, 400, 'parameter_invalid', 'lines[0].unit_cost');
    await api.expectRefusal(owner, 'POST', path, { lines: [] }, 400, 'parameter_invalid', 'lines');
    await api.expectRefusal(owner, 'POST', path, { lines: [{ line_id: line, quantity: 1 }], location_id: newId() }, 404, 'not_found', 'location_id');
    await api.expectRefusal(
      owner,
      'POST',
      path,
      { lines: [{ line_id: line, quantity: 1 }], received_at: '2999-01-01T00:00:00Z' },
      400,
      'parameter_invalid',
      'received_at',
    );
    await closedPeriod(api, owner, { period_name: 'Jan 2020', start_date: '2020-01-01', end_date: '2020-01-31' });
    await api.expectRefusal(
      owner,
      'POST',
      path,
      { lines: [{ line_id: line, quantity: 1 }], received_at: '2020-01-15T00:00:00Z' },
      422,
      'period_closed',
      'received_at',
    );
    // A sales order is not received.
    const account = await api.post(owner, '/v1/accounts', { name: 'Customer' });
    const so = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      location_id: location.id,
      lines: [{ product_id: widget.id, quantity: 1 }],
    });
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${so.id}/receipts`,
      { lines: [{ line_id: so.lines[0].id, quantity: 1 }] },
      409,
      'order_invalid_transition',
      'id',
    );
    // Purchase orders are not shipped through fulfillments.
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${po.id}/fulfillments`,
      { lines: [{ line_id: line, quantity: 1 }] },
      409,
      'order_invalid_transition',
      'id',
    );
  });

  it("another entity's purchase order is 404, writing nothing", async () => {
    const { owner, widget, purchaseOrder } = await purchaseWorld();
    const po = await purchaseOrder([{ product_id: widget.id, quantity: 5 }]);
    await api.post(owner, `/v1/orders/${po.id}/confirm`, undefined, 200);
    const stranger = await api.newEntity();
    await api.expectRefusal(stranger, 'POST', `/v1/orders/${po.id}/receipts`, { lines: [{ line_id: po.lines[0].id, quantity: 1 }] }, 404, 'not_found', 'id');
    expect((await api.get(owner, `/v1/orders/${po.id}`)).lines[0].quantity_fulfilled).toBe(0);
  });

  it('E5 moves the status: lowering a line to what was received, or deleting the last open line, completes the purchase order', async () => {
    const { owner, widget, gadget, purchaseOrder } = await purchaseWorld();
    const po = await purchaseOrder([
      { product_id: widget.id, quantity: 5 },
      { product_id: gadget.id, quantity: 2 },
    ]);
    await api.post(owner, `/v1/orders/${po.id}/send`, undefined, 200);
    await api.post(owner, `/v1/orders/${po.id}/receipts`, { lines: [{ line_id: po.lines[0].id, quantity: 3 }] });
    const item = (lineId: string) => `/v1/orders/${po.id}/items/${lineId}` as const;
    // Raising keeps it partly received; lowering to the received 3 completes the line, not yet the order.
    await api.patch(owner, item(po.lines[0].id), { quantity: 6 });
    expect(await api.get(owner, `/v1/orders/${po.id}`)).toMatchObject({ order_status: 'partially_fulfilled', fulfillment_status: 'partially_fulfilled' });
    await api.patch(owner, item(po.lines[0].id), { quantity: 3 });
    expect(await api.get(owner, `/v1/orders/${po.id}`)).toMatchObject({ order_status: 'partially_fulfilled', fulfillment_status: 'partially_fulfilled' });
    // Deleting the unreceived line leaves only a fully received one: fulfilled, as a last receipt would.
    await api.delete(owner, item(po.lines[1].id));
    expect(await api.get(owner, `/v1/orders/${po.id}`)).toMatchObject({ order_status: 'fulfilled', fulfillment_status: 'fulfilled' });
    expect(await eventTypesOf(owner, po.id)).toContain('order.updated');

    const second = await purchaseOrder([{ product_id: widget.id, quantity: 4 }]);
    await api.post(owner, `/v1/orders/${second.id}/send`, undefined, 200);
    await api.post(owner, `/v1/orders/${second.id}/receipts`, { lines: [{ line_id: second.lines[0].id, quantity: 1 }] });
    const lowered = await api.patch(owner, `/v1/orders/${second.id}/items/${second.lines[0].id}`, { quantity: 1 });
    expect(lowered.quantity).toBe(1);
    expect(await api.get(owner, `/v1/orders/${second.id}`)).toMatchObject({ order_status: 'fulfilled', fulfillment_status: 'fulfilled' });
    expect((await api.get(owner, '/v1/purchasing/reorder-report', { include_all: 'true' })).data.find((r) => r.product_id === widget.id)!.on_order).toBe(0);
  });

  it('two parallel receipts of the same line never over-receive', async () => {
    const { owner, widget, purchaseOrder } = await purchaseWorld();
    const po = await purchaseOrder([{ product_id: widget.id, quantity: 5 }]);
    await api.post(owner, `/v1/orders/${po.id}/confirm`, undefined, 200);
    const body = { lines: [{ line_id: po.lines[0].id, quantity: 3 }] };
    const results = await Promise.all([1, 2, 3].map(() => api.request('POST', `/v1/orders/${po.id}/receipts`, { key: owner.secret, body })));
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([201, 422, 422]);
    expect(results.filter((result) => result.status === 422).every((result) => result.error.code === 'order_over_receipt')).toBe(true);
    const order = await api.get(owner, `/v1/orders/${po.id}`);
    expect(order.lines[0].quantity_fulfilled).toBe(3);
    expect(await onHand(owner, widget.id)).toBe(3);
  });
});

describe('POST /v1/orders/{id}/drop-ship-purchase-orders', () => {
  async function dropShipWorld() {
    const w = await purchaseWorld();
    const { owner, location, vendor, widget, gadget } = w;
    const other = await api.post(owner, '/v1/vendors', { name: 'Globex', email: 'po@globex.example' });
    await api.post(owner, `/v1/products/${gadget.id}/vendors`, { vendor_id: other.id, vendor_cost: 2.5, is_preferred: true });
    const account = await api.post(owner, '/v1/accounts', { name: 'Customer' });
    const so = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      location_id: location.id,
      lines: [
        { product_id: widget.id, quantity: 3, is_drop_ship: true, drop_ship_vendor_id: vendor.id },
        { product_id: gadget.id, quantity: 2, is_drop_ship: true },
        { product_id: widget.id, quantity: 1 },
      ],
    });
    return { ...w, other, account, so };
  }

  it('issues one purchase order per vendor, links the lines both ways, freezes the sales lines, and receiving fulfils them without stock', async () => {
    const { owner, vendor, other, widget, gadget, so } = await dropShipWorld();
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    const issued = await api.post(owner, `/v1/orders/${so.id}/drop-ship-purchase-orders`);
    expect(issued.object).toBe('list');
    expect(issued.data).toHaveLength(2);
    const [acmePo, globexPo] = issued.data.map((po) => withLines(po));
    expect(acmePo).toMatchObject({ document_type: 'purchase_order', account_id: vendor.id, order_status: 'draft', order_total: 9 });
    expect(acmePo.lines).toEqual([expect.objectContaining({ product_id: widget.id, quantity: 3, unit_cost: 3, is_drop_ship: true })]);
    expect(globexPo).toMatchObject({ account_id: other.id, order_total: 5 });
    expect(globexPo.lines).toEqual([expect.objectContaining({ product_id: gadget.id, quantity: 2, unit_cost: 2.5 })]);

    const sales = await api.get(owner, `/v1/orders/${so.id}`);
    expect(sales.lines.map((line) => line.drop_ship_po_id)).toEqual([acmePo.id, globexPo.id, null]);
    expect(sales.lines[1].drop_ship_vendor_id).toBe(other.id);
    expect(sales.lines[0].line_editability.qty).toMatchObject({ allowed: false, reason: 'dropship_po_issued' });
    // E5 against a real purchase order: quantity and drop-ship fields are frozen, not overridable.
    for (const patch of [{ quantity: 4 }, { is_drop_ship: false }, { drop_ship_vendor_id: other.id }]) {
      const blocked = await api.expectRefusal(
        owner,
        'PATCH',
        `/v1/orders/${so.id}/items/${sales.lines[0].id}`,
        patch,
        409,
        'dropship_po_issued_blocks_line_edit',
        Object.keys(patch)[0],
      );
      expect(blocked.linked_purchase_order).toMatchObject({ id: acmePo.id, order_number: acmePo.order_number, order_status: 'draft' });
    }
    // Nothing left to issue.
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/drop-ship-purchase-orders`, undefined, 422, 'no_drop_ship_lines', 'id');

    await api.post(owner, `/v1/orders/${acmePo.id}/send`, undefined, 200);
    const receipt = await api.post(owner, `/v1/orders/${acmePo.id}/receipts`, { lines: [{ line_id: acmePo.lines[0].id, quantity: 3 }] });
    expect(receipt).toMatchObject({
      order_status: 'fulfilled',
      location_id: null,
      inventory_transaction_ids: [],
      inventory_cost: 0,
      drop_ship_cost: 9,
      lines: [{ quantity: 3, inventory_transaction_id: null, drop_ship_sales_order_id: so.id, drop_ship_sales_line_id: sales.lines[0].id }],
    });
    expect((await entryLines(api, owner, receipt.journal_entry_id)).lines).toEqual([
      { key: 'cost_of_goods_sold', debit: 9, credit: 0 },
      { key: 'received_not_billed', debit: 0, credit: 9 },
    ]);
    expect(await onHand(owner, widget.id)).toBe(0);
    const after = await api.get(owner, `/v1/orders/${so.id}`);
    expect(after).toMatchObject({ order_status: 'partially_fulfilled', fulfillment_status: 'partially_fulfilled' });
    expect(after.lines.map((line) => line.quantity_fulfilled)).toEqual([3, 0, 0]);
  });

  it('refuses drafts and other documents (409), a line without any vendor (422), and another entity (404), writing nothing', async () => {
    const { owner, widget, so, location } = await dropShipWorld();
    expect(
      (await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/drop-ship-purchase-orders`, undefined, 409, 'order_invalid_transition', 'id'))
        .current_status,
    ).toBe('draft');
    const account = await api.post(owner, '/v1/accounts', { name: 'Another customer' });
    const orphan = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      location_id: location.id,
      lines: [{ product_id: widget.id, quantity: 1, is_drop_ship: true }],
    });
    await api.post(owner, `/v1/orders/${orphan.id}/confirm`, undefined, 200);
    const missing = await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${orphan.id}/drop-ship-purchase-orders`,
      undefined,
      422,
      'drop_ship_vendor_missing',
      'id',
    );
    expect(missing.line_id).toBe(orphan.lines[0].id);
    const plain = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 1 }],
    });
    await api.post(owner, `/v1/orders/${plain.id}/confirm`, undefined, 200);
    await api.expectRefusal(owner, 'POST', `/v1/orders/${plain.id}/drop-ship-purchase-orders`, undefined, 422, 'no_drop_ship_lines', 'id');
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    const stranger = await api.newEntity();
    await api.expectRefusal(stranger, 'POST', `/v1/orders/${so.id}/drop-ship-purchase-orders`, undefined, 404, 'not_found', 'id');
  });

  it('a drop-shipped kit: partial receipts fulfil the kit line and its component lines in proportion; a held sales order keeps on_hold', async () => {
    const { owner, location, vendor, widget, gadget } = await purchaseWorld();
    const kit = await api.post(owner, '/v1/kits', {
      sku: `KIT-${n++}`,
      product_name: 'Kit',
      components: [
        { component_product_id: widget.id, quantity_per_kit: 2 },
        { component_product_id: gadget.id, quantity_per_kit: 1 },
      ],
    });
    const account = await api.post(owner, '/v1/accounts', { name: 'Kit customer' });
    const so = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      location_id: location.id,
      lines: [{ product_id: kit.id, quantity: 3, is_drop_ship: true, drop_ship_vendor_id: vendor.id }],
    });
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    // A drop-shipped kit's component lines commit no stock.
    const report = await api.get(owner, '/v1/purchasing/reorder-report', { include_all: 'true' });
    expect(report.data.filter((r) => r.product_id === widget.id || r.product_id === gadget.id).map((r) => r.committed)).toEqual([0, 0]);
    const po = withLines((await api.post(owner, `/v1/orders/${so.id}/drop-ship-purchase-orders`)).data[0]);
    expect(po.lines).toEqual([expect.objectContaining({ product_id: kit.id, quantity: 3 })]);
    await api.post(owner, `/v1/orders/${po.id}/send`, undefined, 200);
    await api.post(owner, `/v1/orders/${so.id}/hold`, { hold_type: 'credit' }, 200);
    await api.post(owner, `/v1/orders/${po.id}/receipts`, { lines: [{ line_id: po.lines[0].id, quantity: 1 }] });
    let sales = await api.get(owner, `/v1/orders/${so.id}`);
    expect(sales).toMatchObject({ order_status: 'on_hold', fulfillment_status: 'partially_fulfilled' });
    expect(sales.lines.map((line) => line.quantity_fulfilled)).toEqual([1, 2, 1]);
    await api.post(owner, `/v1/orders/${so.id}/release`, undefined, 200);
    await api.post(owner, `/v1/orders/${po.id}/receipts`, { lines: [{ line_id: po.lines[0].id, quantity: 2 }] });
    sales = await api.get(owner, `/v1/orders/${so.id}`);
    expect(sales).toMatchObject({ order_status: 'fulfilled', fulfillment_status: 'fulfilled' });
    expect(sales.lines.map((line) => line.quantity_fulfilled)).toEqual([3, 6, 3]);
    // No stock moved for any of it.
    expect(await onHand(owner, widget.id)).toBe(0);
    expect(await onHand(owner, kit.id)).toBe(0);
  });

  it('cancelling a drop-ship purchase order frees its sales lines: E5 edits them again and a new purchase order can be issued', async () => {
    const { owner, so } = await dropShipWorld();
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    const first = await api.post(owner, `/v1/orders/${so.id}/drop-ship-purchase-orders`);
    await api.post(owner, `/v1/orders/${first.data[0].id}/cancel`, undefined, 200);
    let sales = await api.get(owner, `/v1/orders/${so.id}`);
    // Cleared in the cancel's transaction; the other vendor's purchase order still holds its line.
    expect(sales.lines.map((line) => line.drop_ship_po_id)).toEqual([null, first.data[1].id, null]);
    expect(sales.lines[0].line_editability.qty).toMatchObject({ allowed: true, reason: null });
    const edited = await api.patch(owner, `/v1/orders/${so.id}/items/${sales.lines[0].id}`, { quantity: 4 });
    expect(edited.quantity).toBe(4);
    const second = await api.post(owner, `/v1/orders/${so.id}/drop-ship-purchase-orders`);
    expect(second.data).toHaveLength(1);
    expect(second.data[0].lines).toEqual([expect.objectContaining({ quantity: 4, is_drop_ship: true })]);
    sales = await api.get(owner, `/v1/orders/${so.id}`);
    expect(sales.lines[0].drop_ship_po_id).toBe(second.data[0].id);
  });

  it('POST /v1/orders/{id}/fulfillments refuses a line with a live drop-ship purchase order (the vendor ships it), writing nothing', async () => {
    const { owner, so, widget, location } = await dropShipWorld();
    await api.post(owner, '/v1/inventory/receipts', { product_id: widget.id, location_id: location.id, quantity: 10, unit_cost: 4 });
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    const issued = await api.post(owner, `/v1/orders/${so.id}/drop-ship-purchase-orders`);
    const acmePo = issued.data[0];
    const lines = (await api.get(owner, `/v1/orders/${so.id}`)).lines;
    const refused = await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${so.id}/fulfillments`,
      {
        lines: [
          { line_id: lines[2].id, quantity: 1 },
          { line_id: lines[0].id, quantity: 1 },
        ],
      },
      422,
      'line_drop_shipped',
      'lines[1].line_id',
    );
    expect(refused.linked_purchase_order).toEqual({ id: acmePo.id, order_number: acmePo.order_number, order_status: 'draft' });
    // A line whose drop-ship purchase order was cancelled ships from stock again.
    await api.post(owner, `/v1/orders/${acmePo.id}/cancel`, undefined, 200);
    const shipped = await api.post(owner, `/v1/orders/${so.id}/fulfillments`, { lines: [{ line_id: lines[0].id, quantity: 1 }] });
    expect(shipped.lines).toEqual([expect.objectContaining({ line_id: lines[0].id, quantity: 1 })]);
    expect(await onHand(owner, widget.id)).toBe(9);
  });

  it('drop-ship lines count in neither committed nor on_order', async () => {
    const { owner, so, widget, gadget, purchaseOrder } = await dropShipWorld();
    const row = async (productId: string) => {
      const response = await api.request('GET', '/v1/purchasing/reorder-report', { key: owner.secret, query: { include_all: 'true' } });
      expect(response.status, response.text).toBe(200);
      return response.body.data.find((r) => r.product_id === productId);
    };
    await api.post(owner, `/v1/orders/${so.id}/confirm`, undefined, 200);
    // Only the plain widget line (1) commits stock; the drop-ship widget (3) and gadget (2) lines do not.
    expect(await row(widget.id)).toMatchObject({ committed: 1, on_order: 0 });
    expect(await row(gadget.id)).toMatchObject({ committed: 0, on_order: 0 });
    const issued = await api.post(owner, `/v1/orders/${so.id}/drop-ship-purchase-orders`);
    for (const po of issued.data) await api.post(owner, `/v1/orders/${po.id}/send`, undefined, 200);
    expect(await row(widget.id)).toMatchObject({ committed: 1, on_order: 0 });
    expect(await row(gadget.id)).toMatchObject({ committed: 0, on_order: 0 });
    // A stock purchase order still counts.
    const stock = await purchaseOrder([{ product_id: widget.id, quantity: 5 }]);
    await api.post(owner, `/v1/orders/${stock.id}/send`, undefined, 200);
    expect(await row(widget.id)).toMatchObject({ committed: 1, on_order: 5 });
  });
});
