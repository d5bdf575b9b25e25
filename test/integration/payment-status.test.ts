/**
 * payment_status follows every change of totals and of payments (overpaid when amount_paid exceeds
 * order_total), and E2 adjustments are taken on every open order and refused on cancelled,
 * fulfilled and posted ones.
 */
import { describe, expect, it } from 'vitest';
import { expectArTies } from '../support/cash-fixtures';
import { setupTestApi } from '../support/harness';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

const discount = (value: number) => ({ name: 'Goodwill', effect_type: 'discount', discount_type: 'fixed_amount', value }) as const;
const fee = (value: number) => ({ name: 'Handling', effect_type: 'fee', discount_type: 'fixed_amount', value }) as const;

/** The payment figures of an order, as GET answers them. */
async function figures(w: SalesWorld, orderId: string) {
  const order = await w.getOrder(orderId);
  return {
    order_total: order.order_total,
    amount_paid: order.amount_paid,
    amount_due: order.amount_due,
    balance_due: order.balance_due,
    payment_status: order.payment_status,
  };
}

/** A confirmed sales order of 100 (10 widgets at 10). */
async function confirmedHundred(w: SalesWorld) {
  const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
  await w.act(order.id, 'confirm');
  return order;
}

const pay = (w: SalesWorld, orderId: string, amount: number, payment_method: 'check' | 'ach' = 'check') =>
  api.post(w.owner, `/v1/orders/${orderId}/payments`, { amount, payment_method }, 201);

describe('payment_status follows the totals', () => {
  it("the issue's case: a confirmed order of 100 paid 40 and discounted by 80 is overpaid with amount_due -20; raising the total brings it back to paid, then partially_paid", async () => {
    const w = await salesWorld(api, { location: false });
    const order = await confirmedHundred(w);
    await pay(w, order.id, 40);
    expect(await figures(w, order.id)).toEqual({ order_total: 100, amount_paid: 40, amount_due: 60, balance_due: 60, payment_status: 'partially_paid' });

    const adjustment = await w.act(order.id, 'adjustments', discount(80));
    expect(adjustment).toMatchObject({ amount: 80, order_total: 20 });
    // The spec: amount_due is status-blind and negative when overpaid; balance_due is not clamped on an open order.
    expect(await figures(w, order.id)).toEqual({ order_total: 20, amount_paid: 40, amount_due: -20, balance_due: -20, payment_status: 'overpaid' });
    const event = api.published.filter((e) => e.type === 'order.updated' && e.data.object.id === order.id).at(-1)!;
    expect(event.data.object).toMatchObject({ payment_status: 'overpaid', amount_due: -20 });
    expect(event.data.previous_attributes).toMatchObject({ payment_status: 'partially_paid', order_total: 100 });
    // An overpaid order takes no payment.
    const refused = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${order.id}/payments`, { amount: 1 }, 422, 'order_not_payable');
    expect(refused.payable_amount).toBe(0);
    // The list filter finds it by its new status.
    const listed = await api.get(w.owner, '/v1/orders', { document_type: 'sales_order', payment_status: 'overpaid' });
    expect(listed.data.map((o) => o.id)).toEqual([order.id]);

    await w.act(order.id, 'adjustments', fee(20));
    expect(await figures(w, order.id)).toEqual({ order_total: 40, amount_paid: 40, amount_due: 0, balance_due: 0, payment_status: 'paid' });

    await api.delete(w.owner, `/v1/orders/${order.id}/adjustments/${adjustment.id}`);
    expect(await figures(w, order.id)).toEqual({ order_total: 120, amount_paid: 40, amount_due: 80, balance_due: 80, payment_status: 'partially_paid' });
    await pay(w, order.id, 80);
    expect(await figures(w, order.id)).toEqual({ order_total: 120, amount_paid: 120, amount_due: 0, balance_due: 0, payment_status: 'paid' });
    await expectArTies(w.owner);
  });

  it('a line deletion below what was paid makes the order overpaid; a fee brings it back to paid, an override edit to partially_paid', async () => {
    const w = await salesWorld(api, { location: false });
    const order = await w.order('sales_order', [
      { product_id: w.widget.id, quantity: 6 },
      { product_id: w.gadget.id, quantity: 8 },
    ]);
    await w.act(order.id, 'confirm');
    await pay(w, order.id, 70);
    expect(await figures(w, order.id)).toMatchObject({ order_total: 100, payment_status: 'partially_paid' });

    await api.delete(w.owner, `/v1/orders/${order.id}/items/${order.lines[1].id}`);
    expect(await figures(w, order.id)).toEqual({ order_total: 60, amount_paid: 70, amount_due: -10, balance_due: -10, payment_status: 'overpaid' });
    // An overpaid document is closed to line edits like a paid one (override only).
    const locked = await api.expectRefusal(w.owner, 'PATCH', `/v1/orders/${order.id}/items/${order.lines[0].id}`, { quantity: 8 }, 409, 'order_locked');
    expect(locked).toMatchObject({ payment_status: 'overpaid', reason: 'document_paid', overridable: true });

    await w.act(order.id, 'adjustments', fee(10));
    expect(await figures(w, order.id)).toEqual({ order_total: 70, amount_paid: 70, amount_due: 0, balance_due: 0, payment_status: 'paid' });

    await api.patch(w.owner, `/v1/orders/${order.id}/items/${order.lines[0].id}`, { quantity: 8, override: true, override_reason: 'customer added two' });
    expect(await figures(w, order.id)).toEqual({ order_total: 90, amount_paid: 70, amount_due: 20, balance_due: 20, payment_status: 'partially_paid' });
  });

  it('an ACH payment that clears after the awaiting order was discounted makes it overpaid; refunding the excess leaves it partially_refunded with nothing due', async () => {
    const w = await salesWorld(api, { location: false });
    const order = await confirmedHundred(w);
    const payment = await pay(w, order.id, 100, 'ach');
    expect(await w.getOrder(order.id)).toMatchObject({ order_status: 'awaiting_ach_clearance', payment_status: 'unpaid' });

    await w.act(order.id, 'adjustments', discount(30));
    expect(await figures(w, order.id)).toEqual({ order_total: 70, amount_paid: 0, amount_due: 70, balance_due: 70, payment_status: 'unpaid' });

    await api.post(w.owner, `/v1/payments/${payment.id}/clear`, {}, 200);
    expect(await w.getOrder(order.id)).toMatchObject({
      order_status: 'confirmed',
      order_total: 70,
      amount_paid: 100,
      amount_due: -30,
      payment_status: 'overpaid',
    });

    await api.post(w.owner, `/v1/payments/${payment.id}/refunds`, { amount: 30 }, 201);
    expect(await figures(w, order.id)).toEqual({ order_total: 70, amount_paid: 70, amount_due: 0, balance_due: 0, payment_status: 'partially_refunded' });
    await expectArTies(w.owner);
  });

  it('voiding the payment of an overpaid order leaves it voided (payment_status moves: its payments voided, nothing paid)', async () => {
    const w = await salesWorld(api, { location: false });
    const order = await confirmedHundred(w);
    const payment = await pay(w, order.id, 100);
    await w.act(order.id, 'adjustments', discount(10));
    expect(await figures(w, order.id)).toMatchObject({ amount_due: -10, payment_status: 'overpaid' });
    await api.post(w.owner, `/v1/payments/${payment.id}/void`, {}, 200);
    expect(await figures(w, order.id)).toEqual({ order_total: 90, amount_paid: 0, amount_due: 90, balance_due: 90, payment_status: 'voided' });
  });

  it('payment_status voided is set when the document or its payments are voided; a later payment moves it by the amounts again', async () => {
    const w = await salesWorld(api, { location: false });
    // Its payments voided: a sales order still owes the whole total (balance_due is not forced to 0).
    const order = await confirmedHundred(w);
    const first = await pay(w, order.id, 30);
    const second = await pay(w, order.id, 20);
    await api.post(w.owner, `/v1/payments/${first.id}/void`, {}, 200);
    expect(await figures(w, order.id)).toEqual({ order_total: 100, amount_paid: 20, amount_due: 80, balance_due: 80, payment_status: 'partially_paid' });
    await api.post(w.owner, `/v1/payments/${second.id}/void`, {}, 200);
    expect(await figures(w, order.id)).toEqual({ order_total: 100, amount_paid: 0, amount_due: 100, balance_due: 100, payment_status: 'voided' });
    expect(api.published.some((e) => e.type === 'payment.voided' && e.data.object.id === second.id)).toBe(true);
    // A header edit recalculates and keeps it; the list filter finds it. Its lines stay editable (the document is not voided).
    await api.patch(w.owner, `/v1/orders/${order.id}`, { notes: 'customer stopped the check' });
    const line = (await w.getOrder(order.id)).lines[0];
    expect(line.line_editability.qty).toMatchObject({ allowed: true, reason: null });
    await api.patch(w.owner, `/v1/orders/${order.id}/items/${line.id}`, { notes: 'reissue' });
    expect(await figures(w, order.id)).toMatchObject({ payment_status: 'voided' });
    const listed = await api.get(w.owner, '/v1/orders', { document_type: 'sales_order', payment_status: 'voided' });
    expect(listed.data.map((o) => o.id)).toEqual([order.id]);
    await pay(w, order.id, 100);
    expect(await figures(w, order.id)).toMatchObject({ amount_paid: 100, balance_due: 0, payment_status: 'paid' });

    // The document voided: a posted invoice is voided, its balance_due forced to 0.
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 2 }]);
    await w.act(invoice.id, 'confirm');
    const voided = await w.act(invoice.id, 'void');
    expect(voided).toMatchObject({ order_status: 'voided', payment_status: 'voided', balance_due: 0 });
    const voidEvent = api.published.filter((e) => e.type === 'order.voided' && e.data.object.id === invoice.id).at(-1);
    expect(voidEvent?.data.object).toMatchObject({ payment_status: 'voided' });
    expect(voidEvent?.data.previous_attributes).toMatchObject({ order_status: 'confirmed', payment_status: 'unpaid' });
    await expectArTies(w.owner);
  });

  it('a header edit of a posted credit memo keeps its balance_due (its unapplied credit)', async () => {
    const w = await salesWorld(api, { location: false });
    const memo = await w.order('return', [{ product_id: w.widget.id, quantity: 2 }]);
    await w.act(memo.id, 'confirm');
    expect(await figures(w, memo.id)).toMatchObject({ order_total: 20, balance_due: -20, payment_status: 'unpaid' });
    await api.patch(w.owner, `/v1/orders/${memo.id}`, { notes: 'called the customer' });
    expect(await figures(w, memo.id)).toMatchObject({ order_total: 20, balance_due: -20, payment_status: 'unpaid' });
    await expectArTies(w.owner);
  });

  it('a header edit of an invoice a credit memo was applied to keeps its balance_due net of the credit, so AR still ties', async () => {
    const w = await salesWorld(api, { widgetStock: 10 });
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 5 }]);
    await w.act(invoice.id, 'confirm');
    await w.act(invoice.id, 'fulfillments', { lines: [{ line_id: invoice.lines[0].id, quantity: 5 }] });
    await pay(w, invoice.id, 10);
    const rma = await w.act(invoice.id, 'returns', { lines: [{ line_id: invoice.lines[0].id, quantity: 2 }] });
    await w.act(rma.id, 'confirm');
    const credited = { order_total: 50, amount_paid: 10, amount_due: 40, balance_due: 20, payment_status: 'partially_paid' };
    expect(await figures(w, invoice.id)).toEqual(credited);
    await api.patch(w.owner, `/v1/orders/${invoice.id}`, { internal_notes: 'credit issued' });
    expect(await figures(w, invoice.id)).toEqual(credited);
    await expectArTies(w.owner);
  });
});

describe('E2 on every open order', () => {
  it('takes adjustments on draft, confirmed, partially fulfilled, on-hold, awaiting-ACH and paid orders, totals and payment_status following', async () => {
    const w = await salesWorld(api, { widgetStock: 20 });
    const draft = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    const confirmed = await confirmedHundred(w);
    const partial = await confirmedHundred(w);
    await w.act(partial.id, 'fulfillments', { lines: [{ line_id: partial.lines[0].id, quantity: 4 }] });
    const held = await confirmedHundred(w);
    await w.act(held.id, 'hold', { hold_type: 'credit' });
    const heldAfterShipping = await confirmedHundred(w);
    await w.act(heldAfterShipping.id, 'fulfillments', { lines: [{ line_id: heldAfterShipping.lines[0].id, quantity: 1 }] });
    await w.act(heldAfterShipping.id, 'hold', { hold_type: 'credit' });
    const awaiting = await confirmedHundred(w);
    await pay(w, awaiting.id, 50, 'ach');
    const paid = await confirmedHundred(w);
    await pay(w, paid.id, 100);
    const cases = [
      [draft, 'draft', 'unpaid'],
      [confirmed, 'confirmed', 'unpaid'],
      [partial, 'partially_fulfilled', 'unpaid'],
      [held, 'on_hold', 'unpaid'],
      [heldAfterShipping, 'on_hold', 'unpaid'],
      [awaiting, 'awaiting_ach_clearance', 'unpaid'],
      [paid, 'confirmed', 'overpaid'],
    ] as const;
    for (const [order, status, paymentStatus] of cases) {
      expect((await w.getOrder(order.id)).order_status).toBe(status);
      const adjustment = await w.act(order.id, 'adjustments', discount(15));
      expect(adjustment, status).toMatchObject({ amount: 15, order_total: 85, discount_total: 15 });
      expect(await w.getOrder(order.id), status).toMatchObject({ order_status: status, order_total: 85, payment_status: paymentStatus });
    }
    // Removing one follows the same rule.
    const partialAdjustments = (await w.getOrder(partial.id)).adjustments;
    await api.delete(w.owner, `/v1/orders/${partial.id}/adjustments/${partialAdjustments[0].id}`);
    expect(await w.getOrder(partial.id)).toMatchObject({ order_status: 'partially_fulfilled', order_total: 100 });
  });

  it('refuses cancelled, fulfilled (also while it awaits ACH clearance), voided and posted documents with 422 order_not_adjustable, writing nothing', async () => {
    const w = await salesWorld(api, { widgetStock: 20 });
    const cancelled = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 1 }]);
    await w.act(cancelled.id, 'cancel');
    const fulfilled = await confirmedHundred(w);
    await w.act(fulfilled.id, 'fulfillments', { lines: [{ line_id: fulfilled.lines[0].id, quantity: 10 }] });
    const fulfilledAwaiting = await confirmedHundred(w);
    await w.act(fulfilledAwaiting.id, 'fulfillments', { lines: [{ line_id: fulfilledAwaiting.lines[0].id, quantity: 10 }] });
    await pay(w, fulfilledAwaiting.id, 100, 'ach');
    const posted = await w.order('invoice', [{ product_id: w.gadget.id, quantity: 2 }]);
    await w.act(posted.id, 'confirm');
    const voided = await w.order('invoice', [{ product_id: w.gadget.id, quantity: 2 }]);
    await w.act(voided.id, 'confirm');
    await w.act(voided.id, 'void');
    const creditMemo = await w.order('return', [{ product_id: w.gadget.id, quantity: 1 }]);
    await w.act(creditMemo.id, 'confirm');
    const cases = [
      [cancelled, 'cancelled', 'document_cancelled'],
      [fulfilled, 'fulfilled', 'document_fulfilled'],
      [fulfilledAwaiting, 'awaiting_ach_clearance', 'document_fulfilled'],
      [posted, 'confirmed', 'document_posted'],
      [voided, 'voided', 'document_voided'],
      [creditMemo, 'confirmed', 'document_posted'],
    ] as const;
    for (const [order, status, reason] of cases) {
      const before = await w.getOrder(order.id);
      const error = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${order.id}/adjustments`, discount(1), 422, 'order_not_adjustable', 'id');
      expect(error, status).toMatchObject({ current_status: status, document_type: order.document_type, reason });
      expect(await w.getOrder(order.id)).toEqual(before);
    }
  });
});
