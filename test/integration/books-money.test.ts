/**
 * A document's money figures, derived by the one writer (shared/orders/document-money.ts): credit
 * that stays available after the goods come back, money refunded in full that no longer blocks a
 * document, and a sales order that shows what is still owed on it once its invoices take over.
 */
import { describe, expect, it } from 'vitest';
import { expectArTies } from '../support/cash-fixtures';
import { setupTestApi } from '../support/harness';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

const pay = (w: SalesWorld, orderId: string, amount: number) => api.post(w.owner, `/v1/orders/${orderId}/payments`, { amount, payment_method: 'check' }, 201);

async function bankAccountId(w: SalesWorld): Promise<string> {
  const banks = await api.get(w.owner, '/v1/gl-accounts', { limit: '100' });
  return banks.data.find((a) => a.bank_account_id)!.bank_account_id!;
}

describe('credit memo credit', () => {
  it("a return's credit stays available after its goods are received", async () => {
    const w = await salesWorld(api, { widgetStock: 50 });
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(invoice.id, 'confirm');
    await w.act(invoice.id, 'fulfillments', { lines: [{ line_id: invoice.lines[0].id, quantity: 10 }] });
    await pay(w, invoice.id, 100);
    const rma = await w.act(invoice.id, 'returns', { lines: [{ line_id: invoice.lines[0].id, quantity: 3 }] });
    expect(await w.act(rma.id, 'confirm')).toMatchObject({ order_total: 30, balance_due: -30 });
    await w.act(rma.id, 'receive-return');
    expect(await w.getOrder(rma.id)).toMatchObject({ order_status: 'fulfilled', balance_due: -30 });

    const next = await w.order('invoice', [{ product_id: w.widget.id, quantity: 2 }]);
    await w.act(next.id, 'confirm');
    const applied = await api.post(w.owner, `/v1/orders/${rma.id}/apply-credit`, { invoice_id: next.id, amount: 4 }, 200);
    expect(applied).toMatchObject({ order_status: 'fulfilled', amount_credited: 4, balance_due: -26 });
    expect(await w.getOrder(next.id)).toMatchObject({ amount_credited: 4, balance_due: 16 });
    const refunded = await api.post(w.owner, `/v1/orders/${rma.id}/refund-credit`, { bank_account_id: await bankAccountId(w), amount: 6 }, 200);
    expect(refunded).toMatchObject({ credit_refunded: 6, balance_due: -20 });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '16', creditsGl: '20' });
  });
});

describe('documents with money reach a terminal state', () => {
  it('a sales order whose deposit was refunded in full can be cancelled', async () => {
    const w = await salesWorld(api, { location: false });
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    const payment = await pay(w, order.id, 60);
    await api.post(w.owner, `/v1/payments/${payment.id}/refunds`, {}, 201);
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 0, payment_status: 'refunded', balance_due: 100 });
    const cancelled = await w.act(order.id, 'cancel');
    expect(cancelled).toMatchObject({ order_status: 'cancelled', balance_due: 0 });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '0', creditsGl: '0' });
  });

  it('a sales order still holding a deposit is not cancelled', async () => {
    const w = await salesWorld(api, { location: false });
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    const payment = await pay(w, order.id, 60);
    await api.post(w.owner, `/v1/payments/${payment.id}/refunds`, { amount: 20 }, 201);
    const refused = await api.request('POST', `/v1/orders/${order.id}/cancel`, { key: w.owner.secret, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'order_invalid_transition', reason: 'has_payments' });
  });
});

describe('a sales order after its invoices', () => {
  it('a sales order shows what is still owed on it once its invoice takes its deposit, and nothing once its invoice is paid', async () => {
    const w = await salesWorld(api, { location: false });
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    await pay(w, order.id, 30);
    const invoice = await w.act(order.id, 'convert', {}, 201);
    expect(await w.act(invoice.id, 'confirm')).toMatchObject({ amount_paid: 30, balance_due: 70 });
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 30, balance_due: 70, payment_status: 'partially_paid' });
    await pay(w, invoice.id, 70);
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 100, balance_due: 0, payment_status: 'paid' });
    const listed = await api.get(w.owner, '/v1/orders', { document_type: 'sales_order' });
    expect(listed.data.find((o) => o.id === order.id)).toMatchObject({ amount_paid: 100, balance_due: 0, payment_status: 'paid' });
    await expectArTies(w.owner);
  });

  it('a payment on a sales order with nothing left to take is refused', async () => {
    const w = await salesWorld(api, { location: false });
    // Fully invoiced and paid through its invoice.
    const paid = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(paid.id, 'confirm');
    const paidInvoice = await w.act(paid.id, 'convert', {}, 201);
    await w.act(paidInvoice.id, 'confirm');
    await pay(w, paidInvoice.id, 100);
    // Fully invoiced, the invoice still open: the invoice collects, not the order.
    const billed = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(billed.id, 'confirm');
    const openInvoice = await w.act(billed.id, 'convert', {}, 201);
    await w.act(openInvoice.id, 'confirm');
    for (const [orderId, payable] of [
      [paid.id, 0],
      [billed.id, 0],
    ] as const) {
      const refused = await api.request('POST', `/v1/orders/${orderId}/payments`, { key: w.owner.secret, body: { amount: 10, payment_method: 'check' } });
      expect(refused.status).toBe(422);
      expect(refused.error).toMatchObject({ code: 'order_not_payable', param: 'amount', payable_amount: payable });
    }
    expect(await w.getOrder(billed.id)).toMatchObject({ amount_paid: 0, balance_due: 100 });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '100', creditsGl: '0' });
  });
});
