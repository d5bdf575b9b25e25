/**
 * A sales order shows what was paid through its invoices (settleDocumentMoney derives its figures
 * from theirs). Two invoices of one sales order paid at the same moment, each payment in its own
 * transaction, must both count on it: neither transaction may store the sales order's figures from
 * a view that misses the other's payment.
 */
import { describe, expect, it } from 'vitest';
import { setupTestApi } from '../support/harness';
import { orderAction, salesWorld } from '../support/worlds';

const api = setupTestApi();

describe('a sales order billed by two invoices', () => {
  it('counts both invoices when they are paid concurrently', async () => {
    const w = await salesWorld(api, { location: false, widget: { name: 'Widget', list_price: 10 }, gadget: { name: 'Gadget', list_price: 7 } });
    const order = await w.order('sales_order', [
      { product_id: w.widget.id, quantity: 1 },
      { product_id: w.gadget.id, quantity: 1 },
    ]);
    await orderAction(api, w.owner, order.id, 'confirm');
    // The first invoice bills the widget only; the second the gadget left unbilled.
    const first = await orderAction(api, w.owner, order.id, 'convert');
    const gadgetLine = first.lines.find((line) => line.product_id === w.gadget.id)!;
    expect((await api.request('DELETE', `/v1/orders/${first.id}/items/${gadgetLine.id}`, { key: w.owner.secret })).status).toBe(200);
    await orderAction(api, w.owner, first.id, 'confirm');
    const second = await orderAction(api, w.owner, order.id, 'convert');
    await orderAction(api, w.owner, second.id, 'confirm');
    const invoices = [await w.getOrder(first.id), await w.getOrder(second.id)];
    expect(invoices.map((invoice) => invoice.balance_due)).toEqual([10, 7]);

    // Paid in two steps each, both invoices at once, so the two transactions overlap on the sales order.
    for (const part of [0.5, 0.5]) {
      const answers = await Promise.all(
        invoices.map((invoice) =>
          api.request('POST', `/v1/orders/${invoice.id}/payments`, { key: w.owner.secret, body: { amount: (invoice.order_total * part).toFixed(2) } }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    }
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 17, payment_status: 'paid', balance_due: 0 });
  });
});
