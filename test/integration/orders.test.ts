/** Sales and purchase documents (issue 5, first slice): orders, lines, E2, E5, E15, E17. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { userWithKey } from '../support/ledger-helpers';
import { withLines, unchecked } from '../support/client';
import { GADGET, salesWorld, type OrderWithLines } from '../support/worlds';

const api = setupTestApi();
let n = 0;
const WORLD = { vendor: { name: 'Supplier' }, gadget: { ...GADGET, list_price: '3.3333' } } as const;

describe('POST /v1/orders', () => {
  it('creates a draft sales order with lines, numbered SO-000001, at the default location, priced from the catalog', async () => {
    const { owner, location, account, widget, gadget } = await salesWorld(api, WORLD);
    // General tier from 10 units, and an account-specific price that wins from 1 unit.
    await api.post(owner, '/v1/pricing-policies', { product_id: widget.id, sell_price: 9, min_quantity: 10 });
    await api.post(owner, '/v1/pricing-policies', { product_id: gadget.id, account_id: account.id, sell_price: 3 });
    const response = await api.request('POST', '/v1/orders', {
      key: owner.secret,
      body: {
        document_type: 'sales_order',
        account_id: account.id,
        shipping_total: 5,
        metadata: { legacy: '42' },
        lines: [
          { product_id: widget.id, quantity: 10 },
          { product_id: gadget.id, quantity: 3 },
          { product_id: widget.id, quantity: 1, sell_rate: '7.5' },
        ],
      },
    });
    expect(response.status).toBe(201);
    const order = withLines(response.body);
    expect(order).toMatchObject({
      object: 'order',
      order_number: 'SO-000001',
      document_type: 'sales_order',
      order_status: 'draft',
      payment_status: 'unpaid',
      fulfillment_status: 'unfulfilled',
      account_id: account.id,
      location_id: location.id,
      subtotal: 106.5, // 90 + 9 + 7.5
      shipping_total: 5,
      order_total: 111.5,
      list_price_total: 120, // 100 + 10 (3.3333 × 3 = 9.9999 → 10.00) + 10
      pricing_savings: 13.5,
      amount_paid: 0,
      amount_due: 111.5,
      balance_due: 0, // draft sales document
      revision_count: 0,
      metadata: { legacy: '42' },
    });
    expect(order.lines.map((l) => [l.sell_rate, l.list_price, l.pricing_rule_adjustment, l.line_subtotal])).toEqual([
      [9, 10, 1, 90],
      [3, 3.3333, 0.3333, 9],
      [7.5, 10, 2.5, 7.5],
    ]);
    expect(order.lines[0].line_editability).toEqual({
      qty: { allowed: true, reason: null, floor: 0 },
      unit_cost: { allowed: true, reason: null, warn_received_qty: null },
      delete: { allowed: true, reason: null },
      notes: { allowed: true, reason: null },
    });
    expect(order.lines.map((l) => l.sort_order)).toEqual([1, 2, 3]);
    const event = api.published.find((e) => e.type === 'order.created' && e.data.object.id === order.id);
    expect(event).toBeDefined();
  });

  it('purchase orders name a vendor, are priced at the vendor cost, and their balance_due is never forced to 0', async () => {
    const { owner, account, vendor, widget } = await salesWorld(api, WORLD);
    await api.post(owner, `/v1/products/${widget.id}/vendors`, { vendor_id: vendor.id, vendor_cost: '3.75' });
    const po = await api.post(owner, '/v1/orders', { document_type: 'purchase_order', account_id: vendor.id, lines: [{ product_id: widget.id, quantity: 4 }] });
    expect(po).toMatchObject({ order_number: 'PO-000001', account_id: vendor.id, order_total: 15, balance_due: 15, amount_due: 15 });
    expect(po.lines[0]).toMatchObject({ sell_rate: 3.75, unit_cost: 3.75 });
    const wrongParty = await api.request('POST', '/v1/orders', { key: owner.secret, body: { document_type: 'purchase_order', account_id: account.id } });
    expect(wrongParty.status).toBe(404);
    expect(wrongParty.error).toMatchObject({ code: 'not_found', param: 'account_id' });
    const vendorOnSale = await api.request('POST', '/v1/orders', { key: owner.secret, body: { document_type: 'invoice', account_id: vendor.id } });
    expect(vendorOnSale.error).toMatchObject({ code: 'not_found', param: 'account_id' });
  });

  it('numbers each document type on its own, gap-free under concurrency; refusals take no number', async () => {
    const { owner, account, widget } = await salesWorld(api, WORLD);
    const quote = await api.post(owner, '/v1/orders', { document_type: 'quote', account_id: account.id });
    expect(quote.order_number).toBe('QT-000001');
    const invoice = await api.post(owner, '/v1/orders', { document_type: 'invoice', account_id: account.id });
    expect(invoice).toMatchObject({ order_number: 'INV-000001', invoice_number: 'INV-000001', invoice_type: 'manual' });
    const refused = await api.request('POST', '/v1/orders', {
      key: owner.secret,
      body: {
        document_type: 'sales_order',
        account_id: account.id,
        lines: [
          { product_id: widget.id, quantity: 1 },
          { product_id: newId(), quantity: 1 },
        ],
      },
    });
    expect(refused.status).toBe(404);
    expect(refused.error).toMatchObject({ code: 'not_found', param: 'lines[1].product_id' });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.request('POST', '/v1/orders', {
          key: owner.secret,
          body: { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1 }] },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(results.map((r) => r.body.order_number).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `SO-00000${i + 1}`));
  });

  it('refuses bad input with code and param, writing nothing', async () => {
    const { owner, account, widget } = await salesWorld(api, WORLD);
    const other = await api.newEntity();
    const foreignProduct = await api.post(other, '/v1/products', { sku: 'F', name: 'Foreign' });
    const archived = await api.post(owner, '/v1/accounts', { name: 'Gone' });
    await api.post(owner, `/v1/accounts/${archived.id}/archive`, {}, 200);
    const before = await tenantRowCounts(owner.entity.id);
    const cases: [unknown, number, string, string][] = [
      [{ account_id: account.id }, 400, 'parameter_missing', 'document_type'],
      [{ document_type: 'memo', account_id: account.id }, 400, 'parameter_invalid', 'document_type'],
      [{ document_type: 'sales_order', account_id: archived.id }, 422, 'party_archived', 'account_id'],
      [{ document_type: 'sales_order', account_id: account.id, location_id: newId() }, 404, 'not_found', 'location_id'],
      [{ document_type: 'sales_order', account_id: account.id, invoice_type: 'manual' }, 400, 'parameter_invalid', 'invoice_type'],
      [
        { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: foreignProduct.id, quantity: 1 }] },
        404,
        'not_found',
        'lines[0].product_id',
      ],
      [
        { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 0 }] },
        400,
        'parameter_invalid',
        'lines[0].quantity',
      ],
      [
        { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1, discount_amount: 1, discount_percent: 5 }] },
        400,
        'parameter_invalid',
        'lines[0].discount_percent',
      ],
      [
        { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1, discount_amount: 11 }] },
        400,
        'parameter_invalid',
        'lines[0].discount_amount',
      ],
      [
        { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1, sell_rate: 1, unit_price: 2 }] },
        400,
        'parameter_invalid',
        'lines[0].unit_price',
      ],
      [
        { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1, tax_rate_id: newId() }] },
        404,
        'not_found',
        'lines[0].tax_rate_id',
      ],
    ];
    for (const [body, status, code, param] of cases) {
      const response = await api.request('POST', '/v1/orders', { key: owner.secret, body: unchecked(body) });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.error, JSON.stringify(body)).toMatchObject({ code, param });
    }
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const fresh = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id });
    expect(fresh.order_number).toBe('SO-000001');
  });

  it('explodes a kit into component lines priced on the kit line', async () => {
    const { owner, account, widget, gadget } = await salesWorld(api, WORLD);
    const kit = await api.post(owner, '/v1/kits', {
      sku: `KIT-${n++}`,
      product_name: 'Bundle kit',
      components: [
        { component_product_id: widget.id, quantity_per_kit: 2 },
        { component_product_id: gadget.id, quantity_per_kit: 1 },
      ],
    });
    await api.request('PATCH', `/v1/products/${kit.id}`, { key: owner.secret, body: { list_price: 20 } });
    const order = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: kit.id, quantity: 3 }] });
    expect(order.lines).toHaveLength(3);
    const [parent, ...components] = order.lines;
    expect(parent).toMatchObject({ kit_parent_line_id: null, line_subtotal: 60 });
    expect(components.map((c) => [c.product_id, c.quantity, c.line_subtotal, c.kit_parent_line_id])).toEqual([
      [widget.id, 6, 0, parent.id],
      [gadget.id, 3, 0, parent.id],
    ]);
    expect(components[0].line_editability.qty).toMatchObject({ allowed: false, reason: 'kit_component' });
    // The kit's line is priced in the subtotal but, as a kit line, counts in neither list_price_total nor pricing_savings.
    expect(order).toMatchObject({ subtotal: 60, list_price_total: 0, pricing_savings: 0 });
    const edited = await api.request('PATCH', `/v1/orders/${order.id}/items/${parent.id}`, { key: owner.secret, body: { quantity: 1 } });
    expect(edited.status).toBe(200);
    const after = await api.get(owner, `/v1/orders/${order.id}`);
    expect(after.lines.map((l) => l.quantity)).toEqual([1, 2, 1]);
    const direct = await api.request('PATCH', `/v1/orders/${order.id}/items/${components[0].id}`, { key: owner.secret, body: { quantity: 5 } });
    expect(direct.status).toBe(409);
    expect(direct.error).toMatchObject({ code: 'line_not_editable', param: 'item_id', reason: 'kit_component' });
  });
});

describe('GET /v1/orders and /v1/orders/{id}', () => {
  it('requires document_type, filters, pages by keyset and expands lines, adjustments and account', async () => {
    const { owner, account, vendor, widget } = await salesWorld(api, WORLD);
    const other = await api.post(owner, '/v1/accounts', { name: 'Other' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1 }] })).id,
      );
    }
    await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: other.id, external_order_id: 'shop-1' });
    await api.post(owner, '/v1/orders', { document_type: 'purchase_order', account_id: vendor.id });
    const missing = await api.request('GET', '/v1/orders', { key: owner.secret });
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ code: 'parameter_missing', param: 'document_type' });
    const page1 = await api.request('GET', '/v1/orders', { key: owner.secret, query: { document_type: 'sales_order', account_id: account.id, limit: '2' } });
    expect(page1.body.data.map((o) => o.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body).toMatchObject({ has_more: true, next_cursor: ids[1] });
    expect(page1.body.data[0].lines).toBeUndefined();
    const page2 = await api.request('GET', '/v1/orders', {
      key: owner.secret,
      query: { document_type: 'sales_order', account_id: account.id, limit: '2', starting_after: ids[1], 'expand[]': ['data.lines', 'data.account'] },
    });
    expect(page2.body.data.map((o) => o.id)).toEqual([ids[0]]);
    expect(page2.body.data[0].lines).toHaveLength(1);
    expect(page2.body.data[0].account).toMatchObject({ object: 'account', id: account.id });
    const byExternal = await api.request('GET', '/v1/orders', { key: owner.secret, query: { document_type: 'sales_order', external_order_id: 'shop-1' } });
    expect(byExternal.body.data).toHaveLength(1);
    const pos = await api.request('GET', '/v1/orders', { key: owner.secret, query: { document_type: 'purchase_order', 'expand[]': 'data.account' } });
    expect(pos.body.data[0].account).toMatchObject({ object: 'vendor', id: vendor.id });
    const drafts = await api.request('GET', '/v1/orders', { key: owner.secret, query: { document_type: 'sales_order', order_status: 'confirmed' } });
    expect(drafts.body.data).toEqual([]);
    const future = await api.request('GET', '/v1/orders', { key: owner.secret, query: { document_type: 'sales_order', created_gte: '2999-01-01T00:00:00Z' } });
    expect(future.body.data).toEqual([]);
    const single = await api.request('GET', `/v1/orders/${ids[0]}`, { key: owner.secret, query: { 'expand[]': 'account' } });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ id: ids[0], adjustments: [], account: { id: account.id } });
    expect(single.body.lines).toHaveLength(1);
    const stranger = await api.newEntity();
    const foreign = await api.request('GET', `/v1/orders/${ids[0]}`, { key: stranger.secret });
    expect(foreign.status).toBe(404);
  });
});

describe('PATCH /v1/orders/{id} and lines', () => {
  it('recalculates totals on header and line changes; tax follows the line rate and the order exemption', async () => {
    const { owner, account, widget, gadget } = await salesWorld(api, WORLD);
    const tax = (await api.post(owner, '/v1/tax-rates', { name: 'State', rate: 8.25 })).id;
    const order = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 2, tax_rate_id: tax }],
    });
    expect(order).toMatchObject({ subtotal: 20, tax_total: 1.65, order_total: 21.65 });
    const shipped = await api.request('PATCH', `/v1/orders/${order.id}`, { key: owner.secret, body: { shipping_total: '7.5', po_number: 'PO-77' } });
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({ shipping_total: 7.5, order_total: 29.15, po_number: 'PO-77' });
    const exempt = await api.request('PATCH', `/v1/orders/${order.id}`, { key: owner.secret, body: { tax_exempt: true } });
    expect(exempt.body).toMatchObject({ tax_total: 0, order_total: 27.5 });
    const updated = api.published.filter((e) => e.type === 'order.updated' && e.data.object.id === order.id);
    expect(updated.at(-1)!.data.previous_attributes).toMatchObject({ tax_exempt: false, tax_total: 1.65 });

    const added = await api.request('POST', `/v1/orders/${order.id}/lines`, {
      key: owner.secret,
      body: { product_id: gadget.id, quantity: 3, discount_percent: 10 },
    });
    expect(added.status).toBe(201);
    const { lines } = withLines(added.body);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ line_subtotal: 10, discount_amount: 1, discount_percent: 10, line_total: 9, sort_order: 2 });
    expect(added.body).toMatchObject({ subtotal: 30, discount_total: 1, order_total: 36.5 });

    const line = lines[1];
    const edited = await api.request('PATCH', `/v1/orders/${order.id}/items/${line.id}`, { key: owner.secret, body: { discount_amount: 2, notes: 'Loyal' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ object: 'order_line_item', id: line.id, discount_amount: 2, discount_percent: null, notes: 'Loyal', line_total: 8 });
    const removed = await api.request('DELETE', `/v1/orders/${order.id}/items/${line.id}`, { key: owner.secret });
    expect(removed.body).toEqual({ id: line.id, object: 'order_line_item', livemode: false, deleted: true });
    const after = await api.get(owner, `/v1/orders/${order.id}`);
    expect(after).toMatchObject({ subtotal: 20, discount_total: 0, order_total: 27.5 });
  });

  it('E5: re-prices a catalog-priced line when its quantity crosses a tier, but not an overridden one', async () => {
    const { owner, account, widget } = await salesWorld(api, WORLD);
    await api.post(owner, '/v1/pricing-policies', { product_id: widget.id, sell_price: 8, min_quantity: 5 });
    const order = await api.post(owner, '/v1/orders', {
      document_type: 'quote',
      account_id: account.id,
      lines: [
        { product_id: widget.id, quantity: 1 },
        { product_id: widget.id, quantity: 1, unit_price: 9.5 },
      ],
    });
    const [catalog, manual] = order.lines;
    expect((await api.request('PATCH', `/v1/orders/${order.id}/items/${catalog.id}`, { key: owner.secret, body: { quantity: 5 } })).body).toMatchObject({
      sell_rate: 8,
      unit_price: 8,
      line_subtotal: 40,
    });
    expect((await api.request('PATCH', `/v1/orders/${order.id}/items/${manual.id}`, { key: owner.secret, body: { quantity: 5 } })).body).toMatchObject({
      sell_rate: 9.5,
      line_subtotal: 47.5,
    });
    const quote = await api.get(owner, `/v1/orders/${order.id}`);
    expect(quote).toMatchObject({ order_total: 87.5, balance_due: 87.5 }); // quotes are never forced to 0
  });

  it('E5: 404 for an item of another order, another entity, or a foreign order', async () => {
    const { owner, account, widget } = await salesWorld(api, WORLD);
    const a = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1 }] });
    const b = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1 }] });
    const before = await tenantRowCounts(owner.entity.id);
    const wrongOrder = await api.request('PATCH', `/v1/orders/${a.id}/items/${b.lines[0].id}`, { key: owner.secret, body: { quantity: 3 } });
    expect(wrongOrder.status).toBe(404);
    expect(wrongOrder.error).toMatchObject({ code: 'not_found', param: 'item_id' });
    const gone = await api.request('DELETE', `/v1/orders/${a.id}/items/${b.lines[0].id}`, { key: owner.secret });
    expect(gone.error).toMatchObject({ code: 'not_found', param: 'item_id' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('E5: blocks edits on closed documents with suggested_action; paid documents take override with the permission, audited', async () => {
    const { owner, account, widget, receive, act } = await salesWorld(api, WORLD);
    const make = async () =>
      api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: widget.id, quantity: 2 }] });
    /** Moves a draft of 2 widgets (20.00) to a closed state. */
    const close: Record<string, (order: OrderWithLines) => Promise<unknown>> = {
      fulfilled: async (order) => {
        await receive(widget.id, 2, 4);
        await act(order.id, 'confirm');
        await act(order.id, 'fulfillments', { lines: [{ line_id: order.lines[0].id, quantity: 2 }] });
      },
      cancelled: (order) => act(order.id, 'cancel'),
      // No endpoint voids a sales order (only posted invoices are voided).
      voided: (order) => owner.sql((db) => db.query(`UPDATE orders SET order_status = 'voided' WHERE id = $1`, [order.id])),
      paid: async (order) => {
        await act(order.id, 'confirm');
        await act(order.id, 'payments', { amount: 20 });
      },
    };
    const expectations: [string, string, string][] = [
      ['fulfilled', 'document_fulfilled', 'create_return'],
      ['cancelled', 'document_cancelled', 'duplicate_order'],
      ['voided', 'document_voided', 'duplicate_order'],
      ['paid', 'document_paid', 'revise_order'],
    ];
    for (const [state, reason, action] of expectations) {
      const order = await make();
      await close[state](order);
      const before = await tenantRowCounts(owner.entity.id);
      const response = await api.request('PATCH', `/v1/orders/${order.id}/items/${order.lines[0].id}`, { key: owner.secret, body: { quantity: 3 } });
      expect(response.status, state).toBe(409);
      expect(response.error).toMatchObject({ code: 'order_locked', param: 'id', reason, suggested_action: action, overridable: reason === 'document_paid' });
      expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
      const line = (await api.get(owner, `/v1/orders/${order.id}`)).lines[0];
      expect(line.line_editability.qty).toMatchObject({ allowed: false, reason });
    }
    // A posted invoice is closed too, and override does not open a fulfilled document.
    const invoice = await api.post(owner, '/v1/orders', { document_type: 'invoice', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1 }] });
    await act(invoice.id, 'confirm');
    const posted = await api.request('PATCH', `/v1/orders/${invoice.id}/items/${invoice.lines[0].id}`, {
      key: owner.secret,
      body: { quantity: 2, override: true },
    });
    expect(posted.error).toMatchObject({ code: 'order_locked', reason: 'document_posted', suggested_action: 'create_return' });

    const paid = await make();
    await close.paid(paid);
    const clerk = await userWithKey(owner, []);
    const before = await tenantRowCounts(owner.entity.id);
    const denied = await api.request('PATCH', `/v1/orders/${paid.id}/items/${paid.lines[0].id}`, { key: clerk.secret, body: { quantity: 3, override: true } });
    expect(denied.status).toBe(403);
    expect(denied.error).toMatchObject({ code: 'insufficient_permissions', param: 'override', permission: 'orders.revision_override' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const allowed = await api.request('PATCH', `/v1/orders/${paid.id}/items/${paid.lines[0].id}`, {
      key: owner.secret,
      body: { quantity: 3, override: true, override_reason: 'Customer added one' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.quantity).toBe(3);
    const after = await api.get(owner, `/v1/orders/${paid.id}`);
    // The edit raised the total above what was paid: payment_status follows the new total.
    expect(after).toMatchObject({
      revision_count: 1,
      order_status: 'confirmed',
      payment_status: 'partially_paid',
      order_total: 30,
      amount_due: 10,
      balance_due: 10,
    });
    const audit = await owner.sql((db) =>
      db.query<{ user_id: string; reason: string; lock_reason: string; changes: unknown; revision_number: number }>(
        'SELECT user_id, reason, lock_reason, changes, revision_number FROM order_revisions WHERE order_id = $1',
        [paid.id],
      ),
    );
    expect(audit).toEqual([
      { user_id: owner.owner.id, reason: 'Customer added one', lock_reason: 'document_paid', changes: { quantity: '3' }, revision_number: 1 },
    ]);
  });

  it('E5: a line with an issued drop-ship PO refuses quantity and drop-ship changes with linked_purchase_order, even with override', async () => {
    const { owner, account, vendor, widget, act } = await salesWorld(api, WORLD);
    const order = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 2, is_drop_ship: true, drop_ship_vendor_id: vendor.id }],
    });
    await act(order.id, 'confirm');
    const [po] = (await act(order.id, 'drop-ship-purchase-orders')).data;
    const path = `/v1/orders/${order.id}/items/${order.lines[0].id}` as const;
    const before = await tenantRowCounts(owner.entity.id);
    for (const [body, param] of [
      [{ quantity: 3, override: true }, 'quantity'],
      [{ is_drop_ship: false }, 'is_drop_ship'],
      [{ drop_ship_vendor_id: null }, 'drop_ship_vendor_id'],
    ] as const) {
      const response = await api.request('PATCH', path, { key: owner.secret, body });
      expect(response.status).toBe(409);
      expect(response.error).toMatchObject({
        code: 'dropship_po_issued_blocks_line_edit',
        param,
        linked_purchase_order: { id: po.id, order_number: 'PO-000001' },
      });
    }
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    // Same quantity and other fields are fine.
    expect((await api.request('PATCH', path, { key: owner.secret, body: { quantity: 2, notes: 'Rush' } })).status).toBe(200);
    const line = (await api.get(owner, `/v1/orders/${order.id}`)).lines[0];
    expect(line.line_editability).toMatchObject({ qty: { allowed: false, reason: 'dropship_po_issued' }, delete: { allowed: false } });
  });

  it('E5: the quantity cannot go below what was fulfilled', async () => {
    const { owner, account, widget, receive, act } = await salesWorld(api, WORLD);
    const order = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 5 }],
    });
    await receive(widget.id, 2, 4);
    await act(order.id, 'confirm');
    await act(order.id, 'fulfillments', { lines: [{ line_id: order.lines[0].id, quantity: 2 }] });
    const response = await api.request('PATCH', `/v1/orders/${order.id}/items/${order.lines[0].id}`, { key: owner.secret, body: { quantity: 1 } });
    expect(response.status).toBe(422);
    expect(response.error).toMatchObject({ code: 'line_quantity_below_floor', param: 'quantity', floor: 2, reason: 'quantity_fulfilled' });
  });

  it('header edits of a closed document are limited to notes and metadata', async () => {
    const { owner, account, act } = await salesWorld(api, WORLD);
    const order = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id });
    await act(order.id, 'cancel');
    const refused = await api.request('PATCH', `/v1/orders/${order.id}`, { key: owner.secret, body: { shipping_total: 3 } });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'order_locked', current_status: 'cancelled' });
    const notes = await api.request('PATCH', `/v1/orders/${order.id}`, { key: owner.secret, body: { notes: 'Called customer' } });
    expect(notes.status).toBe(200);
    expect(notes.body.balance_due).toBe(0);
  });
});

describe('E17 DELETE /v1/orders/{id}', () => {
  it('soft-deletes a draft by uuid or order_number; refuses confirmed orders and orders with payments', async () => {
    const { owner, account, act } = await salesWorld(api, WORLD);
    const draft = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id });
    const byNumber = await api.request('DELETE', `/v1/orders/${draft.order_number}`, { key: owner.secret });
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toEqual({ deleted: true, id: draft.id });
    expect((await api.request('GET', `/v1/orders/${draft.id}`, { key: owner.secret })).status).toBe(404);
    expect((await api.request('DELETE', `/v1/orders/${draft.id}`, { key: owner.secret })).status).toBe(404);
    const list = await api.request('GET', '/v1/orders', { key: owner.secret, query: { document_type: 'sales_order' } });
    expect(list.body.data).toEqual([]);
    expect(api.published.some((e) => e.type === 'order.deleted' && e.data.object.id === draft.id)).toBe(true);

    const confirmed = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id });
    await act(confirmed.id, 'confirm');
    const withPayment = await api.post(owner, '/v1/orders', { document_type: 'quote', account_id: account.id });
    // No endpoint takes a payment on a quote (only sales orders and invoices are payable).
    await owner.sql((db) => db.query(`UPDATE orders SET payment_status = 'partially_paid', amount_paid = 1 WHERE id = $1`, [withPayment.id]));
    const before = await tenantRowCounts(owner.entity.id);
    for (const order of [confirmed, withPayment]) {
      const refused = await api.request('DELETE', `/v1/orders/${order.id}`, { key: owner.secret });
      expect(refused.status).toBe(409);
      expect(refused.error).toMatchObject({ code: 'order_not_deletable', param: 'id' });
    }
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const quote = await api.post(owner, '/v1/orders', { document_type: 'quote', account_id: account.id });
    await act(quote.id, 'confirm');
    expect((await api.request('DELETE', `/v1/orders/${quote.id}`, { key: owner.secret })).status).toBe(200);
    // Numbers are never reused.
    expect((await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id })).order_number).toBe('SO-000003');
    const stranger = await api.newEntity();
    const foreign = await api.request('DELETE', `/v1/orders/${confirmed.order_number}`, { key: stranger.secret });
    expect(foreign.status).toBe(404);
  });
});

describe('E15 POST /v1/orders/{id}/duplicate', () => {
  it('makes a new draft with a fresh number, the lines, account, location and metadata, and no payment or fulfillment history', async () => {
    const { owner, account, widget, receive, act } = await salesWorld(api, WORLD);
    const source = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      metadata: { channel: 'web' },
      external_order_id: 'ext-1',
      lines: [{ product_id: widget.id, quantity: 4, sell_rate: 9 }],
    });
    await api.post(owner, `/v1/orders/${source.id}/adjustments`, { name: 'Promo', effect_type: 'discount', discount_type: 'fixed_amount', value: 5 }, 200);
    // Fulfilled and paid in full (4 × 9.00 − 5.00).
    await receive(widget.id, 4, 4);
    await act(source.id, 'confirm');
    await act(source.id, 'payments', { amount: 31 });
    await act(source.id, 'fulfillments', { lines: [{ line_id: source.lines[0].id, quantity: 4 }] });
    const response = await api.request('POST', `/v1/orders/${source.id}/duplicate`, { key: owner.secret });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      order_number: 'SO-000002',
      order_status: 'draft',
      payment_status: 'unpaid',
      fulfillment_status: 'unfulfilled',
      account_id: account.id,
      location_id: source.location_id,
      metadata: { channel: 'web' },
      amount_paid: 0,
      external_order_id: null,
      duplicated_from_id: source.id,
      adjustments: [],
      order_total: 36,
    });
    expect(response.body.id).not.toBe(source.id);
    const { lines } = withLines(response.body);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ product_id: widget.id, quantity: 4, sell_rate: 9, quantity_fulfilled: 0 });
    expect(lines[0].id).not.toBe(source.lines[0].id);
  });
});

describe('E2 POST /v1/orders/{id}/adjustments', () => {
  it('records a discount, prorates it over the lines exactly and answers with the new order total', async () => {
    const { owner, account, widget, gadget } = await salesWorld(api, WORLD);
    const order = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      lines: [
        { product_id: widget.id, quantity: 1, sell_rate: '10.01' },
        { product_id: gadget.id, quantity: 1, sell_rate: '10.01' },
        { product_id: gadget.id, quantity: 1, sell_rate: '10.01' },
      ],
    });
    const response = await api.request('POST', `/v1/orders/${order.id}/adjustments`, {
      key: owner.secret,
      body: { name: 'Spring sale', effect_type: 'discount', discount_type: 'percentage', value: 10, notes: 'Campaign 7' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'order_adjustment',
      order_id: order.id,
      name: 'Spring sale',
      value: 10,
      amount: 3,
      created_by_user_id: owner.owner.id,
      order_total: 27.03,
      discount_total: 3,
    });
    const after = await api.get(owner, `/v1/orders/${order.id}`);
    const shares = after.lines.map((l) => l.adjustments[0].line_amount);
    expect(shares).toEqual([1, 1, 1]);
    expect(after.lines[0].adjustments[0]).toMatchObject({ source_type: 'order_adjustment', source_id: response.body.id, source_label: 'Spring sale' });
    const fee = await api.request('POST', `/v1/orders/${order.id}/adjustments`, {
      key: owner.secret,
      body: { name: 'Handling', effect_type: 'fee', discount_type: 'fixed_amount', value: '2.5' },
    });
    expect(fee.body).toMatchObject({ amount: 2.5, fee_total: 2.5, order_total: 29.53 });
    expect(api.published.filter((e) => e.type === 'order_adjustment.created' && e.data.object.order_id === order.id)).toHaveLength(2);
  });

  it('refuses cancelled, fulfilled and posted-invoice orders with 422 and the current status, foreign orders with 404 order_not_found, writing nothing', async () => {
    const { owner, account, widget, receive, act } = await salesWorld(api, WORLD);
    const body = { name: 'X', effect_type: 'discount', discount_type: 'fixed_amount', value: 1 } as const;
    const cancelled = async () => {
      const order = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id });
      await act(order.id, 'cancel');
      return order;
    };
    const fulfilled = async () => {
      const order = await api.post(owner, '/v1/orders', {
        document_type: 'sales_order',
        account_id: account.id,
        lines: [{ product_id: widget.id, quantity: 1 }],
      });
      await receive(widget.id, 1, 4);
      await act(order.id, 'confirm');
      await act(order.id, 'fulfillments', { lines: [{ line_id: order.lines[0].id, quantity: 1 }] });
      return order;
    };
    for (const [status, make] of [
      ['cancelled', cancelled],
      ['fulfilled', fulfilled],
    ] as const) {
      const order = await make();
      const before = await tenantRowCounts(owner.entity.id);
      const response = await api.request('POST', `/v1/orders/${order.id}/adjustments`, { key: owner.secret, body });
      expect(response.status).toBe(422);
      expect(response.error).toMatchObject({ code: 'order_not_adjustable', param: 'id', current_status: status });
      expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    }
    const invoice = await api.post(owner, '/v1/orders', { document_type: 'invoice', account_id: account.id });
    await act(invoice.id, 'confirm');
    expect((await api.request('POST', `/v1/orders/${invoice.id}/adjustments`, { key: owner.secret, body })).error).toMatchObject({
      code: 'order_not_adjustable',
      current_status: 'confirmed',
      document_type: 'invoice',
    });
    const open = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id });
    await act(open.id, 'confirm');
    expect((await api.request('POST', `/v1/orders/${open.id}/adjustments`, { key: owner.secret, body })).status).toBe(200);

    const stranger = await api.newEntity();
    const before = await tenantRowCounts(owner.entity.id);
    const foreign = await api.request('POST', `/v1/orders/${open.id}/adjustments`, { key: stranger.secret, body });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'order_not_found', type: 'not_found', param: 'id' });
    const draft = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: account.id });
    const before2 = await tenantRowCounts(owner.entity.id);
    const cases: [unknown, string, string][] = [
      [{ ...body, discount_type: 'percentage', value: 101 }, 'parameter_invalid', 'value'],
      [{ ...body, value: '1.005' }, 'parameter_invalid', 'value'],
      [{ ...body, effect_type: 'rebate' }, 'parameter_invalid', 'effect_type'],
      [{ effect_type: 'discount', discount_type: 'percentage', value: 5 }, 'parameter_missing', 'name'],
      // coupon_code replaces the manual fields (apply-coupon through E2); both at once is refused.
      [{ ...body, coupon_code: 'SAVE' }, 'parameter_invalid', 'coupon_code'],
    ];
    for (const [bad, code, param] of cases) {
      const response = await api.request('POST', `/v1/orders/${draft.id}/adjustments`, { key: owner.secret, body: unchecked(bad) });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.error).toMatchObject({ code, param });
    }
    const ghost = await api.request('POST', `/v1/orders/${draft.id}/adjustments`, { key: owner.secret, body: { ...body, created_by_user_id: newId() } });
    expect(ghost.error).toMatchObject({ code: 'not_found', param: 'created_by_user_id' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before2);
    expect(before2.order_adjustments).toBe(before.order_adjustments);
  });
});
