/** Returns (issue 5): create from a source, confirm (credit memo), receive (restock at FIFO cost), AR invariant. */
import { describe, expect, it } from 'vitest';
import { amount } from '../../shared/money';
import { setupTestApi, type TestEntity } from '../support/harness';
import { expectArTies, glBalance } from '../support/cash-fixtures';
import { entryLines } from '../support/ledger-helpers';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();
let n = 0;

/** A confirmed sales order of `quantity` widgets with `shipped` of them shipped. */
async function shippedSalesOrder(w: SalesWorld, quantity: number, shipped: number) {
  const so = await w.order('sales_order', [{ product_id: w.widget.id, quantity }]);
  await w.act(so.id, 'confirm');
  await w.act(so.id, 'fulfillments', { lines: [{ line_id: so.lines[0].id, quantity: shipped }] });
  return w.getOrder(so.id);
}

/** A posted, fully shipped direct invoice of `quantity` widgets. */
async function shippedInvoice(w: SalesWorld, quantity: number) {
  const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity }]);
  await w.act(invoice.id, 'confirm');
  await w.act(invoice.id, 'fulfillments', { lines: [{ line_id: invoice.lines[0].id, quantity }] });
  return w.getOrder(invoice.id);
}

async function onHand(owner: TestEntity, productId: string): Promise<string> {
  const row = await owner.sql((db) =>
    db.maybeOne<{ on_hand: string }>('SELECT on_hand FROM inventory_balances WHERE entity_id = $1 AND product_id = $2', [owner.entity.id, productId]),
  );
  return amount(row?.on_hand ?? 0).toString();
}

describe('returns from a sales order (goods only)', () => {
  it('returns part of a shipment, restocks it at the FIFO cost it left at and puts COGS back; invoicing later bills the rest', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 2, 3);
    await w.receive(w.widget.id, 5, 5);
    const so = await shippedSalesOrder(w, 5, 4); // draws 2 @ 3 and 2 @ 5: COGS 16
    expect(await onHand(w.owner, w.widget.id)).toBe('3');
    const rma = await w.act(so.id, 'returns', { lines: [{ line_id: so.lines[0].id, quantity: 3, reason: 'Wrong size' }] });
    expect(rma).toMatchObject({ document_type: 'return', order_status: 'draft', source_order_id: so.id, order_total: 30, balance_due: 0 });
    expect(rma.order_number).toMatch(/^RMA-\d{6}$/);
    expect(rma.lines[0]).toMatchObject({ quantity: 3, sell_rate: 10, quantity_fulfilled: 0 });

    const confirmed = await w.act(rma.id, 'confirm');
    expect(confirmed).toMatchObject({ order_status: 'confirmed', balance_due: 0, journal_entry_id: null, amount_credited: 0 });

    const receipt = await w.act(rma.id, 'receive-return', { lines: [{ line_id: rma.lines[0].id, quantity: 2 }] });
    // First shipped, first back: the two units at 3.
    expect(receipt).toMatchObject({
      object: 'order_return_receipt',
      order_status: 'partially_fulfilled',
      fulfillment_status: 'partially_fulfilled',
      cost_total: 6,
    });
    expect(await onHand(w.owner, w.widget.id)).toBe('5');
    const { entry, lines } = await entryLines(api, w.owner, receipt.journal_entry_id);
    expect(entry).toMatchObject({ source_type: 'order_return', source_id: rma.id, status: 'posted' });
    expect(lines).toEqual(
      expect.arrayContaining([
        { key: 'inventory', debit: 6, credit: 0 },
        { key: 'cost_of_goods_sold', debit: 0, credit: 6 },
      ]),
    );
    const rest = await w.act(rma.id, 'receive-return');
    expect(rest).toMatchObject({ order_status: 'fulfilled', fulfillment_status: 'fulfilled', cost_total: 5 });
    expect(await glBalance(w.owner, 'cost_of_goods_sold')).toBe('5'); // 16 shipped − 11 back
    // The inventory account: 31 received, −16 shipped, +11 back.
    expect(await glBalance(w.owner, 'inventory')).toBe('26');
    const layers = await w.owner.sql((db) =>
      db.query<{ unit_cost: string; remaining_quantity: string }>(
        `SELECT unit_cost, remaining_quantity FROM inventory_cost_layers WHERE entity_id = $1 AND product_id = $2 AND remaining_quantity > 0 ORDER BY received_at, id`,
        [w.owner.entity.id, w.widget.id],
      ),
    );
    expect(layers.map((l) => `${amount(l.remaining_quantity).toString()}@${amount(l.unit_cost).toString()}`).sort()).toEqual(['1@5', '2@3', '3@5']);
    const source = await w.getOrder(so.id);
    expect(source.lines[0]).toMatchObject({ quantity_fulfilled: 4, quantity_returned: 3 });
    await expectArTies(w.owner);

    // Invoicing the sales order bills what shipped and stayed, plus what has not shipped: 5 − 3 returned.
    const invoice = await w.act(so.id, 'convert');
    expect(invoice.lines[0]).toMatchObject({ quantity: 2, quantity_fulfilled: 1 });
    // Units billed are returned against the invoice, not the sales order.
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${so.id}/returns`,
      { lines: [{ line_id: so.lines[0].id, quantity: 1 }] },
      422,
      'return_quantity_exceeded',
      'lines[0].quantity',
    );
  });

  it('a damaged line (restock false) moves no stock and leaves its cost in COGS', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 5, 4);
    const so = await shippedSalesOrder(w, 3, 3);
    const rma = await w.act(so.id, 'returns', { lines: [{ line_id: so.lines[0].id, quantity: 2, restock: false, reason: 'Broken' }] });
    await w.act(rma.id, 'confirm');
    const receipt = await w.act(rma.id, 'receive-return');
    expect(receipt).toMatchObject({ inventory_transaction_ids: [], cost_total: 0, journal_entry_id: null, order_status: 'fulfilled' });
    expect(receipt.lines[0]).toMatchObject({ restocked: false, cost: 0, quantity: 2 });
    expect(await onHand(w.owner, w.widget.id)).toBe('2');
    expect(await glBalance(w.owner, 'cost_of_goods_sold')).toBe('12');
    expect((await w.getOrder(so.id)).lines[0].quantity_returned).toBe(2);
  });

  it('returns a kit: its components come back at their own costs', async () => {
    const w = await salesWorld(api);
    const kit = await api.post(w.owner, '/v1/kits', {
      sku: `KIT-${n++}`,
      product_name: 'Kit',
      components: [
        { component_product_id: w.widget.id, quantity_per_kit: 2 },
        { component_product_id: w.gadget.id, quantity_per_kit: 1 },
      ],
    });
    await w.receive(w.widget.id, 10, 1);
    await w.receive(w.gadget.id, 10, 2);
    const so = await w.order('sales_order', [{ product_id: kit.id, quantity: 3 }]);
    await w.act(so.id, 'confirm');
    const parent = so.lines.find((l) => l.kit_parent_line_id === null)!;
    const component = so.lines.find((l) => l.kit_parent_line_id !== null)!;
    await w.act(so.id, 'fulfillments', { lines: [{ line_id: parent.id, quantity: 3 }] });
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${so.id}/returns`,
      { lines: [{ line_id: component.id, quantity: 1 }] },
      400,
      'parameter_invalid',
      'lines[0].line_id',
    );
    const rma = await w.act(so.id, 'returns', { lines: [{ line_id: parent.id, quantity: 1 }] });
    expect(rma.lines).toHaveLength(3);
    await w.act(rma.id, 'confirm');
    const receipt = await w.act(rma.id, 'receive-return');
    expect(receipt.cost_total).toBe(4); // 2 widgets @ 1 + 1 gadget @ 2
    expect(await onHand(w.owner, w.widget.id)).toBe('6');
    expect(await onHand(w.owner, w.gadget.id)).toBe('8');
    expect(await onHand(w.owner, kit.id)).toBe('0');
    const source = await w.getOrder(so.id);
    expect(source.lines.find((l) => l.id === parent.id)!.quantity_returned).toBe(1);
  });
});

describe('returns from an invoice (credit memos)', () => {
  it('credits an open invoice: debit revenue and tax, credit AR, applied to its balance_due; AR ties after every step', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const invoice = await shippedInvoice(w, 5);
    expect(invoice).toMatchObject({ order_total: 50, balance_due: 50 });
    await expectArTies(w.owner);
    await w.act(invoice.id, 'payments', { amount: 10 });
    await expectArTies(w.owner);
    const rma = await w.act(invoice.id, 'returns', { lines: [{ line_id: invoice.lines[0].id, quantity: 2 }] });
    expect(rma).toMatchObject({ order_total: 20, balance_due: 0, source_order_id: invoice.id });
    const confirmed = await w.act(rma.id, 'confirm');
    expect(confirmed).toMatchObject({ order_status: 'confirmed', amount_credited: 20, balance_due: 0 });
    const { entry, lines } = await entryLines(api, w.owner, confirmed.journal_entry_id);
    expect(entry).toMatchObject({ source_type: 'credit_memo', source_id: rma.id, status: 'posted' });
    expect(lines).toEqual(
      expect.arrayContaining([
        { key: 'sales_revenue', debit: 20, credit: 0 },
        { key: 'accounts_receivable', debit: 0, credit: 20 },
      ]),
    );
    const credited = await w.getOrder(invoice.id);
    expect(credited).toMatchObject({ amount_credited: 20, amount_paid: 10, balance_due: 20, amount_due: 40, payment_status: 'partially_paid' });
    await expectArTies(w.owner);
    // The credit lowers what the invoice accepts.
    const over = await api.request('POST', `/v1/orders/${invoice.id}/payments`, { key: w.owner.secret, body: { amount: 25 } });
    expect(over.status).toBe(422);
    expect(over.error).toMatchObject({ code: 'order_not_payable', payable_amount: 20 });
    await w.act(invoice.id, 'payments', { amount: 20 });
    expect(await w.getOrder(invoice.id)).toMatchObject({ balance_due: 0 });
    await expectArTies(w.owner);
    // A posted credit memo is not cancelled.
    let body = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${rma.id}/cancel`, undefined, 409, 'order_invalid_transition', 'id');
    expect(body.reason).toBe('has_credits');
    // Receiving restocks at the cost the units left at.
    const receipt = await w.act(rma.id, 'receive-return');
    expect(receipt).toMatchObject({ cost_total: 8, order_status: 'fulfilled' });
    expect(await onHand(w.owner, w.widget.id)).toBe('7');
    expect((await w.getOrder(invoice.id)).lines[0].quantity_returned).toBe(2);
    await expectArTies(w.owner);
    // A credited invoice is not voided.
    body = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${invoice.id}/void`, undefined, 409, 'order_invalid_transition', 'id');
    expect(body.reason).toBe('has_payments');
  });

  it('a return of a paid invoice leaves customer credit: the return carries it as a negative balance_due', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const taxRateId = (await api.post(w.owner, '/v1/tax-rates', { name: 'State', rate: 10 })).id;
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 4, tax_rate_id: taxRateId }]);
    await api.post(w.owner, `/v1/orders/${invoice.id}/adjustments`, { name: 'Promo', effect_type: 'discount', discount_type: 'percentage', value: 10 }, 200);
    const posted = await w.act(invoice.id, 'confirm');
    expect(posted).toMatchObject({ subtotal: 40, discount_total: 4, tax_total: 3.6, order_total: 39.6 });
    await w.act(invoice.id, 'fulfillments', { lines: [{ line_id: invoice.lines[0].id, quantity: 4 }] });
    await w.act(invoice.id, 'payments', { amount: 39.6 });
    // Full return: the credit is what the customer paid (net of the discount, with its tax).
    const rma = await w.act(invoice.id, 'returns', { lines: [{ line_id: invoice.lines[0].id, quantity: 4 }] });
    expect(rma).toMatchObject({ subtotal: 40, discount_total: 4, tax_total: 3.6, order_total: 39.6 });
    const confirmed = await w.act(rma.id, 'confirm');
    expect(confirmed).toMatchObject({ amount_credited: 0, balance_due: -39.6 });
    const { lines } = await entryLines(api, w.owner, confirmed.journal_entry_id);
    expect(lines).toEqual(
      expect.arrayContaining([
        { key: 'sales_revenue', debit: 36, credit: 0 },
        { key: 'sales_tax_payable', debit: 3.6, credit: 0 },
        // Nothing is owed on the paid invoice: the whole credit is customer credit, a liability.
        { key: 'customer_credits', debit: 0, credit: 39.6 },
      ]),
    );
    expect(await glBalance(w.owner, 'accounts_receivable')).toBe('0');
    expect(await glBalance(w.owner, 'customer_credits')).toBe('-39.6');
    await expectArTies(w.owner);
    await w.act(rma.id, 'receive-return');
    expect(await onHand(w.owner, w.widget.id)).toBe('10');
    expect(await glBalance(w.owner, 'cost_of_goods_sold')).toBe('0');
    // Nothing is left to return.
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${invoice.id}/returns`,
      { lines: [{ line_id: invoice.lines[0].id, quantity: 1 }] },
      422,
      'return_quantity_exceeded',
      'lines[0].quantity',
    );
  });

  it('an invoice billing a sales order: returns restock from the sales order shipment and share its returnable units', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const so = await shippedSalesOrder(w, 4, 4);
    const invoice = await w.act(so.id, 'convert');
    await w.act(invoice.id, 'confirm');
    const rma = await w.act(invoice.id, 'returns', { lines: [{ line_id: invoice.lines[0].id, quantity: 3 }] });
    await w.act(rma.id, 'confirm');
    const receipt = await w.act(rma.id, 'receive-return');
    expect(receipt.cost_total).toBe(12);
    expect(await onHand(w.owner, w.widget.id)).toBe('9');
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${invoice.id}/returns`,
      { lines: [{ line_id: invoice.lines[0].id, quantity: 2 }] },
      422,
      'return_quantity_exceeded',
      'lines[0].quantity',
    );
    // Billed units never go back through the sales order.
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${so.id}/returns`,
      { lines: [{ line_id: so.lines[0].id, quantity: 1 }] },
      422,
      'return_quantity_exceeded',
      'lines[0].quantity',
    );
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_credited: 30, balance_due: 10 });
    await expectArTies(w.owner);
  });
});

describe('plain returns', () => {
  it('a return created directly is a credit memo without a source: customer credit, restocked at the product cost', async () => {
    const w = await salesWorld(api);
    const rma = await w.order('return', [{ product_id: w.widget.id, quantity: 2 }]);
    const confirmed = await w.act(rma.id, 'confirm');
    expect(confirmed).toMatchObject({ order_total: 20, balance_due: -20, source_order_id: null });
    await expectArTies(w.owner);
    const receipt = await w.act(rma.id, 'receive-return');
    expect(receipt).toMatchObject({ cost_total: 8 }); // product cost 4
    expect(await onHand(w.owner, w.widget.id)).toBe('2');
  });
});

describe('refusals', () => {
  it('refuses bad returns with the precise code and param, writing nothing', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const so = await shippedSalesOrder(w, 5, 2);
    const line = so.lines[0].id;
    const path = `/v1/orders/${so.id}/returns` as const;
    let body = await api.expectRefusal(
      w.owner,
      'POST',
      path,
      { lines: [{ line_id: line, quantity: 3 }] },
      422,
      'return_quantity_exceeded',
      'lines[0].quantity',
    );
    expect(body).toMatchObject({ returnable: 2, line_id: line });
    await api.expectRefusal(w.owner, 'POST', path, { lines: [{ line_id: w.widget.id, quantity: 1 }] }, 404, 'not_found', 'lines[0].line_id');
    await api.expectRefusal(
      w.owner,
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
    await api.expectRefusal(w.owner, 'POST', path, { lines: [{ line_id: line, quantity: 0 }] }, 400, 'parameter_invalid', 'lines[0].quantity');
    await api.expectRefusal(w.owner, 'POST', path, { lines: [] }, 400, 'parameter_invalid', 'lines');
    await api.expectRefusal(w.owner, 'POST', path, { lines: [{ line_id: line, quantity: 1 }], location_id: w.account.id }, 404, 'not_found', 'location_id');
    // Nothing shipped, or not posted: not returnable.
    const draft = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 1 }]);
    body = await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${draft.id}/returns`,
      { lines: [{ line_id: draft.lines[0].id, quantity: 1 }] },
      409,
      'order_invalid_transition',
      'id',
    );
    expect(body).toMatchObject({ current_status: 'draft', reason: 'not_returnable' });
    const draftInvoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 1 }]);
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${draftInvoice.id}/returns`,
      { lines: [{ line_id: draftInvoice.lines[0].id, quantity: 1 }] },
      409,
      'order_invalid_transition',
      'id',
    );
    // Another entity's order is 404.
    const stranger = await api.newEntity();
    await api.expectRefusal(stranger, 'POST', path, { lines: [{ line_id: line, quantity: 1 }] }, 404, 'not_found', 'id');
  });

  it('refuses receiving a draft, over-receiving, and receiving anything but a return', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const so = await shippedSalesOrder(w, 2, 2);
    const rma = await w.act(so.id, 'returns', { lines: [{ line_id: so.lines[0].id, quantity: 2 }] });
    let body = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${rma.id}/receive-return`, undefined, 409, 'order_invalid_transition', 'id');
    expect(body.current_status).toBe('draft');
    await w.act(rma.id, 'confirm');
    body = await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${rma.id}/receive-return`,
      { lines: [{ line_id: rma.lines[0].id, quantity: 3 }] },
      422,
      'order_over_fulfillment',
      'lines[0].quantity',
    );
    expect(body.remaining).toBe(2);
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/orders/${rma.id}/receive-return`,
      { lines: [{ line_id: so.lines[0].id, quantity: 1 }] },
      404,
      'not_found',
      'lines[0].line_id',
    );
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${so.id}/receive-return`, undefined, 409, 'order_invalid_transition', 'id');
    const stranger = await api.newEntity();
    await api.expectRefusal(stranger, 'POST', `/v1/orders/${rma.id}/receive-return`, undefined, 404, 'not_found', 'id');
    await w.act(rma.id, 'receive-return');
    body = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${rma.id}/receive-return`, undefined, 409, 'order_invalid_transition', 'id');
    expect(body.current_status).toBe('fulfilled');
    // A received return is not cancelled.
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${rma.id}/cancel`, undefined, 409, 'order_invalid_transition', 'id');
  });

  it('a draft return edited beyond what is returnable is refused at confirm; a cancelled return frees its units', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const so = await shippedSalesOrder(w, 3, 3);
    const first = await w.act(so.id, 'returns', { lines: [{ line_id: so.lines[0].id, quantity: 2 }] });
    const second = await w.act(so.id, 'returns', { lines: [{ line_id: so.lines[0].id, quantity: 1 }] });
    const edit = await api.request('PATCH', `/v1/orders/${second.id}/items/${second.lines[0].id}`, { key: w.owner.secret, body: { quantity: 2 } });
    expect(edit.status, edit.text).toBe(200);
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${second.id}/confirm`, undefined, 422, 'return_quantity_exceeded', 'lines[0].quantity');
    await w.act(first.id, 'cancel');
    await w.act(second.id, 'confirm');
  });
});

describe('concurrency', () => {
  it('two parallel returns of the same line never exceed what is returnable', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const so = await shippedSalesOrder(w, 5, 5);
    const body = { lines: [{ line_id: so.lines[0].id, quantity: 3 }] };
    const results = await Promise.all([1, 2, 3].map(() => api.request('POST', `/v1/orders/${so.id}/returns`, { key: w.owner.secret, body })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422, 422]);
    const returned = await w.owner.sql((db) =>
      db.one<{ total: string }>(`SELECT coalesce(sum(quantity), 0) AS total FROM order_lines WHERE entity_id = $1 AND source_line_id = $2`, [
        w.owner.entity.id,
        so.lines[0].id,
      ]),
    );
    expect(amount(returned.total).toString()).toBe('3');
  });
});

describe('credited invoices', () => {
  it('an unpaid invoice with a credit applied is not voided (has_credits)', async () => {
    const w = await salesWorld(api);
    await w.receive(w.widget.id, 10, 4);
    const invoice = await shippedInvoice(w, 2);
    const rma = await w.act(invoice.id, 'returns', { lines: [{ line_id: invoice.lines[0].id, quantity: 1, restock: false }] });
    await w.act(rma.id, 'confirm');
    const body = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${invoice.id}/void`, undefined, 409, 'order_invalid_transition', 'id');
    expect(body.reason).toBe('has_credits');
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_credited: 10, balance_due: 10, amount_due: 20 });
    await expectArTies(w.owner);
  });
});
