/** Deposit reads (GET /v1/deposits/{id}, GET /v1/deposits) and deposits of refunded, voided and pending receipts. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { arIdentity, bankAccount, cashWorld, confirmedDocument, glBalance, type CashWorld } from '../support/cash-fixtures';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

async function receipt(w: CashWorld, amount: number, paymentDate = '2026-11-01'): Promise<string> {
  const invoice = await confirmedDocument(api, w, amount);
  return (await api.post(w.owner, `/v1/orders/${invoice.id}/payments`, { amount, payment_date: paymentDate })).id;
}

const deposit = async (w: CashWorld, paymentIds: string[], depositDate: string, bank?: string) =>
  api.post(w.owner, '/v1/deposits', {
    bank_account_id: bank ?? (await bankAccount(api, w.owner)).bank_account_id,
    deposit_date: depositDate,
    payment_ids: paymentIds,
  });

describe('GET /v1/deposits/{id}', () => {
  it('returns the deposit with its lines; expand[]=payments adds the payments; another entity gets 404', async () => {
    const w = await cashWorld(api);
    const ids = [await receipt(w, 12), await receipt(w, 8)];
    const made = await deposit(w, ids, '2026-11-03');
    const response = await api.request('GET', `/v1/deposits/${made.id}`, { key: w.owner.secret });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: made.id,
      object: 'deposit',
      status: 'posted',
      total_amount: 20,
      line_count: 2,
      deposit_date: '2026-11-03',
      payment_ids: ids,
      lines: [
        { id: expect.any(String), payment_id: ids[0], amount: 12 },
        { id: expect.any(String), payment_id: ids[1], amount: 8 },
      ],
    });
    expect(response.body.payments).toBeUndefined();
    const expanded = await api.request('GET', `/v1/deposits/${made.id}`, { key: w.owner.secret, query: { 'expand[]': 'payments' } });
    expect(expanded.body.payments!.map((p) => [p.id, p.status, p.deposit_id])).toEqual(ids.map((id) => [id, 'deposited', made.id]));
    const unknownExpand = await api.request('GET', `/v1/deposits/${made.id}`, { key: w.owner.secret, query: { 'expand[]': 'bank' } });
    expect(unknownExpand.error).toMatchObject({ code: 'expand_error', param: 'expand[0]' });

    const stranger = await cashWorld(api);
    expect((await api.request('GET', `/v1/deposits/${made.id}`, { key: stranger.owner.secret })).error).toMatchObject({ code: 'not_found', param: 'id' });
    expect((await api.request('GET', `/v1/deposits/${newId()}`, { key: w.owner.secret })).status).toBe(404);
    // accounting:read is enough, like E3.
    const reader = await api.post(w.owner, `/v1/entities/${w.owner.entity.id}/api-keys`, { scopes: ['accounting:read'] });
    expect((await api.request('GET', `/v1/deposits/${made.id}`, { key: reader.secret })).status).toBe(200);
    expect(ALL_SCOPES).toContain('accounting:read');
  });
});

describe('GET /v1/deposits', () => {
  it('lists newest first with keyset pages, filtered by bank account and deposit date range', async () => {
    const w = await cashWorld(api);
    const savings = await api.post(w.owner, '/v1/gl-accounts', { code: '1010', name: 'Savings', type: 'asset', subtype: 'bank' });
    const first = await deposit(w, [await receipt(w, 1)], '2026-11-02');
    const second = await deposit(w, [await receipt(w, 2)], '2026-11-05');
    const third = await deposit(w, [await receipt(w, 3)], '2026-11-09', savings.bank_account_id!);

    const all = await api.request('GET', '/v1/deposits', { key: w.owner.secret });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ object: 'list', has_more: false });
    expect(all.body.data.map((d) => d.id)).toEqual([third.id, second.id, first.id]);
    expect(all.body.data[0].lines).toHaveLength(1);

    const page1 = await api.request('GET', '/v1/deposits', { key: w.owner.secret, query: { limit: '2' } });
    expect(page1.body.has_more).toBe(true);
    expect(page1.body.data.map((d) => d.id)).toEqual([third.id, second.id]);
    const page2 = await api.request('GET', '/v1/deposits', { key: w.owner.secret, query: { limit: '2', starting_after: second.id } });
    expect(page2.body.data.map((d) => d.id)).toEqual([first.id]);
    expect(page2.body.has_more).toBe(false);

    const bySavings = await api.request('GET', '/v1/deposits', { key: w.owner.secret, query: { bank_account_id: savings.bank_account_id! } });
    expect(bySavings.body.data.map((d) => d.id)).toEqual([third.id]);
    const range = await api.request('GET', '/v1/deposits', { key: w.owner.secret, query: { deposit_date_gte: '2026-11-03', deposit_date_lte: '2026-11-05' } });
    expect(range.body.data.map((d) => d.id)).toEqual([second.id]);
    const expanded = await api.request('GET', '/v1/deposits', { key: w.owner.secret, query: { 'expand[]': 'data.payments', limit: '1' } });
    expect(expanded.body.data[0].payments).toHaveLength(1);
    const bad = await api.request('GET', '/v1/deposits', { key: w.owner.secret, query: { deposit_date_gte: '11/03/2026' } });
    expect(bad.error).toMatchObject({ code: 'parameter_invalid', param: 'deposit_date_gte' });

    const stranger = await cashWorld(api);
    expect((await api.request('GET', '/v1/deposits', { key: stranger.owner.secret })).body.data).toEqual([]);
  });
});

describe('POST /v1/deposits with refunded, voided and pending receipts', () => {
  it('deposits a receipt net of the refunds paid out of undeposited funds; refuses fully refunded, voided and pending ones, writing nothing', async () => {
    const w = await cashWorld(api);
    const partly = await receipt(w, 50);
    await api.post(w.owner, `/v1/payments/${partly}/refunds`, { amount: '12.50', refund_date: '2026-11-02' });
    const fully = await receipt(w, 10);
    await api.post(w.owner, `/v1/payments/${fully}/refunds`, { refund_date: '2026-11-02' });
    const voided = await receipt(w, 7);
    await api.post(w.owner, `/v1/payments/${voided}/void`, {}, 200);
    const pending = (
      await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: w.account.id, amount: 5, route_unapplied: 'credit', payment_method: 'ach' })
    ).data.id;

    const bank = (await bankAccount(api, w.owner)).bank_account_id;
    const before = await tenantRowCounts(w.owner.entity.id);
    const cases: [string, number, string][] = [
      [fully, 409, 'payment_refunded'],
      [voided, 409, 'payment_voided'],
      [pending, 409, 'payment_pending_clearance'],
    ];
    for (const [id, status, code] of cases) {
      const response = await api.request('POST', '/v1/deposits', {
        key: w.owner.secret,
        body: { bank_account_id: bank, deposit_date: '2026-11-03', payment_ids: [partly, id] },
      });
      expect([response.status, response.error.code, response.error.param]).toEqual([status, code, 'payment_ids[1]']);
    }
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);

    const preview = await api.request('POST', '/v1/deposits/preview', { key: w.owner.secret, body: { payment_ids: [partly] } });
    expect(preview.body).toEqual({ total_amount: 37.5, line_count: 1 });
    const made = await deposit(w, [partly], '2026-11-03', bank);
    expect(made).toMatchObject({ total_amount: 37.5, lines: [{ payment_id: partly, amount: 37.5 }] });
    expect(await glBalance(w.owner, 'undeposited_funds')).toBe('0');
    expect(await glBalance(w.owner, 'bank')).toBe('37.5');
    const identity = await arIdentity(w.owner);
    expect(identity.gl).toBe(identity.subledger);
    expect(identity.creditsGl).toBe(identity.creditsSubledger);
  });
});
