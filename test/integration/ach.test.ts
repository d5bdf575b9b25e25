/** ACH clearance: pending ACH payments, awaiting_ach_clearance, POST /v1/payments/{payment_id}/clear and /fail. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { bankAccount, cashWorld, confirmedDocument, expectArTies, glBalance } from '../support/cash-fixtures';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { getOrder } from '../support/worlds';

const api = setupTestApi();

describe('ACH payments', () => {
  it('an ACH payment is pending: nothing posts, the invoice awaits clearance and refuses payments, lifecycle moves, refunds, voids and deposits; clearing posts and returns it', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '100');
    const response = await api.request('POST', `/v1/orders/${invoice.id}/payments`, {
      key: w.owner.secret,
      body: { amount: 100, payment_method: 'ach', payment_date: '2026-11-10' },
    });
    expect(response.status).toBe(201);
    const payment = response.body;
    expect(payment).toMatchObject({ status: 'pending', journal_entry_id: null, payment_method: 'ach', cleared_at: null });
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({
      order_status: 'awaiting_ach_clearance',
      payment_status: 'unpaid',
      amount_paid: 0,
      balance_due: 100,
    });
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    expect((await expectArTies(w.owner)).gl).toBe('100');

    const before = await tenantRowCounts(w.owner.entity.id);
    const another = await api.request('POST', `/v1/orders/${invoice.id}/payments`, { key: w.owner.secret, body: { amount: 1 } });
    expect(another.error).toMatchObject({ code: 'order_not_payable', payable_amount: 0, current_status: 'awaiting_ach_clearance' });
    const voidOrder = await api.request('POST', `/v1/orders/${invoice.id}/void`, { key: w.owner.secret, body: {} });
    expect(voidOrder.status).toBe(409);
    expect(voidOrder.error).toMatchObject({ code: 'order_invalid_transition', current_status: 'awaiting_ach_clearance' });
    const refund = await api.request('POST', `/v1/payments/${payment.id}/refunds`, { key: w.owner.secret, body: { amount: 1 } });
    expect(refund.error).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_id' });
    const voided = await api.request('POST', `/v1/payments/${payment.id}/void`, { key: w.owner.secret, body: {} });
    expect(voided.error).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_id' });
    const deposit = await api.request('POST', '/v1/deposits', {
      key: w.owner.secret,
      body: { bank_account_id: (await bankAccount(api, w.owner)).bank_account_id, deposit_date: '2026-11-20', payment_ids: [payment.id] },
    });
    expect(deposit.status).toBe(409);
    expect(deposit.error).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_ids[0]' });
    const preview = await api.request('POST', '/v1/deposits/preview', { key: w.owner.secret, body: { payment_ids: [payment.id] } });
    expect(preview.error).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_ids[0]' });
    const early = await api.request('POST', `/v1/payments/${payment.id}/clear`, { key: w.owner.secret, body: { cleared_date: '2026-11-09' } });
    expect(early.error).toMatchObject({ code: 'parameter_invalid', param: 'cleared_date' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);

    const cleared = await api.request('POST', `/v1/payments/${payment.id}/clear`, { key: w.owner.secret, body: { cleared_date: '2026-11-13' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ status: 'undeposited', cleared_at: expect.any(String), journal_entry_id: expect.any(String) });
    const entry = await api.get(w.owner, `/v1/journal-entries/${cleared.body.journal_entry_id}`);
    expect(entry).toMatchObject({ source_type: 'payment', source_id: payment.id, entry_date: '2026-11-13' });
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'confirmed', payment_status: 'paid', amount_paid: 100, balance_due: 0 });
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('100');
    expect((await expectArTies(w.owner)).gl).toBe('0');
    expect(api.published.some((e) => e.type === 'payment.cleared' && e.data.object.id === payment.id)).toBe(true);

    const twice = await api.request('POST', `/v1/payments/${payment.id}/clear`, { key: w.owner.secret, body: {} });
    expect(twice.error).toMatchObject({ code: 'payment_not_pending', param: 'payment_id', current_status: 'undeposited' });
    const deposited = await api.request('POST', '/v1/deposits', {
      key: w.owner.secret,
      body: { bank_account_id: (await bankAccount(api, w.owner)).bank_account_id, deposit_date: '2026-11-20', payment_ids: [payment.id] },
    });
    expect(deposited.status).toBe(201);
  });

  it('a failed (returned) ACH payment posts nothing and returns the document to where it was (here: on hold)', async () => {
    const w = await cashWorld(api);
    const order = await confirmedDocument(api, w, '60', 'sales_order');
    expect((await api.request('POST', `/v1/orders/${order.id}/hold`, { key: w.owner.secret, body: { hold_type: 'credit' } })).status).toBe(200);
    const payment = (await api.request('POST', `/v1/orders/${order.id}/payments`, { key: w.owner.secret, body: { amount: 60, payment_method: 'ach' } })).body;
    expect(await getOrder(api, w.owner, order.id)).toMatchObject({ order_status: 'awaiting_ach_clearance' });
    const failed = await api.request('POST', `/v1/payments/${payment.id}/fail`, { key: w.owner.secret, body: { failure_reason: 'R01 insufficient funds' } });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'R01 insufficient funds', failed_at: expect.any(String), journal_entry_id: null });
    expect(await getOrder(api, w.owner, order.id)).toMatchObject({ order_status: 'on_hold', payment_status: 'unpaid', amount_paid: 0, balance_due: 60 });
    expect(api.published.some((e) => e.type === 'payment.failed' && e.data.object.id === payment.id)).toBe(true);
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    await expectArTies(w.owner);

    const before = await tenantRowCounts(w.owner.entity.id);
    const again = await api.request('POST', `/v1/payments/${payment.id}/fail`, { key: w.owner.secret, body: {} });
    expect(again.error).toMatchObject({ code: 'payment_not_pending', current_status: 'failed' });
    const clear = await api.request('POST', `/v1/payments/${payment.id}/clear`, { key: w.owner.secret, body: {} });
    expect(clear.error).toMatchObject({ code: 'payment_not_pending', current_status: 'failed' });
    const deposit = await api.request('POST', '/v1/deposits', {
      key: w.owner.secret,
      body: { bank_account_id: (await bankAccount(api, w.owner)).bank_account_id, deposit_date: '2026-11-20', payment_ids: [payment.id] },
    });
    expect(deposit.error).toMatchObject({ code: 'payment_voided', param: 'payment_ids[0]', current_status: 'failed' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
    // Back where it was, the order can be paid and released again.
    expect((await api.request('POST', `/v1/orders/${order.id}/release`, { key: w.owner.secret, body: {} })).status).toBe(200);
  });

  it('a multi-invoice ACH payment holds every invoice it pays; clearing pays them all', async () => {
    const w = await cashWorld(api);
    const a = await confirmedDocument(api, w, '30');
    const b = await confirmedDocument(api, w, '20');
    const result = await api.request('POST', '/v1/payments/multi-invoice-apply', {
      key: w.owner.secret,
      body: { account_id: w.account.id, amount: 50, auto_apply: true, payment_method: 'ach' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ status: 'pending', journal_entry_id: null, applied_count: 2 });
    for (const invoice of [a, b]) expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'awaiting_ach_clearance' });
    // Invoices awaiting clearance take nothing from auto_apply.
    const more = await api.request('POST', '/v1/payments/multi-invoice-apply', {
      key: w.owner.secret,
      body: { account_id: w.account.id, amount: 5, auto_apply: true },
    });
    expect(more.error).toMatchObject({ code: 'parameter_missing', param: 'route_unapplied' });
    await expectArTies(w.owner);
    expect((await api.request('POST', `/v1/payments/${result.body.data.id}/clear`, { key: w.owner.secret, body: {} })).status).toBe(200);
    for (const invoice of [a, b]) {
      expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'confirmed', payment_status: 'paid', balance_due: 0 });
    }
    expect(await api.get(w.owner, `/v1/payments/${result.body.data.id}`)).toMatchObject({ status: 'undeposited' });
    expect((await expectArTies(w.owner)).gl).toBe('0');
  });

  it("another entity's or an unknown payment is 404 on clear and fail, writing nothing", async () => {
    const w = await cashWorld(api);
    const stranger = await cashWorld(api);
    const theirs = await api.post(stranger.owner, '/v1/payments/multi-invoice-apply', {
      account_id: stranger.account.id,
      amount: 5,
      route_unapplied: 'credit',
      payment_method: 'ach',
    });
    const before = await tenantRowCounts(w.owner.entity.id);
    for (const action of ['clear', 'fail'] as const) {
      for (const id of [theirs.data.id, newId()]) {
        const response = await api.request('POST', `/v1/payments/${id}/${action}`, { key: w.owner.secret, body: {} });
        expect([response.status, response.error.code, response.error.param]).toEqual([404, 'not_found', 'payment_id']);
      }
    }
    const bad = await api.request('POST', `/v1/payments/${theirs.data.id}/clear`, { key: w.owner.secret, body: { cleared_date: 'yesterday' } });
    expect([bad.status, bad.error.param]).toEqual([400, 'cleared_date']);
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
    expect(await api.get(stranger.owner, `/v1/payments/${theirs.data.id}`)).toMatchObject({ status: 'pending' });
  });

  it('concurrent clear and fail of one ACH payment: exactly one wins', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '45');
    const payment = (await api.request('POST', `/v1/orders/${invoice.id}/payments`, { key: w.owner.secret, body: { amount: 45, payment_method: 'ach' } })).body;
    const [clear, fail] = await Promise.all([
      api.request('POST', `/v1/payments/${payment.id}/clear`, { key: w.owner.secret, body: {} }),
      api.request('POST', `/v1/payments/${payment.id}/fail`, { key: w.owner.secret, body: {} }),
    ]);
    expect([clear.status, fail.status].sort()).toEqual([200, 409]);
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'confirmed' });
    await expectArTies(w.owner);
  });
});
