/**
 * Unapplied payment money applied to invoices later, in parts, until none is left
 * (POST /v1/payments/{payment_id}/apply-credit), and the effective date of payment and credit
 * applications (applied_date).
 */
import { describe, expect, it } from 'vitest';
import { expectArTies, glBalance } from '../support/cash-fixtures';
import { setupTestApi } from '../support/harness';
import { closedPeriod } from '../support/ledger-helpers';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

async function invoiceOf(w: SalesWorld, quantity: number, extra: { order_date?: string } = {}) {
  const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity }], extra);
  await w.act(invoice.id, 'confirm');
  return invoice;
}

/** The dates of the entries that moved this payment's money from customer deposits to receivables. */
async function applicationDates(w: SalesWorld, paymentId: string): Promise<string[]> {
  return w.owner.sql(async (db) =>
    (
      await db.query<{ entry_date: string }>(
        `SELECT entry_date::text AS entry_date FROM journal_entries WHERE entity_id = $1 AND source_type = 'payment_application' AND source_id = $2
         ORDER BY created_at, id`,
        [w.owner.entity.id, paymentId],
      )
    ).map((row) => row.entry_date),
  );
}

describe('unapplied payment money applied later', () => {
  it('the remainder of a partly applied payment is applied to open invoices later, in parts, until none is left', async () => {
    const w = await salesWorld(api, { location: false });
    const [first, second, third] = [await invoiceOf(w, 3), await invoiceOf(w, 5), await invoiceOf(w, 4)];
    const received = await api.post(
      w.owner,
      '/v1/payments/multi-invoice-apply',
      { account_id: w.account.id, amount: 100, applications: [{ order_id: first.id, amount_applied: 30 }], route_unapplied: 'credit' },
      201,
    );
    const paymentId = received.data.id;
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '90', creditsGl: '70' });

    // E8 keeps the spec's rule: it applies a payment that has no applications yet.
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/payments/${paymentId}/apply`,
      { applications: [{ order_id: second.id, amount_applied: 10 }] },
      409,
      'payment_already_applied',
      'payment_id',
    );

    const part = await api.post(w.owner, `/v1/payments/${paymentId}/apply-credit`, { invoice_id: second.id, amount: 50 }, 200);
    expect(part).toMatchObject({ unapplied_amount: 20 });
    expect(part.applications.map((a) => [a.order_id, a.amount_applied]).sort()).toEqual(
      [
        [first.id, 30],
        [second.id, 50],
      ].sort(),
    );
    expect(await w.getOrder(second.id)).toMatchObject({ amount_paid: 50, balance_due: 0, payment_status: 'paid' });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '40', creditsGl: '20' });

    // By default as much as both allow: the 20 left, into the third invoice's 40.
    expect(await api.post(w.owner, `/v1/payments/${paymentId}/apply-credit`, { invoice_id: third.id }, 200)).toMatchObject({ unapplied_amount: 0 });
    expect(await w.getOrder(third.id)).toMatchObject({ amount_paid: 20, balance_due: 20, payment_status: 'partially_paid' });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '20', creditsGl: '0' });
    await api.expectRefusal(w.owner, 'POST', `/v1/payments/${paymentId}/apply-credit`, { invoice_id: third.id }, 422, 'credit_not_available', 'payment_id');

    // Voiding the payment reverses the receipt and every later application with it.
    await api.post(w.owner, `/v1/payments/${paymentId}/void`, {}, 200);
    expect(await w.getOrder(second.id)).toMatchObject({ amount_paid: 0, balance_due: 50 });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '120', creditsGl: '0' });
  });

  it("a later application refuses more than the payment holds or the invoice owes, and another customer's invoice, writing nothing", async () => {
    const w = await salesWorld(api, { location: false, other: 'Other Co' });
    const mine = await invoiceOf(w, 2);
    const theirs = await w.order('invoice', [{ product_id: w.widget.id, quantity: 2 }], { account_id: w.other.id });
    await w.act(theirs.id, 'confirm');
    const received = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 50, route_unapplied: 'credit' }, 201);
    const path = `/v1/payments/${received.data.id}/apply-credit` as const;
    await api.expectRefusal(w.owner, 'POST', path, { invoice_id: theirs.id }, 422, 'order_not_payable', 'invoice_id');
    await api.expectRefusal(w.owner, 'POST', path, { invoice_id: mine.id, amount: 21 }, 422, 'order_not_payable', 'amount');
    await api.expectRefusal(w.owner, 'POST', path, { invoice_id: mine.id, amount: 51 }, 422, 'credit_not_available', 'amount');
    await api.expectRefusal(w.owner, 'POST', path, { invoice_id: '00000000-0000-4000-8000-000000000009' }, 404, 'not_found', 'invoice_id');
    await api.expectRefusal(
      w.owner,
      'POST',
      '/v1/payments/00000000-0000-4000-8000-000000000009/apply-credit',
      { invoice_id: mine.id },
      404,
      'not_found',
      'payment_id',
    );
  });
});

describe('the effective date of applications', () => {
  it('a payment application posts on its applied_date, never before the payment, never in a closed period', async () => {
    const w = await salesWorld(api, { location: false });
    const invoice = await invoiceOf(w, 5, { order_date: '2020-01-05T12:00:00Z' });
    const e8 = await api.post(
      w.owner,
      '/v1/payments/multi-invoice-apply',
      { account_id: w.account.id, amount: 30, payment_date: '2020-01-10', route_unapplied: 'credit' },
      201,
    );
    const later = await api.post(
      w.owner,
      '/v1/payments/multi-invoice-apply',
      { account_id: w.account.id, amount: 20, payment_date: '2020-01-10', route_unapplied: 'credit' },
      201,
    );
    for (const id of [e8.data.id, later.data.id]) {
      await api.expectRefusal(
        w.owner,
        'POST',
        `/v1/payments/${id}/apply-credit`,
        { invoice_id: invoice.id, amount: 1, applied_date: '2020-01-09' },
        400,
        'parameter_invalid',
        'applied_date',
      );
    }
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/payments/${e8.data.id}/apply`,
      { applications: [{ order_id: invoice.id, amount_applied: 1 }], applied_date: '2020-01-09' },
      400,
      'parameter_invalid',
      'applied_date',
    );
    await api.post(
      w.owner,
      `/v1/payments/${e8.data.id}/apply`,
      { applications: [{ order_id: invoice.id, amount_applied: 30 }], applied_date: '2020-01-20' },
      200,
    );
    await api.post(w.owner, `/v1/payments/${later.data.id}/apply-credit`, { invoice_id: invoice.id, amount: 5, applied_date: '2020-01-25' }, 200);
    expect(await applicationDates(w, e8.data.id)).toEqual(['2020-01-20']);
    expect(await applicationDates(w, later.data.id)).toEqual(['2020-01-25']);

    await closedPeriod(api, w.owner, { period_name: 'Jan 2020', start_date: '2020-01-01', end_date: '2020-01-31' });
    await api.expectRefusal(
      w.owner,
      'POST',
      `/v1/payments/${later.data.id}/apply-credit`,
      { invoice_id: invoice.id, amount: 5, applied_date: '2020-01-28' },
      422,
      'period_closed',
      'applied_date',
    );
    // The default is today, outside the closed period.
    await api.post(w.owner, `/v1/payments/${later.data.id}/apply-credit`, { invoice_id: invoice.id, amount: 5 }, 200);
    expect((await applicationDates(w, later.data.id))[1]).toBe(new Date().toISOString().slice(0, 10));
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_paid: 40, balance_due: 10 });
    await expectArTies(w.owner);
    expect(await glBalance(w.owner, 'customer_credits')).toBe('-10');
  });
});

describe('the effective date of multi-invoice applications', () => {
  it('a multi-invoice payment applied later than received holds the money as customer credit until its applied_date', async () => {
    const w = await salesWorld(api, { location: false });
    const invoice = await invoiceOf(w, 5, { order_date: '2020-01-05T12:00:00Z' });
    const body = { account_id: w.account.id, amount: 30, payment_date: '2020-01-10', applications: [{ order_id: invoice.id, amount_applied: 30 }] };
    await api.expectRefusal(
      w.owner,
      'POST',
      '/v1/payments/multi-invoice-apply',
      { ...body, applied_date: '2020-01-09' },
      400,
      'parameter_invalid',
      'applied_date',
    );
    await api.expectRefusal(
      w.owner,
      'POST',
      '/v1/payments/multi-invoice-apply',
      { ...body, applied_date: '2020-01-12', payment_method: 'ach' },
      400,
      'parameter_invalid',
      'applied_date',
    );
    const received = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { ...body, applied_date: '2020-01-12' }, 201);
    expect(await applicationDates(w, received.data.id)).toEqual(['2020-01-12']);
    const receipt = await w.owner.sql((db) =>
      db.query<{ system_key: string; credit: string }>(
        `SELECT a.system_key, l.credit FROM journal_lines l JOIN gl_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
         WHERE l.entity_id = $1 AND l.entry_id = $2 AND l.credit > 0`,
        [w.owner.entity.id, received.data.journal_entry_id],
      ),
    );
    expect(receipt).toEqual([{ system_key: 'customer_credits', credit: '30.00' }]);
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_paid: 30, balance_due: 20 });
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '20', creditsGl: '0' });
    // Applied as received by default: one receipt entry, no application entry.
    const asReceived = await api.post(
      w.owner,
      '/v1/payments/multi-invoice-apply',
      { ...body, amount: 5, applications: [{ order_id: invoice.id, amount_applied: 5 }] },
      201,
    );
    expect(await applicationDates(w, asReceived.data.id)).toEqual([]);
    await expectArTies(w.owner);
  });
});

describe('the effective date of credit memo applications', () => {
  it("a credit memo's credit is applied on its applied_date, never before the credit memo, never in a closed period", async () => {
    const w = await salesWorld(api, { widgetStock: 50 });
    const sold = await w.order('invoice', [{ product_id: w.widget.id, quantity: 4 }], { order_date: '2020-01-05T12:00:00Z' });
    await w.act(sold.id, 'confirm');
    await w.act(sold.id, 'fulfillments', { lines: [{ line_id: sold.lines[0].id, quantity: 4 }] });
    await api.post(w.owner, `/v1/orders/${sold.id}/payments`, { amount: 40, payment_method: 'check', payment_date: '2020-01-06' }, 201);
    const rma = await w.act(sold.id, 'returns', { lines: [{ line_id: sold.lines[0].id, quantity: 2, restock: false }] });
    await api.patch(w.owner, `/v1/orders/${rma.id}`, { order_date: '2020-01-10T12:00:00Z' });
    expect(await w.act(rma.id, 'confirm')).toMatchObject({ balance_due: -20 });
    const next = await w.order('invoice', [{ product_id: w.widget.id, quantity: 3 }], { order_date: '2020-01-08T12:00:00Z' });
    await w.act(next.id, 'confirm');
    const path = `/v1/orders/${rma.id}/apply-credit` as const;
    await api.expectRefusal(w.owner, 'POST', path, { invoice_id: next.id, amount: 5, applied_date: '2020-01-09' }, 400, 'parameter_invalid', 'applied_date');
    await api.post(w.owner, path, { invoice_id: next.id, amount: 5, applied_date: '2020-01-15' }, 200);
    const dates = () =>
      w.owner.sql(async (db) =>
        (
          await db.query<{ entry_date: string }>(
            `SELECT entry_date::text AS entry_date FROM journal_entries WHERE entity_id = $1 AND source_type = 'credit_memo_application' ORDER BY created_at, id`,
            [w.owner.entity.id],
          )
        ).map((row) => row.entry_date),
      );
    expect(await dates()).toEqual(['2020-01-15']);
    await closedPeriod(api, w.owner, { period_name: 'Jan 2020', start_date: '2020-01-01', end_date: '2020-01-31' });
    await api.expectRefusal(w.owner, 'POST', path, { invoice_id: next.id, amount: 5, applied_date: '2020-01-20' }, 422, 'period_closed', 'applied_date');
    expect(await w.getOrder(rma.id)).toMatchObject({ balance_due: -15 });
    expect(await w.getOrder(next.id)).toMatchObject({ amount_credited: 5, balance_due: 25 });
    await expectArTies(w.owner);
  });
});
