/**
 * Credit on an invoice billed from a sales order is credit, not a deposit: a credit memo's credit
 * applied to that invoice (POST /v1/orders/{id}/apply-credit), or a return of its goods crediting it
 * on confirm, raises the invoice's and the sales order's amount_credited and leaves both amount_paid
 * figures alone. The deposit the sales order holds is its amount_paid less what its invoices were
 * paid, whatever they were credited, so customer_credits = unapplied payments + deposits held +
 * credit-memo credit left, to the cent, read through the API as the books property test reads it.
 */
import { describe, expect, it } from 'vitest';
import { amount, sum } from '../../shared/money';
import { expectBooksTie, readBooks, systemAccounts } from '../support/books';
import { expectArTies } from '../support/cash-fixtures';
import { setupTestApi } from '../support/harness';
import { entryLines } from '../support/ledger-helpers';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

const pay = (w: SalesWorld, orderId: string, value: number) =>
  api.post(w.owner, `/v1/orders/${orderId}/payments`, { amount: value, payment_method: 'check' }, 201);

/** The lines of the one entry of `sourceType` posted last. */
async function lastEntryOf(w: SalesWorld, sourceType: string) {
  const entries = await api.get(w.owner, '/v1/journal-entries', { source_type: sourceType, limit: '100' });
  const latest = entries.data.at(0);
  return (await entryLines(api, w.owner, latest?.id ?? null)).lines;
}

/** The deposit a sales order holds, read through the API: its amount_paid less what its live invoices were paid. */
async function depositHeld(w: SalesWorld, orderId: string): Promise<string> {
  const order = await w.getOrder(orderId);
  const invoices = await api.get(w.owner, '/v1/orders', { document_type: 'invoice', limit: '100' });
  const billing = invoices.data.filter((i) => i.converted_from_id === orderId && !['draft', 'cancelled', 'voided'].includes(i.order_status));
  return amount(order.amount_paid)
    .minus(sum(billing.map((i) => i.amount_paid)))
    .toString();
}

describe("credit on a sales order's invoice is credit, not a deposit", () => {
  it("credit-memo credit applied to an invoice billed from a sales order leaves the order's deposit and amount_paid alone", async () => {
    const w = await salesWorld(api, { widgetStock: 50 });
    // A sales order of 100.00 with a 30.00 deposit, invoiced: the invoice takes the deposit.
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    await pay(w, order.id, 30);
    const billed = await w.act(order.id, 'convert', {}, 201);
    expect(await w.act(billed.id, 'confirm')).toMatchObject({ amount_paid: 30, balance_due: 70 });

    // A paid invoice of 100.00 whose 3 returned widgets leave 30.00 of customer credit.
    const sold = await w.order('invoice', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(sold.id, 'confirm');
    await w.act(sold.id, 'fulfillments', { lines: [{ line_id: sold.lines[0].id, quantity: 10 }] });
    await pay(w, sold.id, 100);
    const memo = await w.act(sold.id, 'returns', { lines: [{ line_id: sold.lines[0].id, quantity: 3 }] });
    expect(await w.act(memo.id, 'confirm')).toMatchObject({ order_total: 30, balance_due: -30 });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '70', creditsGl: '30' });

    // 12.00 of it applied to the sales order's invoice.
    const applied = await api.post(w.owner, `/v1/orders/${memo.id}/apply-credit`, { invoice_id: billed.id, amount: 12 }, 200);
    expect(applied).toMatchObject({ amount_credited: 12, balance_due: -18 });
    expect(await lastEntryOf(w, 'credit_memo_application')).toEqual([
      { key: 'customer_credits', debit: 12, credit: 0 },
      { key: 'accounts_receivable', debit: 0, credit: 12 },
    ]);
    expect(await w.getOrder(billed.id)).toMatchObject({ amount_paid: 30, amount_credited: 12, balance_due: 58 });
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 30, amount_credited: 12, balance_due: 58, payment_status: 'partially_paid' });
    expect(await depositHeld(w, order.id)).toBe('0');

    // customer_credits (18.00) is the credit memo's credit left alone: no deposit, no unapplied payment.
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '58', creditsGl: '18' });
    const books = await readBooks(api, w.owner, await systemAccounts(api, w.owner));
    expect({ gl: books.gl.customer_credits, subledger: books.customerMoney }).toEqual({ gl: '18', subledger: '18' });
    expectBooksTie(books, 'after the credit was applied to the sales order invoice');
    const aging = await api.get(w.owner, `/v1/entities/${w.owner.entity.id}/reconciliation/ar-aging`);
    expect({ unapplied: aging.unapplied_credits, control: aging.customer_credits_balance }).toEqual({ unapplied: 18, control: 18 });
  });

  it("a return against an invoice billed from a sales order credits that invoice and leaves the order's deposit alone", async () => {
    const w = await salesWorld(api, { widgetStock: 50 });
    // A sales order of 100.00, shipped, with a 60.00 deposit its invoice takes.
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    await w.act(order.id, 'fulfillments', { lines: [{ line_id: order.lines[0].id, quantity: 10 }] });
    await pay(w, order.id, 60);
    const billed = await w.act(order.id, 'convert', {}, 201);
    expect(await w.act(billed.id, 'confirm')).toMatchObject({ order_total: 100, amount_paid: 60, balance_due: 40 });
    expect(await depositHeld(w, order.id)).toBe('0');

    // 2 widgets come back: the 20.00 credit goes to the invoice's open balance, none to customer credit.
    const returned = await w.act(billed.id, 'returns', { lines: [{ line_id: billed.lines[0].id, quantity: 2 }] });
    expect(await w.act(returned.id, 'confirm')).toMatchObject({ order_total: 20, amount_credited: 20, balance_due: 0 });
    expect(await lastEntryOf(w, 'credit_memo')).toEqual(
      expect.arrayContaining([
        { key: 'sales_revenue', debit: 20, credit: 0 },
        { key: 'accounts_receivable', debit: 0, credit: 20 },
      ]),
    );
    expect(await w.getOrder(billed.id)).toMatchObject({ amount_paid: 60, amount_credited: 20, balance_due: 20 });
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 60, amount_credited: 20, balance_due: 20 });
    expect(await depositHeld(w, order.id)).toBe('0');

    expect(await expectArTies(w.owner)).toMatchObject({ gl: '20', creditsGl: '0' });
    const books = await readBooks(api, w.owner, await systemAccounts(api, w.owner));
    expect({ gl: books.gl.customer_credits, subledger: books.customerMoney }).toEqual({ gl: '0', subledger: '0' });
    expectBooksTie(books, 'after the return credited the sales order invoice');
  });
});
