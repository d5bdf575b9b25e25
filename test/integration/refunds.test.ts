/** Refunds (POST /v1/payments/{payment_id}/refunds) and voids (POST /v1/payments/{payment_id}/void) of customer payments. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { bankAccount, cashWorld, confirmedDocument, expectArTies, glBalance, type CashWorld } from '../support/cash-fixtures';
import { unchecked, type BodyFor, type Unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { getOrder } from '../support/worlds';

const api = setupTestApi();

const pay = (w: CashWorld, orderId: string, body: BodyFor<'POST', '/v1/orders/{id}/payments'>) => api.post(w.owner, `/v1/orders/${orderId}/payments`, body);
const refund = (w: CashWorld, paymentId: string, body: BodyFor<'POST', '/v1/payments/{payment_id}/refunds'> | Unchecked = {}) =>
  api.request('POST', `/v1/payments/${paymentId}/refunds`, { key: w.owner.secret, body });
const voidPayment = (w: CashWorld, paymentId: string) => api.request('POST', `/v1/payments/${paymentId}/void`, { key: w.owner.secret, body: {} });

describe('POST /v1/payments/{payment_id}/refunds', () => {
  it('refunds a paid invoice in part then in full: an allowance (debit revenue, credit undeposited funds), AR untouched, partially_refunded then refunded', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '100');
    const payment = await pay(w, invoice.id, { amount: 100, payment_method: 'check', check_number: '77', payment_date: '2026-11-10' });
    expect((await expectArTies(w.owner)).gl).toBe('0');

    const partial = await refund(w, payment.id, { amount: '30.25', reason: 'Damaged in transit', refund_date: '2026-11-12' });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({
      object: 'refund',
      payment_id: payment.id,
      amount: 30.25,
      reason: 'Damaged in transit',
      refund_date: '2026-11-12',
      lines: [{ order_id: invoice.id, credit_amount: 0, allowance_amount: 30.25 }],
    });
    const entry = await api.get(w.owner, `/v1/journal-entries/${partial.body.journal_entry_id}`);
    expect(entry).toMatchObject({ status: 'posted', source_type: 'refund', source_id: partial.body.id, entry_date: '2026-11-12' });
    expect(await glBalance(w.owner, 'sales_revenue')).toBe('-69.75');
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('69.75');
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ payment_status: 'partially_refunded', amount_paid: 100, balance_due: 0 });
    expect(await api.get(w.owner, `/v1/payments/${payment.id}`)).toMatchObject({ amount_refunded: 30.25, status: 'undeposited' });
    await expectArTies(w.owner);

    const rest = await refund(w, payment.id, { refund_date: '2026-11-12' });
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe(69.75);
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ payment_status: 'refunded', balance_due: 0 });
    expect(await api.get(w.owner, `/v1/payments/${payment.id}`)).toMatchObject({ amount_refunded: 100 });
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    await expectArTies(w.owner);
    const published = api.published.filter((e) => e.data.object.id === payment.id || e.data.object.payment_id === payment.id);
    expect(published.map((e) => e.type)).toEqual(expect.arrayContaining(['payment.refunded', 'refund.created']));

    const before = await tenantRowCounts(w.owner.entity.id);
    const again = await refund(w, payment.id, { amount: '0.01' });
    expect(again.status).toBe(422);
    expect(again.error).toMatchObject({ code: 'refund_exceeds_refundable', param: 'amount', refundable_amount: 0 });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
  });

  it('refunding part of a partly paid invoice keeps its balance_due (and AR) as they were', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '100');
    const payment = await pay(w, invoice.id, { amount: 40 });
    await api.post(w.owner, `/v1/payments/${payment.id}/refunds`, {});
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ payment_status: 'partially_refunded', amount_paid: 40, balance_due: 60 });
    expect((await expectArTies(w.owner)).gl).toBe('60');
  });

  it("gives back customer credit first (debit AR): the payment's unapplied amount, then a sales order's prepayment", async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '30');
    const multi = await api.post(w.owner, '/v1/payments/multi-invoice-apply', {
      account_id: w.account.id,
      amount: 50,
      route_unapplied: 'credit',
      applications: [{ order_id: invoice.id, amount_applied: 30 }],
    });
    await expectArTies(w.owner);
    const first = await refund(w, multi.data.id, { amount: 25 });
    expect(first.status).toBe(201);
    expect(first.body.lines).toEqual([
      { id: expect.any(String), order_id: null, credit_amount: 20, allowance_amount: 0 },
      { id: expect.any(String), order_id: invoice.id, credit_amount: 0, allowance_amount: 5 },
    ]);
    expect(await api.get(w.owner, `/v1/payments/${multi.data.id}`)).toMatchObject({ unapplied_amount: 0, amount_refunded: 25 });
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ payment_status: 'partially_refunded', balance_due: 0 });
    await expectArTies(w.owner);

    const order = await confirmedDocument(api, w, '25', 'sales_order');
    const prepaid = await pay(w, order.id, { amount: 25, payment_method: 'cash' });
    await expectArTies(w.owner);
    await api.post(w.owner, `/v1/payments/${prepaid.id}/refunds`, { amount: 10 });
    expect(await getOrder(api, w.owner, order.id)).toMatchObject({ payment_status: 'partially_refunded', amount_paid: 15, balance_due: 10 });
    await api.post(w.owner, `/v1/payments/${prepaid.id}/refunds`, {});
    expect(await getOrder(api, w.owner, order.id)).toMatchObject({ payment_status: 'refunded', amount_paid: 0, balance_due: 25 });
    await expectArTies(w.owner);
  });

  it('refunds a deposited payment out of the bank account it was deposited to', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '80');
    const payment = await pay(w, invoice.id, { amount: 80, payment_date: '2026-11-02' });
    const account = await bankAccount(api, w.owner);
    await api.post(w.owner, '/v1/deposits', { bank_account_id: account.bank_account_id, deposit_date: '2026-11-03', payment_ids: [payment.id] });
    const early = await refund(w, payment.id, { amount: 5, refund_date: '2026-11-02' });
    expect(early.error).toMatchObject({ code: 'parameter_invalid', param: 'refund_date' });
    const response = await refund(w, payment.id, { amount: 20, refund_date: '2026-11-04' });
    expect(response.status).toBe(201);
    expect(response.body.cash_gl_account_id).toBe(account.id);
    expect(await glBalance(w.owner, 'bank')).toBe('60');
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    await expectArTies(w.owner);
  });

  it('refuses every bad request with its code and param, writing nothing', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '50');
    const payment = await pay(w, invoice.id, { amount: 50, payment_date: '2026-11-10' });
    const stranger = await cashWorld(api);
    const theirs = await pay(stranger, (await confirmedDocument(api, stranger, '5')).id, { amount: 5 });
    const pending = await api.post(w.owner, '/v1/payments/multi-invoice-apply', {
      account_id: w.account.id,
      amount: 5,
      route_unapplied: 'credit',
      payment_method: 'ach',
    });
    const voided = await pay(w, (await confirmedDocument(api, w, '9')).id, { amount: 9 });
    expect((await voidPayment(w, voided.id)).status).toBe(200);
    const before = await tenantRowCounts(w.owner.entity.id);
    const cases: [string, Record<string, unknown>, number, string, string][] = [
      [payment.id, { amount: '50.01' }, 422, 'refund_exceeds_refundable', 'amount'],
      [payment.id, { amount: 0 }, 400, 'parameter_invalid', 'amount'],
      [payment.id, { amount: '1.001' }, 400, 'parameter_invalid', 'amount'],
      [payment.id, { refund_date: '2026-11-09' }, 400, 'parameter_invalid', 'refund_date'],
      [payment.id, { reason: 'x'.repeat(501) }, 400, 'parameter_invalid', 'reason'],
      [payment.id, { surprise: true }, 400, 'parameter_unknown', 'surprise'],
      [theirs.id, {}, 404, 'not_found', 'payment_id'],
      [newId(), {}, 404, 'not_found', 'payment_id'],
      [pending.data.id, {}, 409, 'payment_pending_clearance', 'payment_id'],
      [voided.id, {}, 409, 'payment_voided', 'payment_id'],
    ];
    for (const [id, body, status, code, param] of cases) {
      const response = await refund(w, id, unchecked(body));
      expect([response.status, response.error.code, response.error.param], JSON.stringify(body)).toEqual([status, code, param]);
    }
    const over = await refund(w, payment.id, { amount: 60 });
    expect(over.body).toMatchObject({ refundable_amount: 50, amount_refunded: 0 });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
  });

  it('never refunds more than the payment under concurrent refunds (the payment row is locked)', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '100');
    const payment = await pay(w, invoice.id, { amount: 100 });
    const responses = await Promise.all(Array.from({ length: 6 }, () => refund(w, payment.id, { amount: 30 })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(3);
    expect(responses.filter((r) => r.status !== 201).every((r) => r.status === 422 && r.error.code === 'refund_exceeds_refundable')).toBe(true);
    expect(await api.get(w.owner, `/v1/payments/${payment.id}`)).toMatchObject({ amount_refunded: 90 });
    expect((await tenantRowCounts(w.owner.entity.id)).refunds).toBe(3);
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('10');
    await expectArTies(w.owner);
  });
});

describe('POST /v1/payments/{payment_id}/void', () => {
  it('reverses the receipt and re-opens the invoice; then the invoice can be voided (it was refused with a hint to void the payment)', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '100');
    const payment = await pay(w, invoice.id, { amount: 60, payment_date: '2026-11-10' });
    const refused = await api.request('POST', `/v1/orders/${invoice.id}/void`, { key: w.owner.secret, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'order_invalid_transition', reason: 'has_payments' });
    expect(refused.error.hint).toContain('/v1/payments/{payment_id}/void');

    const response = await voidPayment(w, payment.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: payment.id, status: 'voided', unapplied_amount: 0, voided_at: expect.any(String) });
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ payment_status: 'voided', amount_paid: 0, balance_due: 100 });
    const original = await api.get(w.owner, `/v1/journal-entries/${payment.journal_entry_id}`);
    expect(original.status).toBe('reversed');
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    expect((await expectArTies(w.owner)).gl).toBe('100');
    expect(api.published.some((e) => e.type === 'payment.voided' && e.data.object.id === payment.id)).toBe(true);

    const voided = await api.request('POST', `/v1/orders/${invoice.id}/void`, { key: w.owner.secret, body: {} });
    expect(voided.status).toBe(200);
    expect(await expectArTies(w.owner)).toMatchObject({ gl: '0', openInvoices: '0' });
  });

  it('lets a sales order whose payment was voided be cancelled, end to end', async () => {
    const w = await cashWorld(api);
    const order = await confirmedDocument(api, w, '40', 'sales_order');
    const payment = await pay(w, order.id, { amount: 40 });
    const refused = await api.request('POST', `/v1/orders/${order.id}/cancel`, { key: w.owner.secret, body: {} });
    expect(refused.error).toMatchObject({ code: 'order_invalid_transition', reason: 'has_payments' });
    expect((await voidPayment(w, payment.id)).status).toBe(200);
    const cancelled = await api.request('POST', `/v1/orders/${order.id}/cancel`, { key: w.owner.secret, body: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ order_status: 'cancelled', payment_status: 'voided', balance_due: 0 });
    await expectArTies(w.owner);
  });

  it('refuses deposited, refunded, voided, pending and foreign payments with their codes, writing nothing; a voided credit cannot be applied', async () => {
    const w = await cashWorld(api);
    const account = await bankAccount(api, w.owner);
    const deposited = await pay(w, (await confirmedDocument(api, w, '10')).id, { amount: 10, payment_date: '2026-11-01' });
    await api.post(w.owner, '/v1/deposits', { bank_account_id: account.bank_account_id, deposit_date: '2026-11-02', payment_ids: [deposited.id] });
    const refunded = await pay(w, (await confirmedDocument(api, w, '10')).id, { amount: 10 });
    await api.post(w.owner, `/v1/payments/${refunded.id}/refunds`, { amount: 1 });
    const credit = await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 5, route_unapplied: 'credit' });
    expect((await voidPayment(w, credit.data.id)).status).toBe(200);
    const pending = await api.post(w.owner, '/v1/payments/multi-invoice-apply', {
      account_id: w.account.id,
      amount: 5,
      route_unapplied: 'credit',
      payment_method: 'ach',
    });
    const stranger = await cashWorld(api);
    const theirs = await api.post(stranger.owner, '/v1/payments/multi-invoice-apply', {
      account_id: stranger.account.id,
      amount: 5,
      route_unapplied: 'credit',
    });
    const before = await tenantRowCounts(w.owner.entity.id);
    const cases: [string, number, string][] = [
      [deposited.id, 409, 'payment_deposited'],
      [refunded.id, 409, 'payment_refunded'],
      [credit.data.id, 409, 'payment_voided'],
      [pending.data.id, 409, 'payment_pending_clearance'],
      [theirs.data.id, 404, 'not_found'],
      [newId(), 404, 'not_found'],
    ];
    for (const [id, status, code] of cases) {
      const response = await voidPayment(w, id);
      expect([response.status, response.error.code, response.error.param]).toEqual([status, code, 'payment_id']);
    }
    const deposit = await voidPayment(w, deposited.id);
    expect(deposit.error.hint).toContain('refund');
    const invoice = await confirmedDocument(api, w, '3');
    const countsBefore = await tenantRowCounts(w.owner.entity.id);
    const apply = await api.request('POST', `/v1/payments/${credit.data.id}/apply`, {
      key: w.owner.secret,
      body: { applications: [{ order_id: invoice.id, amount_applied: 1 }] },
    });
    expect(apply.error).toMatchObject({ code: 'payment_voided', param: 'payment_id', current_status: 'voided' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(countsBefore);
    expect(before.refunds).toBe(countsBefore.refunds);
    await expectArTies(w.owner);
  });

  it('a void racing a deposit of the same payment: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const w = await cashWorld(api);
      const account = await bankAccount(api, w.owner);
      const invoice = await confirmedDocument(api, w, '25');
      const payment = await pay(w, invoice.id, { amount: 25, payment_date: '2026-11-01' });
      const [voided, deposit] = await Promise.all([
        voidPayment(w, payment.id),
        api.request('POST', '/v1/deposits', {
          key: w.owner.secret,
          body: { bank_account_id: account.bank_account_id, deposit_date: '2026-11-02', payment_ids: [payment.id] },
        }),
      ]);
      const outcomes = [voided.status, deposit.status].sort();
      expect(outcomes).toEqual(voided.status === 200 ? [200, 409] : [201, 409]);
      if (voided.status === 200) expect(deposit.error).toMatchObject({ code: 'payment_voided', param: 'payment_ids[0]' });
      else expect(voided.error).toMatchObject({ code: 'payment_deposited' });
      await expectArTies(w.owner);
    }
  });
});
