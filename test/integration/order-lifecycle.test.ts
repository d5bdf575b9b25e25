/** The order lifecycle (issue 5, second slice): transitions, conversion, fulfillment, invoice posting, committed stock. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { eventTypesOf, setupTestApi } from '../support/harness';
import { closedPeriod, entryLines } from '../support/ledger-helpers';
import { unchecked } from '../support/client';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();
let n = 0;

describe('sales order transitions', () => {
  it('confirms, holds, releases and cancels; balance_due follows; events recorded', async () => {
    const { owner, widget, order, act } = await salesWorld(api);
    const so = await order('sales_order', [{ product_id: widget.id, quantity: 2 }]);
    expect(so).toMatchObject({ order_status: 'draft', balance_due: 0, order_total: 20 });
    const confirmed = await act(so.id, 'confirm');
    expect(confirmed).toMatchObject({ order_status: 'confirmed', balance_due: 20, journal_entry_id: null });
    const held = await act(so.id, 'hold', { hold_type: 'credit', reason: 'Over limit' });
    expect(held).toMatchObject({ order_status: 'on_hold', is_on_hold: true, hold_type: 'credit', hold_reason: 'Over limit' });
    const released = await act(so.id, 'release');
    expect(released).toMatchObject({ order_status: 'confirmed', is_on_hold: false, hold_type: null, hold_reason: null });
    const cancelled = await act(so.id, 'cancel');
    expect(cancelled).toMatchObject({ order_status: 'cancelled', balance_due: 0, amount_due: 20 });
    expect(await eventTypesOf(owner, so.id)).toEqual(expect.arrayContaining(['order.confirmed', 'order.held', 'order.released', 'order.cancelled']));
  });

  it('refuses moves the state machine does not allow with 409 order_invalid_transition, writing nothing', async () => {
    const { owner, widget, order, act } = await salesWorld(api);
    const so = await order('sales_order', [{ product_id: widget.id, quantity: 1 }]);
    let body = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/release`, undefined, 409, 'order_invalid_transition', 'id');
    expect(body).toMatchObject({ current_status: 'draft', reason: 'not_allowed' });
    body = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/hold`, { hold_type: 'credit' }, 409, 'order_invalid_transition');
    expect(body.current_status).toBe('draft');
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/void`, undefined, 409, 'order_invalid_transition');
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/convert`, undefined, 409, 'order_invalid_transition');
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${so.id}/fulfillments`,
      { lines: [{ line_id: so.lines[0].id, quantity: 1 }] },
      409,
      'order_invalid_transition',
    );
    await act(so.id, 'confirm');
    body = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/confirm`, undefined, 409, 'order_invalid_transition');
    expect(body.current_status).toBe('confirmed');
    await act(so.id, 'cancel');
    body = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/cancel`, undefined, 409, 'order_invalid_transition');
    expect(body.current_status).toBe('cancelled');
    // Payments block cancelling.
    const paid = await order('sales_order', [{ product_id: widget.id, quantity: 1 }]);
    await act(paid.id, 'confirm');
    await act(paid.id, 'payments', { amount: 5 });
    body = await api.expectRefusal(owner, 'POST', `/v1/orders/${paid.id}/cancel`, undefined, 409, 'order_invalid_transition');
    expect(body.reason).toBe('has_payments');
  });

  it("answers 404 for another entity's order and 400 for a hold without hold_type", async () => {
    const { owner, widget, order, act } = await salesWorld(api);
    const other = await api.newEntity();
    const so = await order('sales_order', [{ product_id: widget.id, quantity: 1 }]);
    const response = await api.request('POST', `/v1/orders/${so.id}/confirm`, { key: other.secret });
    expect(response.status).toBe(404);
    await act(so.id, 'confirm');
    const missing = await api.request('POST', `/v1/orders/${so.id}/hold`, { key: owner.secret, body: unchecked({}) });
    expect(missing.status).toBe(400);
    expect(missing.error.param).toBe('hold_type');
  });
});

describe('invoices', () => {
  it('posts AR on confirm (revenue incl. shipping and fees, tax apart) and reverses it on void', async () => {
    const { owner, widget, gadget, order, act } = await salesWorld(api);
    const taxRateId = (await api.post(owner, '/v1/tax-rates', { name: 'State', rate: 10 })).id;
    const invoice = await order(
      'invoice',
      [
        { product_id: widget.id, quantity: 3, tax_rate_id: taxRateId },
        { product_id: gadget.id, quantity: 1 },
      ],
      {
        shipping_total: 7,
      },
    );
    await api.post(owner, `/v1/orders/${invoice.id}/adjustments`, { name: 'Handling', effect_type: 'fee', discount_type: 'fixed_amount', value: 2 }, 200);
    const posted = await act(invoice.id, 'confirm');
    // subtotal 35, tax 3, shipping 7, fee 2: total 47.
    expect(posted).toMatchObject({
      order_status: 'confirmed',
      subtotal: 35,
      tax_total: 3,
      order_total: 47,
      balance_due: 47,
      invoice_number: invoice.order_number,
    });
    const { entry, lines } = await entryLines(api, owner, posted.journal_entry_id);
    expect(entry).toMatchObject({ source_type: 'invoice', source_id: invoice.id, status: 'posted' });
    expect(lines).toEqual(
      expect.arrayContaining([
        { key: 'accounts_receivable', debit: 47, credit: 0 },
        { key: 'sales_revenue', debit: 0, credit: 44 },
        { key: 'sales_tax_payable', debit: 0, credit: 3 },
      ]),
    );
    // A posted invoice is cancelled by voiding it.
    expect((await api.expectRefusal(owner, 'POST', `/v1/orders/${invoice.id}/cancel`, undefined, 409, 'order_invalid_transition')).current_status).toBe(
      'confirmed',
    );
    const voided = await act(invoice.id, 'void');
    expect(voided).toMatchObject({ order_status: 'voided', balance_due: 0 });
    const reversed = await api.get(owner, `/v1/journal-entries/${posted.journal_entry_id}`);
    expect(reversed.status).toBe('reversed');
    expect(await eventTypesOf(owner, invoice.id)).toEqual(expect.arrayContaining(['order.confirmed', 'order.voided']));
    await api.expectRefusal(owner, 'POST', `/v1/orders/${invoice.id}/void`, undefined, 409, 'order_invalid_transition');
  });

  it('refuses a confirm whose period is closed, writing nothing', async () => {
    const { owner, widget, order } = await salesWorld(api);
    const invoice = await order('invoice', [{ product_id: widget.id, quantity: 1 }], { order_date: '2020-01-15T00:00:00Z' });
    await closedPeriod(api, owner, { period_name: 'Jan 2020', start_date: '2020-01-01', end_date: '2020-01-31' });
    await api.expectRefusal(owner, 'POST', `/v1/orders/${invoice.id}/confirm`, undefined, 422, 'period_closed', 'order_date');
  });
});

describe('convert', () => {
  it('turns a quote into a draft sales order once, then invoices the unbilled quantities', async () => {
    const { owner, widget, gadget, order, receive, act } = await salesWorld(api);
    await receive(widget.id, 10, 4);
    const quote = await order(
      'quote',
      [
        { product_id: widget.id, quantity: 4 },
        { product_id: gadget.id, quantity: 2 },
      ],
      { shipping_total: 5 },
    );
    const so = await act(quote.id, 'convert', undefined, 201);
    expect(so).toMatchObject({ document_type: 'sales_order', order_status: 'draft', converted_from_id: quote.id, shipping_total: 5, order_total: 55 });
    expect(so.order_number).toMatch(/^SO-/);
    expect(so.lines.map((l) => l.quantity)).toEqual([4, 2]);
    expect((await api.expectRefusal(owner, 'POST', `/v1/orders/${quote.id}/convert`, undefined, 409, 'order_invalid_transition')).reason).toBe(
      'already_converted',
    );
    expect(await eventTypesOf(owner, so.id)).toEqual(expect.arrayContaining(['order.created', 'order.converted']));

    await act(so.id, 'confirm');
    const widgetLine = so.lines.find((l) => l.product_id === widget.id)!;
    await act(so.id, 'fulfillments', { lines: [{ line_id: widgetLine.id, quantity: 3 }] });
    const first = await act(so.id, 'convert', undefined, 201);
    expect(first).toMatchObject({ document_type: 'invoice', converted_from_id: so.id, shipping_total: 5, invoice_number: first.order_number });
    expect(first.lines.map((l) => [l.quantity, l.quantity_fulfilled])).toEqual([
      [4, 3],
      [2, 0],
    ]);
    // Only part billed: void restores what is unbilled. Here invoice, void, invoice again.
    await act(first.id, 'confirm');
    expect((await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/convert`, undefined, 409, 'order_invalid_transition')).reason).toBe('nothing_to_bill');
    // An invoice billing a sales order ships nothing itself.
    const refused = await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${first.id}/fulfillments`,
      { lines: [{ line_id: first.lines[0].id, quantity: 1 }] },
      409,
      'order_invalid_transition',
    );
    expect(refused.reason).toBe('fulfilled_on_source');
    await act(first.id, 'void');
    const again = await act(so.id, 'convert', undefined, 201);
    expect(again.lines.map((l) => l.quantity)).toEqual([4, 2]);
    // A sales order with a live invoice is not cancelled.
    expect((await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/cancel`, undefined, 409, 'order_invalid_transition')).reason).toBe('has_fulfillments');
  });

  it('invoices the rest after a partial invoice; shipping and fixed adjustments go on the first invoice only', async () => {
    const { owner, widget, order, act } = await salesWorld(api);
    const so = await order('sales_order', [{ product_id: widget.id, quantity: 5 }], { shipping_total: 3 });
    await api.post(owner, `/v1/orders/${so.id}/adjustments`, { name: 'Fee', effect_type: 'fee', discount_type: 'fixed_amount', value: 1 }, 200);
    await act(so.id, 'confirm');
    const first = await act(so.id, 'convert', undefined, 201);
    // Bill 2 of the 5 on the first invoice (edit it while a draft).
    await api.request('PATCH', `/v1/orders/${first.id}/items/${first.lines[0].id}`, { key: owner.secret, body: { quantity: 2 } });
    const second = await act(so.id, 'convert', undefined, 201);
    expect(second).toMatchObject({ shipping_total: 0, fee_total: 0, subtotal: 30 });
    expect(second.lines[0]).toMatchObject({ quantity: 3 });
    expect(second.lines[0].product_id).toBe(widget.id);
  });
});

describe('fulfillment', () => {
  it('draws stock FIFO as sale_fulfillment, posts COGS, moves the statuses, and refuses over-fulfilment', async () => {
    const { owner, widget, gadget, location, order, receive, act } = await salesWorld(api);
    await receive(widget.id, 2, 3);
    await receive(widget.id, 5, 4);
    const so = await order('sales_order', [
      { product_id: widget.id, quantity: 4 },
      { product_id: gadget.id, quantity: 1 },
    ]);
    await act(so.id, 'confirm');
    const [w, g] = so.lines;
    const over = await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${so.id}/fulfillments`,
      { lines: [{ line_id: w.id, quantity: 5 }] },
      422,
      'order_over_fulfillment',
      'lines[0].quantity',
    );
    expect(over.remaining).toBe(4);
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${so.id}/fulfillments`,
      { lines: [{ line_id: g.id, quantity: 1 }] },
      422,
      'insufficient_stock',
      'lines[0].quantity',
    );
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${so.id}/fulfillments`,
      { lines: [{ line_id: newId(), quantity: 1 }] },
      404,
      'not_found',
      'lines[0].line_id',
    );

    const partial = await act(so.id, 'fulfillments', { lines: [{ line_id: w.id, quantity: 3 }] });
    expect(partial).toMatchObject({
      object: 'order_fulfillment',
      order_id: so.id,
      order_status: 'partially_fulfilled',
      fulfillment_status: 'partially_fulfilled',
      previous_order_status: 'confirmed',
      location_id: location.id,
      lines: [{ line_id: w.id, product_id: widget.id, kit_parent_line_id: null, quantity: 3, quantity_fulfilled: 3 }],
      cost_total: 10,
    });
    const after = await api.get(owner, `/v1/orders/${so.id}`);
    expect(after).toMatchObject({ order_status: 'partially_fulfilled', fulfillment_status: 'partially_fulfilled', balance_due: 45 });
    expect(after.lines[0].quantity_fulfilled).toBe(3);
    const txns = (await api.get(owner, '/v1/inventory/transactions', { reference_id: so.id })).data;
    expect(txns).toHaveLength(1);
    expect(partial.inventory_transaction_ids).toEqual([txns[0].id]);
    expect(txns[0].group_id).toBe(partial.id);
    // FIFO: 2 × 3 + 1 × 4 = 10.
    expect(txns[0]).toMatchObject({ transaction_type: 'sale_fulfillment', quantity: -3, total_cost: -10, reference_type: 'order', location_id: location.id });
    const cogs = await owner.sql((db) =>
      db.query<{ id: string }>(`SELECT id FROM journal_entries WHERE source_type = 'order_fulfillment' AND source_id = $1`, [so.id]),
    );
    expect(cogs).toHaveLength(1);
    expect(partial.journal_entry_id).toBe(cogs[0].id);
    expect((await entryLines(api, owner, cogs[0].id)).lines).toEqual(
      expect.arrayContaining([
        { key: 'cost_of_goods_sold', debit: 10, credit: 0 },
        { key: 'inventory', debit: 0, credit: 10 },
      ]),
    );
    // A held order ships nothing; released it resumes as partially fulfilled.
    await act(so.id, 'hold', { hold_type: 'credit' });
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/fulfillments`, { lines: [{ line_id: w.id, quantity: 1 }] }, 409, 'order_invalid_transition');
    expect((await act(so.id, 'release')).order_status).toBe('partially_fulfilled');
    expect((await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/cancel`, undefined, 409, 'order_invalid_transition')).reason).toBe('has_fulfillments');
    await receive(gadget.id, 1, 1);
    const done = await act(so.id, 'fulfillments', {
      lines: [
        { line_id: w.id, quantity: 1 },
        { line_id: g.id, quantity: 1 },
      ],
    });
    expect(done).toMatchObject({ order_status: 'fulfilled', fulfillment_status: 'fulfilled' });
    expect(await eventTypesOf(owner, so.id)).toContain('order.fulfilled');
  });

  it('ships a kit by drawing its components (never the kit), and refuses a component line named directly', async () => {
    const { owner, widget, gadget, order, receive, act } = await salesWorld(api);
    const kit = await api.post(owner, '/v1/kits', {
      sku: `KIT-${n++}`,
      product_name: 'Kit',
      components: [
        { component_product_id: widget.id, quantity_per_kit: 2 },
        { component_product_id: gadget.id, quantity_per_kit: 1 },
      ],
    });
    await receive(widget.id, 10, 1);
    await receive(gadget.id, 10, 2);
    const so = await order('sales_order', [{ product_id: kit.id, quantity: 3 }]);
    await act(so.id, 'confirm');
    const parent = so.lines.find((l) => l.kit_parent_line_id === null)!;
    const component = so.lines.find((l) => l.kit_parent_line_id !== null)!;
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/orders/${so.id}/fulfillments`,
      { lines: [{ line_id: component.id, quantity: 1 }] },
      400,
      'parameter_invalid',
      'lines[0].line_id',
    );
    const shipped = await act(so.id, 'fulfillments', { lines: [{ line_id: parent.id, quantity: 1 }] });
    const byProduct = Object.fromEntries(shipped.lines.map((l) => [l.product_id, l.quantity_fulfilled]));
    expect(byProduct).toEqual({ [kit.id]: 1, [widget.id]: 2, [gadget.id]: 1 });
    const txns = (await api.get(owner, '/v1/inventory/transactions', { reference_id: so.id })).data;
    expect(txns.map((t) => [t.product_id, t.quantity]).sort()).toEqual(
      [
        [gadget.id, -1],
        [widget.id, -2],
      ].sort(),
    );
  });
});

describe('committed stock and current_demand_units', () => {
  it('counts unshipped lines of confirmed, partially fulfilled and held sales orders at their location; kit components, not kits', async () => {
    const { owner, widget, gadget, location, account, order, receive, act } = await salesWorld(api);
    const kit = await api.post(owner, '/v1/kits', {
      sku: `KIT-${n++}`,
      product_name: 'Kit',
      components: [{ component_product_id: gadget.id, quantity_per_kit: 2 }],
    });
    await receive(widget.id, 20, 1);
    await receive(gadget.id, 20, 1);
    await receive(kit.id, 5, 1);
    const balances = async () => {
      const list = (await api.get(owner, '/v1/inventory/balances', { location_id: location.id })).data;
      return Object.fromEntries(list.map((b) => [b.product_id, [b.committed, b.available, b.current_demand_units]]));
    };
    const so = await order('sales_order', [
      { product_id: widget.id, quantity: 6 },
      { product_id: kit.id, quantity: 2 },
    ]);
    await order('quote', [{ product_id: widget.id, quantity: 100 }]);
    const vendor = await api.post(owner, '/v1/vendors', { name: 'V' });
    await api.post(owner, '/v1/orders', {
      document_type: 'purchase_order',
      account_id: vendor.id,
      location_id: location.id,
      lines: [{ product_id: widget.id, quantity: 7 }],
    });
    expect(await balances()).toEqual({ [widget.id]: [0, 20, 0], [gadget.id]: [0, 20, 0], [kit.id]: [0, 5, 0] });
    await act(so.id, 'confirm');
    expect(await balances()).toEqual({ [widget.id]: [6, 14, 6], [gadget.id]: [4, 16, 4], [kit.id]: [0, 5, 0] });
    await act(so.id, 'fulfillments', { lines: [{ line_id: so.lines[0].id, quantity: 2 }] });
    await act(so.id, 'hold', { hold_type: 'credit' });
    // on_hand 18, 4 still committed.
    expect((await balances())[widget.id]).toEqual([4, 14, 4]);
    const one = (await api.get(owner, '/v1/inventory/balances', { product_id: widget.id })).data[0];
    const single = await api.get(owner, `/v1/inventory/balances/${one.id}`);
    expect(single).toMatchObject({ committed: 4, available: 14, current_demand_units: 4 });
    await act(so.id, 'release');
    const other = await order('sales_order', [{ product_id: widget.id, quantity: 1 }], { account_id: account.id });
    await act(other.id, 'confirm');
    await act(other.id, 'cancel');
    expect((await balances())[widget.id]).toEqual([4, 14, 4]);
  });
});
