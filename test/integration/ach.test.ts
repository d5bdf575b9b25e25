/** ACH clearance: pending ACH payments, awaiting_ach_clearance, POST /v1/payments/{payment_id}/clear and /fail. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { arIdentity, cashWorld, confirmedDocument, created, getOrder, getPayment, glBalance, type CashWorld } from '../support/cash-fixtures';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

const post = (w: CashWorld, path: string, body: Record<string, unknown> = {}) => api.request('POST', path, { key: w.owner.secret, body });

async function expectArInBalance(w: CashWorld) {
  const identity = await arIdentity(w.owner);
  expect(identity.gl).toBe(identity.subledger);
  expect(identity.creditsGl).toBe(identity.creditsSubledger);
  return identity;
}

async function bankAccountId(w: CashWorld): Promise<string> {
  const accounts = (await api.request('GET', '/v1/gl-accounts', { key: w.owner.secret, query: { limit: '100' } })).body.data;
  return accounts.find((a: any) => a.system_key === 'bank').bank_account_id;
}

describe('ACH payments', () => {
  it('an ACH payment is pending: nothing posts, the invoice awaits clearance and refuses payments, lifecycle moves, refunds, voids and deposits; clearing posts and returns it', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '100');
    const response = await post(w, `/v1/orders/${invoice.id}/payments`, { amount: 100, payment_method: 'ach', payment_date: '2026-11-10' });
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
    expect((await expectArInBalance(w)).gl).toBe('100');

    const before = await tenantRowCounts(w.owner.entity.id);
    const another = await post(w, `/v1/orders/${invoice.id}/payments`, { amount: 1 });
    expect(another.body).toMatchObject({ code: 'order_not_payable', payable_amount: 0, current_status: 'awaiting_ach_clearance' });
    const voidOrder = await post(w, `/v1/orders/${invoice.id}/void`);
    expect(voidOrder.status).toBe(409);
    expect(voidOrder.body).toMatchObject({ code: 'order_invalid_transition', current_status: 'awaiting_ach_clearance' });
    const refund = await post(w, `/v1/payments/${payment.id}/refunds`, { amount: 1 });
    expect(refund.body).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_id' });
    const voided = await post(w, `/v1/payments/${payment.id}/void`);
    expect(voided.body).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_id' });
    const deposit = await post(w, '/v1/deposits', { bank_account_id: await bankAccountId(w), deposit_date: '2026-11-20', payment_ids: [payment.id] });
    expect(deposit.status).toBe(409);
    expect(deposit.body).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_ids[0]' });
    const preview = await post(w, '/v1/deposits/preview', { payment_ids: [payment.id] });
    expect(preview.body).toMatchObject({ code: 'payment_pending_clearance', param: 'payment_ids[0]' });
    const early = await post(w, `/v1/payments/${payment.id}/clear`, { cleared_date: '2026-11-09' });
    expect(early.body).toMatchObject({ code: 'parameter_invalid', param: 'cleared_date' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);

    const cleared = await post(w, `/v1/payments/${payment.id}/clear`, { cleared_date: '2026-11-13' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ status: 'undeposited', cleared_at: expect.any(String), journal_entry_id: expect.any(String) });
    const entry = (await api.request('GET', `/v1/journal-entries/${cleared.body.journal_entry_id}`, { key: w.owner.secret })).body;
    expect(entry).toMatchObject({ source_type: 'payment', source_id: payment.id, entry_date: '2026-11-13' });
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'confirmed', payment_status: 'paid', amount_paid: 100, balance_due: 0 });
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('100');
    expect((await expectArInBalance(w)).gl).toBe('0');
    expect(api.bus.published.some((e: any) => e.type === 'payment.cleared' && e.data.object.id === payment.id)).toBe(true);

    const twice = await post(w, `/v1/payments/${payment.id}/clear`);
    expect(twice.body).toMatchObject({ code: 'payment_not_pending', param: 'payment_id', current_status: 'undeposited' });
    const deposited = await post(w, '/v1/deposits', { bank_account_id: await bankAccountId(w), deposit_date: '2026-11-20', payment_ids: [payment.id] });
    expect(deposited.status).toBe(201);
  });

  it('a failed (returned) ACH payment posts nothing and returns the document to where it was (here: on hold)', async () => {
    const w = await cashWorld(api);
    const order = await confirmedDocument(api, w, '60', 'sales_order');
    expect((await post(w, `/v1/orders/${order.id}/hold`, { hold_type: 'credit' })).status).toBe(200);
    const payment = (await post(w, `/v1/orders/${order.id}/payments`, { amount: 60, payment_method: 'ach' })).body;
    expect(await getOrder(api, w.owner, order.id)).toMatchObject({ order_status: 'awaiting_ach_clearance' });
    const failed = await post(w, `/v1/payments/${payment.id}/fail`, { failure_reason: 'R01 insufficient funds' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'R01 insufficient funds', failed_at: expect.any(String), journal_entry_id: null });
    expect(await getOrder(api, w.owner, order.id)).toMatchObject({ order_status: 'on_hold', payment_status: 'unpaid', amount_paid: 0, balance_due: 60 });
    expect(api.bus.published.some((e: any) => e.type === 'payment.failed' && e.data.object.id === payment.id)).toBe(true);
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    await expectArInBalance(w);

    const before = await tenantRowCounts(w.owner.entity.id);
    const again = await post(w, `/v1/payments/${payment.id}/fail`);
    expect(again.body).toMatchObject({ code: 'payment_not_pending', current_status: 'failed' });
    const clear = await post(w, `/v1/payments/${payment.id}/clear`);
    expect(clear.body).toMatchObject({ code: 'payment_not_pending', current_status: 'failed' });
    const deposit = await post(w, '/v1/deposits', { bank_account_id: await bankAccountId(w), deposit_date: '2026-11-20', payment_ids: [payment.id] });
    expect(deposit.body).toMatchObject({ code: 'payment_voided', param: 'payment_ids[0]', current_status: 'failed' });
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
    // Back where it was, the order can be paid and released again.
    expect((await post(w, `/v1/orders/${order.id}/release`)).status).toBe(200);
  });

  it('a multi-invoice ACH payment holds every invoice it pays; clearing pays them all', async () => {
    const w = await cashWorld(api);
    const a = await confirmedDocument(api, w, '30');
    const b = await confirmedDocument(api, w, '20');
    const result = await post(w, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 50, auto_apply: true, payment_method: 'ach' });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ status: 'pending', journal_entry_id: null, applied_count: 2 });
    for (const invoice of [a, b]) expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'awaiting_ach_clearance' });
    // Invoices awaiting clearance take nothing from auto_apply.
    const more = await post(w, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 5, auto_apply: true });
    expect(more.body).toMatchObject({ code: 'parameter_missing', param: 'route_unapplied' });
    await expectArInBalance(w);
    expect((await post(w, `/v1/payments/${result.body.data.id}/clear`)).status).toBe(200);
    for (const invoice of [a, b]) {
      expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'confirmed', payment_status: 'paid', balance_due: 0 });
    }
    expect(await getPayment(api, w.owner, result.body.data.id)).toMatchObject({ status: 'undeposited' });
    expect((await expectArInBalance(w)).gl).toBe('0');
  });

  it("another entity's or an unknown payment is 404 on clear and fail, writing nothing", async () => {
    const w = await cashWorld(api);
    const stranger = await cashWorld(api);
    const theirs = await created(api, stranger.owner, '/v1/payments/multi-invoice-apply', {
      account_id: stranger.account.id,
      amount: 5,
      route_unapplied: 'credit',
      payment_method: 'ach',
    });
    const before = await tenantRowCounts(w.owner.entity.id);
    for (const action of ['clear', 'fail']) {
      for (const id of [theirs.data.id, newId()]) {
        const response = await post(w, `/v1/payments/${id}/${action}`);
        expect([response.status, response.body.code, response.body.param]).toEqual([404, 'not_found', 'payment_id']);
      }
    }
    const bad = await post(w, `/v1/payments/${theirs.data.id}/clear`, { cleared_date: 'yesterday' });
    expect([bad.status, bad.body.param]).toEqual([400, 'cleared_date']);
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);
    expect(await getPayment(api, stranger.owner, theirs.data.id)).toMatchObject({ status: 'pending' });
  });

  it('concurrent clear and fail of one ACH payment: exactly one wins', async () => {
    const w = await cashWorld(api);
    const invoice = await confirmedDocument(api, w, '45');
    const payment = (await post(w, `/v1/orders/${invoice.id}/payments`, { amount: 45, payment_method: 'ach' })).body;
    const [clear, fail] = await Promise.all([post(w, `/v1/payments/${payment.id}/clear`), post(w, `/v1/payments/${payment.id}/fail`)]);
    expect([clear.status, fail.status].sort()).toEqual([200, 409]);
    expect(await getOrder(api, w.owner, invoice.id)).toMatchObject({ order_status: 'confirmed' });
    await expectArInBalance(w);
  });
});
