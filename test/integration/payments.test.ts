/** Payments and cash (issue 5): payments against one document, E6, E8, payment reads, E3, E4. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { unchecked, type BodyFor } from '../support/client';
import { bankAccount, glBalance } from '../support/cash-fixtures';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { orderAction, salesWorld, type Account, type DocumentType, type SalesWorld } from '../support/worlds';

const api = setupTestApi();
const WORLD = { location: false, other: 'Other customer', widget: { name: 'Widget', list_price: 10 }, gadget: false } as const;

/** A confirmed document of `total` (as shipping, no lines), or one in `status`. */
async function document(
  w: { owner: TestEntity; account: Account },
  total: string,
  options: { type?: DocumentType; status?: 'draft' | 'cancelled'; account?: Account; orderDate?: string } = {},
) {
  const order = await api.post(w.owner, '/v1/orders', {
    document_type: options.type ?? 'invoice',
    account_id: (options.account ?? w.account).id,
    shipping_total: total,
    ...(options.orderDate && { order_date: options.orderDate }),
  });
  if (options.status === 'cancelled') await orderAction(api, w.owner, order.id, 'cancel');
  else if (options.status === 'draft') return order;
  // Confirming an invoice through the API posts its AR; these tests read the GL moves of payments alone.
  else if (order.document_type === 'invoice') await w.owner.sql((db) => db.query(`UPDATE orders SET order_status = 'confirmed' WHERE id = $1`, [order.id]));
  else await orderAction(api, w.owner, order.id, 'confirm');
  return order;
}

describe('POST /v1/orders/{id}/payments', () => {
  it('pays a confirmed invoice in parts: amount_paid, payment_status, balance_due and the GL move together', async () => {
    const w = await salesWorld(api, WORLD);
    const invoice = await document(w, '100.50');
    const first = await api.request('POST', `/v1/orders/${invoice.id}/payments`, {
      key: w.owner.secret,
      body: { amount: '40.25', check_number: '1001', payment_date: '2026-11-20' },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'payment',
      account_id: w.account.id,
      amount: 40.25,
      unapplied_amount: 0,
      payment_method: 'check',
      payment_date: '2026-11-20',
      status: 'undeposited',
      order_id: invoice.id,
      applied_count: 1,
      applications: [{ order_id: invoice.id, amount_applied: 40.25 }],
    });
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_paid: 40.25, payment_status: 'partially_paid', balance_due: 60.25, amount_due: 60.25 });
    const entry = await api.get(w.owner, `/v1/journal-entries/${first.body.journal_entry_id}`);
    expect(entry).toMatchObject({ status: 'posted', source_type: 'payment', source_id: first.body.id, entry_date: '2026-11-20' });
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('40.25');
    expect(await glBalance(w.owner, 'accounts_receivable')).toBe('-40.25');

    await api.post(w.owner, `/v1/orders/${invoice.id}/payments`, { amount: '60.25', payment_method: 'card' });
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_paid: 100.5, payment_status: 'paid', balance_due: 0, amount_due: 0 });
    expect(api.published.some((e) => e.type === 'payment.created' && e.data.object.id === first.body.id)).toBe(true);
  });

  it('refuses an overpayment and documents that accept no payment with 422 order_not_payable, writing nothing', async () => {
    const w = await salesWorld(api, WORLD);
    const invoice = await document(w, '10');
    const draft = await document(w, '10', { status: 'draft' });
    const cancelled = await document(w, '10', { status: 'cancelled' });
    const quote = await document(w, '10', { type: 'quote' });
    const before = await tenantRowCounts(w.owner.entity.id);
    const over = await api.request('POST', `/v1/orders/${invoice.id}/payments`, { key: w.owner.secret, body: { amount: '10.01' } });
    expect(over.status).toBe(422);
    expect(over.error).toMatchObject({ code: 'order_not_payable', param: 'amount', payable_amount: 10 });
    for (const order of [draft, cancelled, quote]) {
      const refused = await api.request('POST', `/v1/orders/${order.id}/payments`, { key: w.owner.secret, body: { amount: 1 } });
      expect(refused.status).toBe(422);
      expect(refused.error).toMatchObject({ code: 'order_not_payable', payable_amount: 0 });
    }
    const missing = await api.request('POST', `/v1/orders/${newId()}/payments`, { key: w.owner.secret, body: { amount: 1 } });
    expect(missing.error).toMatchObject({ code: 'not_found', param: 'id' });
    const zero = await api.request('POST', `/v1/orders/${invoice.id}/payments`, { key: w.owner.secret, body: { amount: 0 } });
    expect(zero.error).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
  });

  it('takes a payment on a confirmed sales order', async () => {
    const w = await salesWorld(api, WORLD);
    const order = await document(w, '25', { type: 'sales_order' });
    await api.post(w.owner, `/v1/orders/${order.id}/payments`, { amount: 25, payment_method: 'cash' });
    expect(await w.getOrder(order.id)).toMatchObject({ amount_paid: 25, payment_status: 'paid', balance_due: 0 });
  });

  it('never overpays under concurrent payments (the order row is locked)', async () => {
    const w = await salesWorld(api, WORLD);
    const invoice = await document(w, '100');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api.request('POST', `/v1/orders/${invoice.id}/payments`, { key: w.owner.secret, body: { amount: 30 } })),
    );
    const ok = responses.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    expect(responses.filter((r) => r.status === 422).every((r) => r.error.code === 'order_not_payable')).toBe(true);
    expect(await w.getOrder(invoice.id)).toMatchObject({ amount_paid: 90, payment_status: 'partially_paid', balance_due: 10 });
    expect((await tenantRowCounts(w.owner.entity.id)).payments).toBe(3);
  });
});

describe('POST /v1/payments/multi-invoice-apply (E6)', () => {
  it('creates one payment applied to several invoices, the remainder as customer credit, in the exact E6 shape', async () => {
    const w = await salesWorld(api, WORLD);
    const a = await document(w, '30');
    const b = await document(w, '20.5');
    const response = await api.request('POST', '/v1/payments/multi-invoice-apply', {
      key: w.owner.secret,
      body: {
        account_id: w.account.id,
        amount: 60,
        route_unapplied: 'credit',
        applications: [
          { order_id: a.id, amount_applied: 30 },
          { order_id: b.id, amount_applied: '20.5' },
        ],
        payment_date: '2026-11-21',
        external_reference: 'wire-1',
      },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body)).toEqual(['data', 'idempotent_replay']);
    expect(Object.keys(response.body.data).sort()).toEqual(
      ['id', 'entity_id', 'amount', 'payment_method', 'status', 'journal_entry_id', 'applied_count', 'applications'].sort(),
    );
    expect(response.body).toMatchObject({
      data: {
        entity_id: w.owner.entity.id,
        amount: 60,
        payment_method: 'other',
        status: 'undeposited',
        applied_count: 2,
        applications: [
          { id: expect.any(String), order_id: a.id, amount_applied: 30 },
          { id: expect.any(String), order_id: b.id, amount_applied: 20.5 },
        ],
      },
      idempotent_replay: false,
    });
    expect(await w.getOrder(a.id)).toMatchObject({ payment_status: 'paid', balance_due: 0 });
    expect(await w.getOrder(b.id)).toMatchObject({ payment_status: 'paid', balance_due: 0 });
    const payment = await api.get(w.owner, `/v1/payments/${response.body.data.id}`);
    expect(payment).toMatchObject({ amount: 60, unapplied_amount: 9.5, order_id: null, external_reference: 'wire-1' });
    // The applied part settles AR; the unapplied 9.5 is a customer deposit (a liability), not negative AR.
    expect(await glBalance(w.owner, 'accounts_receivable')).toBe('-50.5');
    expect(await glBalance(w.owner, 'customer_credits')).toBe('-9.5');
  });

  it('auto_apply pays the oldest open invoices first', async () => {
    const w = await salesWorld(api, WORLD);
    const newer = await document(w, '50', { orderDate: '2026-11-10T00:00:00Z' });
    const oldest = await document(w, '30', { orderDate: '2026-11-01T00:00:00Z' });
    const middle = await document(w, '40', { orderDate: '2026-11-05T00:00:00Z' });
    await document(w, '99', { status: 'draft', orderDate: '2026-10-01T00:00:00Z' });
    await document(w, '99', { account: w.other, orderDate: '2026-10-01T00:00:00Z' });
    const result = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 50, auto_apply: true });
    expect(result.data.applications.map((x) => [x.order_id, x.amount_applied])).toEqual([
      [oldest.id, 30],
      [middle.id, 20],
    ]);
    expect(await w.getOrder(newer.id)).toMatchObject({ payment_status: 'unpaid', amount_paid: 0, amount_due: 50 });
    expect(await w.getOrder(middle.id)).toMatchObject({ payment_status: 'partially_paid', balance_due: 20 });
    // More than everything open: the rest needs route_unapplied credit.
    const over = await api.request('POST', '/v1/payments/multi-invoice-apply', {
      key: w.owner.secret,
      body: { account_id: w.account.id, amount: 100, auto_apply: true },
    });
    expect(over.error).toMatchObject({ code: 'parameter_missing', param: 'route_unapplied' });
  });

  it('refuses bad applications naming applications[i], writing nothing', async () => {
    const w = await salesWorld(api, WORLD);
    const stranger = await api.newEntity();
    const strangerAccount = await api.post(stranger, '/v1/accounts', { name: 'Theirs' });
    await api.post(stranger, '/v1/products', { sku: 'S-1', name: 'S', list_price: 1 });
    const foreign = await document({ owner: stranger, account: strangerAccount }, '10');
    const invoice = await document(w, '10');
    const salesOrder = await document(w, '10', { type: 'sales_order' });
    const othersInvoice = await document(w, '10', { account: w.other });
    const before = await tenantRowCounts(w.owner.entity.id);
    const cases: [unknown[], number, string, string][] = [
      [[{ order_id: foreign.id, amount_applied: 1 }], 404, 'not_found', 'applications[0].order_id'],
      [
        [
          { order_id: invoice.id, amount_applied: 1 },
          { order_id: salesOrder.id, amount_applied: 1 },
        ],
        422,
        'order_not_payable',
        'applications[1].order_id',
      ],
      [[{ order_id: othersInvoice.id, amount_applied: 1 }], 422, 'order_not_payable', 'applications[0].order_id'],
      [[{ order_id: invoice.id, amount_applied: '10.01' }], 422, 'order_not_payable', 'applications[0].amount_applied'],
      [
        [
          { order_id: invoice.id, amount_applied: 5 },
          { order_id: invoice.id, amount_applied: 1 },
        ],
        400,
        'parameter_invalid',
        'applications[1].order_id',
      ],
      [
        [
          { order_id: invoice.id, amount_applied: 10 },
          { order_id: othersInvoice.id, amount_applied: 10 },
        ],
        400,
        'parameter_invalid',
        'applications',
      ],
    ];
    for (const [applications, status, code, param] of cases) {
      const response = await api.request('POST', '/v1/payments/multi-invoice-apply', {
        key: w.owner.secret,
        body: unchecked({ account_id: w.account.id, amount: 15, route_unapplied: 'credit', applications }),
      });
      expect([response.status, response.error.code, response.error.param]).toEqual([status, code, param]);
    }
    const badRoute = await api.request('POST', '/v1/payments/multi-invoice-apply', {
      key: w.owner.secret,
      body: unchecked({ account_id: w.account.id, amount: 15, route_unapplied: 'refund' }),
    });
    expect(badRoute.error).toMatchObject({ code: 'parameter_invalid', param: 'route_unapplied' });
    const foreignAccount = await api.request('POST', '/v1/payments/multi-invoice-apply', {
      key: w.owner.secret,
      body: { account_id: strangerAccount.id, amount: 15, route_unapplied: 'credit' },
    });
    expect(foreignAccount.error).toMatchObject({ code: 'not_found', param: 'account_id' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
  });

  it('an Idempotency-Key replay returns the original payment with idempotent_replay true, executing once', async () => {
    const w = await salesWorld(api, WORLD);
    const invoice = await document(w, '10');
    const key = `pay-${newId()}`;
    const request = () =>
      api.request('POST', '/v1/payments/multi-invoice-apply', {
        key: w.owner.secret,
        headers: { 'Idempotency-Key': key },
        body: { account_id: w.account.id, amount: 10, applications: [{ order_id: invoice.id, amount_applied: 10 }] },
      });
    const first = await request();
    const second = await request();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.body.idempotent_replay).toBe(false);
    expect(second.body.idempotent_replay).toBe(true);
    expect(second.body.data).toEqual(first.body.data);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await tenantRowCounts(w.owner.entity.id)).payments).toBe(1);
  });
});

describe('POST /v1/payments/{payment_id}/apply (E8)', () => {
  it('applies an unallocated payment to invoices once; a second application is 409', async () => {
    const w = await salesWorld(api, WORLD);
    const a = await document(w, '30');
    const b = await document(w, '30');
    const credit = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 50, route_unapplied: 'credit' });
    const applied = await api.request('POST', `/v1/payments/${credit.data.id}/apply`, {
      key: w.owner.secret,
      body: {
        account_id: w.account.id,
        applications: [
          { order_id: a.id, amount_applied: 30 },
          { order_id: b.id, amount_applied: 15 },
        ],
      },
    });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ id: credit.data.id, unapplied_amount: 5, applied_count: 2 });
    expect(await w.getOrder(b.id)).toMatchObject({ payment_status: 'partially_paid', balance_due: 15 });
    // Applying moves the applied 45 out of customer deposits into AR; 5 stays a deposit.
    expect(await glBalance(w.owner, 'accounts_receivable')).toBe('-45');
    expect(await glBalance(w.owner, 'customer_credits')).toBe('-5');
    const again = await api.request('POST', `/v1/payments/${credit.data.id}/apply`, {
      key: w.owner.secret,
      body: { applications: [{ order_id: b.id, amount_applied: 5 }] },
    });
    expect(again.status).toBe(409);
    expect(again.error).toMatchObject({ code: 'payment_already_applied', param: 'payment_id' });
    const single = await api.post(w.owner, `/v1/orders/${b.id}/payments`, { amount: 1 });
    const onDocument = await api.request('POST', `/v1/payments/${single.id}/apply`, {
      key: w.owner.secret,
      body: { applications: [{ order_id: b.id, amount_applied: 1 }] },
    });
    expect(onDocument.error).toMatchObject({ code: 'payment_already_applied' });
  });

  it('refuses over-application, another account and a foreign payment, writing nothing', async () => {
    const w = await salesWorld(api, WORLD);
    const a = await document(w, '30');
    const credit = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 20, route_unapplied: 'credit' });
    const before = await tenantRowCounts(w.owner.entity.id);
    const over = await api.request('POST', `/v1/payments/${credit.data.id}/apply`, {
      key: w.owner.secret,
      body: { applications: [{ order_id: a.id, amount_applied: '20.01' }] },
    });
    expect(over.error).toMatchObject({ code: 'parameter_invalid', param: 'applications', unapplied_amount: 20 });
    const mismatch = await api.request('POST', `/v1/payments/${credit.data.id}/apply`, {
      key: w.owner.secret,
      body: { account_id: w.other.id, applications: [{ order_id: a.id, amount_applied: 1 }] },
    });
    expect(mismatch.error).toMatchObject({ code: 'parameter_invalid', param: 'account_id' });
    const missing = await api.request('POST', `/v1/payments/${newId()}/apply`, {
      key: w.owner.secret,
      body: { applications: [{ order_id: a.id, amount_applied: 1 }] },
    });
    expect(missing.error).toMatchObject({ code: 'not_found', param: 'payment_id' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
  });

  it('concurrent applications of one payment apply it once', async () => {
    const w = await salesWorld(api, WORLD);
    const invoices = await Promise.all([document(w, '10'), document(w, '10'), document(w, '10'), document(w, '10')]);
    const credit = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 10, route_unapplied: 'credit' });
    const responses = await Promise.all(
      invoices.map((invoice) =>
        api.request('POST', `/v1/payments/${credit.data.id}/apply`, {
          key: w.owner.secret,
          body: { applications: [{ order_id: invoice.id, amount_applied: 10 }] },
        }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(3);
    expect((await tenantRowCounts(w.owner.entity.id)).payment_applications).toBe(1);
  });
});

describe('GET /v1/payments', () => {
  it('lists newest first, filtered by account_id and status; another entity sees nothing', async () => {
    const w = await salesWorld(api, WORLD);
    const p1 = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 1, route_unapplied: 'credit' });
    const p2 = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.other.id, amount: 2, route_unapplied: 'credit' });
    const all = await api.request('GET', '/v1/payments', { key: w.owner.secret });
    expect(all.body.data.map((p) => p.id)).toEqual([p2.data.id, p1.data.id]);
    const mine = await api.request('GET', '/v1/payments', { key: w.owner.secret, query: { account_id: w.account.id } });
    expect(mine.body.data.map((p) => p.id)).toEqual([p1.data.id]);
    const paged = await api.request('GET', '/v1/payments', { key: w.owner.secret, query: { limit: '1' } });
    expect(paged.body).toMatchObject({ has_more: true, next_cursor: p2.data.id });
    const deposited = await api.request('GET', '/v1/payments', { key: w.owner.secret, query: { status: 'deposited' } });
    expect(deposited.body.data).toEqual([]);
    const stranger = await api.newEntity();
    expect((await api.request('GET', `/v1/payments/${p1.data.id}`, { key: stranger.secret })).error).toMatchObject({ code: 'not_found', param: 'payment_id' });
  });
});

describe('deposits (E3, E4)', () => {
  async function receipts(w: SalesWorld<typeof WORLD>) {
    const p1 = await api.post(w.owner, '/v1/payments/multi-invoice-apply', {
      account_id: w.account.id,
      amount: '12.34',
      route_unapplied: 'credit',
      payment_date: '2026-11-02',
    });
    const p2 = await api.post(w.owner, '/v1/payments/multi-invoice-apply', {
      account_id: w.other.id,
      amount: '7.66',
      route_unapplied: 'credit',
      payment_date: '2026-11-03',
    });
    const bank = await bankAccount(api, w.owner);
    return { ids: [p1.data.id, p2.data.id], bank };
  }

  it('previews without writing, then deposits: debit bank, credit undeposited funds per receipt; a receipt is deposited once', async () => {
    const w = await salesWorld(api, WORLD);
    const { ids, bank } = await receipts(w);
    const before = await tenantRowCounts(w.owner.entity.id);
    const preview = await api.request('POST', '/v1/deposits/preview', { key: w.owner.secret, body: { payment_ids: ids } });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ total_amount: 20, line_count: 2 });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);

    const deposit = await api.request('POST', '/v1/deposits', {
      key: w.owner.secret,
      body: { bank_account_id: bank.bank_account_id, deposit_date: '2026-11-05', payment_ids: ids, memo: 'Friday deposit' },
    });
    expect(deposit.status).toBe(201);
    expect(deposit.body).toMatchObject({
      object: 'deposit',
      status: 'posted',
      total_amount: 20,
      line_count: 2,
      gl_account_id: bank.id,
      memo: 'Friday deposit',
    });
    expect([...deposit.body.payment_ids].sort()).toEqual([...ids].sort());
    const entry = await api.get(w.owner, `/v1/journal-entries/${deposit.body.journal_entry_id}`);
    expect(entry.lines.map((l) => [l.account_id, l.debit, l.credit])).toEqual([
      [bank.id, 20, 0],
      [expect.any(String), 0, 12.34],
      [expect.any(String), 0, 7.66],
    ]);
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    expect(await glBalance(w.owner, 'bank')).toBe('20');
    const payment = await api.get(w.owner, `/v1/payments/${ids[0]}`);
    expect(payment).toMatchObject({ status: 'deposited', deposit_id: deposit.body.id });

    const afterDeposit = await tenantRowCounts(w.owner.entity.id);
    const twice = await api.request('POST', '/v1/deposits', {
      key: w.owner.secret,
      body: { bank_account_id: bank.bank_account_id, deposit_date: '2026-11-05', payment_ids: [ids[1]] },
    });
    expect(twice.status).toBe(409);
    expect(twice.error).toMatchObject({ code: 'payment_already_deposited', param: 'payment_ids[0]', deposit_id: deposit.body.id });
    const previewTwice = await api.request('POST', '/v1/deposits/preview', { key: w.owner.secret, body: { payment_ids: ids } });
    expect(previewTwice.error).toMatchObject({ code: 'payment_already_deposited' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(afterDeposit);
  });

  it('refuses an unknown bank account, a foreign payment, a repeated id and an early date, writing nothing; concurrent deposits take a receipt once', async () => {
    const w = await salesWorld(api, WORLD);
    const { ids, bank } = await receipts(w);
    const stranger = await api.newEntity();
    const strangerAccount = await api.post(stranger, '/v1/accounts', { name: 'Theirs' });
    const foreign = await api.post(stranger, '/v1/payments/multi-invoice-apply', { account_id: strangerAccount.id, amount: 1, route_unapplied: 'credit' });
    const before = await tenantRowCounts(w.owner.entity.id);
    const body = (extra: Partial<BodyFor<'POST', '/v1/deposits'>>) => ({
      bank_account_id: bank.bank_account_id,
      deposit_date: '2026-11-05',
      payment_ids: ids,
      ...extra,
    });
    const cases: [Partial<BodyFor<'POST', '/v1/deposits'>>, number, string, string][] = [
      [{ bank_account_id: newId() }, 404, 'not_found', 'bank_account_id'],
      [{ payment_ids: [ids[0], foreign.data.id] }, 404, 'not_found', 'payment_ids[1]'],
      [{ payment_ids: [ids[0], ids[0]] }, 400, 'parameter_invalid', 'payment_ids[1]'],
      [{ deposit_date: '2026-11-02' }, 400, 'parameter_invalid', 'deposit_date'],
    ];
    for (const [extra, status, code, param] of cases) {
      const response = await api.request('POST', '/v1/deposits', { key: w.owner.secret, body: body(extra) });
      expect([response.status, response.error.code, response.error.param]).toEqual([status, code, param]);
    }
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
    const responses = await Promise.all(Array.from({ length: 4 }, () => api.request('POST', '/v1/deposits', { key: w.owner.secret, body: body({}) })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).every((r) => r.error.code === 'payment_already_deposited')).toBe(true);
    expect((await tenantRowCounts(w.owner.entity.id)).deposit_lines).toBe(2);
  });
});
