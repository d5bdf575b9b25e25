/**
 * Prepayments follow the invoice, and credit-memo credit beyond its invoice goes to another
 * invoice of the account or back to the customer; AR and customer credits keep tying throughout.
 */
import { describe, expect, it } from 'vitest';
import { arIdentity, expectArTies } from '../support/cash-fixtures';
import { setupTestApi } from '../support/harness';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

const pay = (w: SalesWorld, orderId: string, amount: number) => api.post(w.owner, `/v1/orders/${orderId}/payments`, { amount, payment_method: 'check' }, 201);
const lastEvent = (type: string, id: string) => api.published.filter((e) => e.type === type && e.data.object.id === id).at(-1);

describe('prepayments follow the invoice', () => {
  it('a sales-order prepayment applies to the invoice on conversion, as QuickBooks applies a deposit (when the converted invoice is posted)', async () => {
    const w = await salesWorld(api, { location: false });
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    const payment = await pay(w, order.id, 30);
    expect((await arIdentity(w.owner)).creditsSubledger).toBe('30');

    // Converted, the invoice is a draft: it owes nothing yet, and the deposit stays on the order.
    const invoice = await w.act(order.id, 'convert', {}, 201);
    expect(invoice).toMatchObject({ document_type: 'invoice', order_status: 'draft', amount_paid: 0, balance_due: 0 });
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 30 });
    await expectArTies(w.owner);

    // Posted, it takes the deposit: AR holds only what is still owed, customer credits nothing.
    const posted = await w.act(invoice.id, 'confirm');
    expect(posted).toMatchObject({ order_status: 'confirmed', order_total: 100, amount_paid: 30, balance_due: 70, payment_status: 'partially_paid' });
    // The sales order shows what is still owed on it: the 30 is paid through its invoice, 70 is owed.
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 30, balance_due: 70, payment_status: 'partially_paid' });
    const identity = await expectArTies(w.owner);
    expect(identity).toMatchObject({ gl: '70', creditsGl: '0' });
    expect((await api.get(w.owner, `/v1/payments/${payment.id}`)).applications.map((a) => [a.order_id, a.amount_applied])).toEqual([[invoice.id, 30]]);
    expect(lastEvent('order.confirmed', invoice.id)?.data.previous_attributes).toMatchObject({
      order_status: 'draft',
      amount_paid: 0,
      payment_status: 'unpaid',
    });

    // Voiding the payment takes it back from the invoice: the invoice owes its whole total again.
    await api.post(w.owner, `/v1/payments/${payment.id}/void`, {}, 200);
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_paid: 0, balance_due: 100 });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '100', creditsGl: '0' });
  });

  it('a deposit larger than the first invoice leaves the rest on the sales order for the next one', async () => {
    const w = await salesWorld(api, { widgetStock: 10 });
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    await pay(w, order.id, 80);
    await pay(w, order.id, 20);
    // Ship 4 and invoice them (40): the oldest payment covers it; 60 stays a deposit.
    await w.act(order.id, 'fulfillments', { lines: [{ line_id: order.lines[0].id, quantity: 4 }] });
    const first = await w.act(order.id, 'convert', {}, 201);
    await api.patch(w.owner, `/v1/orders/${first.id}/items/${first.lines[0].id}`, { quantity: 4 });
    expect(await w.act(first.id, 'confirm')).toMatchObject({ order_total: 40, amount_paid: 40, balance_due: 0, payment_status: 'paid' });
    // The sales order shows what is still owed on it: nothing (60 held as deposit, 40 paid through its invoice).
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 100, balance_due: 0, payment_status: 'paid' });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '0', creditsGl: '60' });
    const second = await w.act(order.id, 'convert', {}, 201);
    expect(await w.act(second.id, 'confirm')).toMatchObject({ order_total: 60, amount_paid: 60, balance_due: 0 });
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 100, balance_due: 0, payment_status: 'paid' });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '0', creditsGl: '0' });
  });
});

describe('credit-memo credit beyond its invoice', () => {
  /** A paid invoice of 10 widgets and a return of 3 of them: 30 of customer credit beyond the invoice. */
  async function creditWorld() {
    const w = await salesWorld(api, { widgetStock: 50, other: 'Other Co' });
    const paid = await w.order('invoice', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(paid.id, 'confirm');
    await w.act(paid.id, 'fulfillments', { lines: [{ line_id: paid.lines[0].id, quantity: 10 }] });
    await pay(w, paid.id, 100);
    const rma = await w.act(paid.id, 'returns', { lines: [{ line_id: paid.lines[0].id, quantity: 3, restock: false }] });
    const memo = await w.act(rma.id, 'confirm');
    expect(memo).toMatchObject({ order_total: 30, amount_credited: 0, balance_due: -30 });
    const banks = await api.get(w.owner, '/v1/gl-accounts', { limit: '100' });
    const bankAccountId = banks.data.find((a) => a.bank_account_id)!.bank_account_id!;
    return { w, memo, bankAccountId };
  }

  it('credit-memo credit beyond its invoice can be applied to another invoice of the same account', async () => {
    const { w, memo } = await creditWorld();
    const next = await w.order('invoice', [{ product_id: w.widget.id, quantity: 2 }]);
    await w.act(next.id, 'confirm');
    const applied = await api.post(w.owner, `/v1/orders/${memo.id}/apply-credit`, { invoice_id: next.id, amount: 4 }, 200);
    expect(applied).toMatchObject({ id: memo.id, amount_credited: 4, credit_refunded: 0, balance_due: -26 });
    expect(await w.getOrder(next.id)).toMatchObject({ amount_credited: 4, balance_due: 16, amount_due: 20, payment_status: 'unpaid' });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '16', creditsGl: '26' });
    expect(lastEvent('order.updated', next.id)?.data.previous_attributes).toEqual({ amount_credited: 0, balance_due: 20 });
    // By default as much as both allow: the invoice's remaining 16.
    expect(await api.post(w.owner, `/v1/orders/${memo.id}/apply-credit`, { invoice_id: next.id }, 200)).toMatchObject({ balance_due: -10 });
    expect(await w.getOrder(next.id)).toMatchObject({ balance_due: 0 });
    await expectArTies(w.owner);

    // Refusals write nothing.
    const other = await w.order('invoice', [{ product_id: w.widget.id, quantity: 1 }], { account_id: w.other.id });
    await w.act(other.id, 'confirm');
    const third = await w.order('invoice', [{ product_id: w.widget.id, quantity: 5 }]);
    await w.act(third.id, 'confirm');
    const cases = [
      [memo.id, { invoice_id: other.id }, 'order_not_payable', 'invoice_id'],
      [memo.id, { invoice_id: next.id }, 'order_not_payable', 'invoice_id'],
      [memo.id, { invoice_id: third.id, amount: 11 }, 'credit_not_available', 'amount'],
      [third.id, { invoice_id: next.id }, 'credit_not_available', 'id'],
    ] as const;
    for (const [id, body, code, param] of cases) {
      const refused = await api.request('POST', `/v1/orders/${id}/apply-credit`, { key: w.owner.secret, body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.error).toMatchObject({ code, param });
    }
    expect(await w.getOrder(memo.id)).toMatchObject({ balance_due: -10 });
    await expectArTies(w.owner);
  });

  it('credit-memo credit beyond its invoice can be refunded', async () => {
    const { w, memo, bankAccountId } = await creditWorld();
    const refunded = await api.post(w.owner, `/v1/orders/${memo.id}/refund-credit`, { bank_account_id: bankAccountId, amount: 12.5 }, 200);
    expect(refunded).toMatchObject({ credit_refunded: 12.5, amount_credited: 0, balance_due: -17.5 });
    expect(await expectArTies(w.owner)).toMatchObject({ creditsGl: '17.5' });
    const unknownBank = await api.request('POST', `/v1/orders/${memo.id}/refund-credit`, {
      key: w.owner.secret,
      body: { bank_account_id: '00000000-0000-4000-8000-000000000009', amount: 1 },
    });
    expect(unknownBank.status).toBe(404);
    expect(unknownBank.error).toMatchObject({ code: 'not_found', param: 'bank_account_id' });
    expect(await api.post(w.owner, `/v1/orders/${memo.id}/refund-credit`, { bank_account_id: bankAccountId }, 200)).toMatchObject({
      credit_refunded: 30,
      balance_due: 0,
    });
    expect(await expectArTies(w.owner)).toMatchObject({ creditsGl: '0' });
    const none = await api.request('POST', `/v1/orders/${memo.id}/refund-credit`, { key: w.owner.secret, body: { bank_account_id: bankAccountId } });
    expect(none.status).toBe(422);
    expect(none.error).toMatchObject({ code: 'credit_not_available', param: 'id', available_credit: 0 });
  });
});
