/** AP payments (POST /v1/ap-payments and its get, list and void), their concurrency, and AP aging (E23). */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { apWorld } from '../support/ap-fixtures';
import { glBalance } from '../support/cash-fixtures';
import { eventTypesOf, setupTestApi } from '../support/harness';
import { closedPeriod, entryLines, userWithKey } from '../support/ledger-helpers';

const api = setupTestApi();
const PAYMENTS = '/v1/ap-payments';

describe('POST /v1/ap-payments', () => {
  it('pays several bills of one vendor from a bank account, credits first, and posts debit AP, credit the bank (and the credit applications)', async () => {
    const w = await apWorld(api);
    const a = await w.postedBill(60, { bill_date: '2026-06-01' });
    const b = await w.postedBill(40, { bill_date: '2026-06-01' });
    const credit = await w.credit(25, { credit_date: '2026-06-01' });
    const payment = await api.post(w.owner, PAYMENTS, {
      bills: [
        { bill_id: a.id, amount: 60 },
        { bill_id: b.id, amount: 15 },
      ],
      vendor_credit_ids: [credit.id],
      bank_account_id: w.bankAccountId,
      method: 'wire',
      reference: 'WIRE-77',
      payment_date: '2026-06-10',
    });
    expect(payment).toMatchObject({
      object: 'ap_payment',
      payment_number: 'APP-000001',
      vendor_id: w.vendor.id,
      method: 'wire',
      reference: 'WIRE-77',
      payment_date: '2026-06-10',
      amount: 50,
      credit_total: 25,
      total_applied: 75,
      status: 'posted',
      vendor_credit_ids: [credit.id],
    });
    // The credit covers the first bill's first 25; the rest is cash.
    expect(payment.applications.map((x) => [x.bill_id, x.vendor_credit_id, x.amount])).toEqual([
      [a.id, credit.id, 25],
      [a.id, null, 35],
      [b.id, null, 15],
    ]);
    expect(await api.get(w.owner, `/v1/vendor-bills/${a.id}`)).toMatchObject({ status: 'paid', amount_paid: 60, balance_due: 0 });
    expect(await api.get(w.owner, `/v1/vendor-bills/${b.id}`)).toMatchObject({ status: 'partially_paid', amount_paid: 15, balance_due: 25 });
    const { entry, lines } = await entryLines(api, w.owner, payment.journal_entry_id);
    expect(entry).toMatchObject({ entry_date: '2026-06-10', source_type: 'ap_payment', source_id: payment.id });
    expect(lines).toEqual([
      { key: 'accounts_payable', debit: 60, credit: 0 },
      { key: 'accounts_payable', debit: 15, credit: 0 },
      { key: 'bank', debit: 0, credit: 50 },
      { key: 'vendor_returns_receivable', debit: 0, credit: 25 },
      { key: 'vendor_credits', debit: 25, credit: 0 },
      { key: 'cost_of_goods_sold', debit: 0, credit: 25 },
    ]);
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-25');
    expect(await glBalance(w.owner, 'vendor_credits')).toBe('0');
    expect(await glBalance(w.owner, 'vendor_returns_receivable')).toBe('0');
    expect(await eventTypesOf(w.owner, payment.id)).toContain('ap_payment.created');
    expect((await eventTypesOf(w.owner, a.id)).filter((t) => t.startsWith('vendor_bill.'))).toContain('vendor_bill.paid');
    // The bill lists its payments.
    const bill = await api.get(w.owner, `/v1/vendor-bills/${a.id}`, { 'expand[]': ['payments'] });
    expect((bill.payments as { id: string }[]).map((p) => p.id)).toEqual([payment.id]);
  });

  it('never overpays a bill: 422 vendor_bill_overpayment naming the bill, and nothing is written', async () => {
    const w = await apWorld(api);
    const a = await w.postedBill(10);
    const b = await w.postedBill(20);
    const refusal = await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      {
        bills: [
          { bill_id: a.id, amount: 10 },
          { bill_id: b.id, amount: 20.01 },
        ],
        bank_account_id: w.bankAccountId,
        method: 'check',
      },
      422,
      'vendor_bill_overpayment',
      'bills[1].amount',
    );
    expect(refusal.hint).toContain(b.bill_number);
    expect(await api.get(w.owner, `/v1/vendor-bills/${a.id}`)).toMatchObject({ status: 'open', amount_paid: 0 });
  });

  it('never applies a credit beyond its remaining amount: what it cannot cover is cash, and a spent credit is 422 naming it', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(30);
    const credit = await w.credit(10);
    const noCash = await api.request('POST', PAYMENTS, {
      key: w.owner.secret,
      body: { bills: [{ bill_id: bill.id, amount: 30 }], vendor_credit_ids: [credit.id], method: 'check' },
    });
    expect(noCash.status).toBe(400);
    expect(noCash.error).toMatchObject({ code: 'parameter_missing', param: 'bank_account_id' });
    await api.post(w.owner, PAYMENTS, { bills: [{ bill_id: bill.id, amount: 10 }], vendor_credit_ids: [credit.id], method: 'check' });
    const refusal = await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      { bills: [{ bill_id: bill.id, amount: 5 }], vendor_credit_ids: [credit.id], bank_account_id: w.bankAccountId, method: 'check' },
      422,
      'vendor_credit_not_applicable',
      'vendor_credit_ids[0]',
    );
    expect(refusal.hint).toContain(credit.credit_number);
    expect(await api.get(w.owner, `/v1/vendor-credits/${credit.id}`)).toMatchObject({ remaining_amount: '0.0000', status: 'applied' });
  });

  it('refuses bills that are not payable, of another vendor or entity, duplicates, and credits of another vendor', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(10);
    const draft = await api.post(w.owner, '/v1/vendor-bills', { vendor_id: w.vendor.id, lines: [{ type: 'expense', account_id: w.expense, amount: 5 }] });
    const base = { bank_account_id: w.bankAccountId, method: 'check' as const };
    await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      { ...base, bills: [{ bill_id: draft.id, amount: 1 }] },
      422,
      'vendor_bill_not_payable',
      'bills[0].bill_id',
    );
    const other = await w.newVendor();
    const otherBill = await api.post(w.owner, '/v1/vendor-bills', { vendor_id: other.id, lines: [{ type: 'expense', account_id: w.expense, amount: 5 }] });
    await api.post(w.owner, `/v1/vendor-bills/${otherBill.id}/post`, { skip_permission_check: true }, 200);
    await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      {
        ...base,
        bills: [
          { bill_id: bill.id, amount: 1 },
          { bill_id: otherBill.id, amount: 1 },
        ],
      },
      422,
      'vendor_bill_not_payable',
      'bills[1].bill_id',
    );
    await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      {
        ...base,
        bills: [
          { bill_id: bill.id, amount: 1 },
          { bill_id: bill.id, amount: 1 },
        ],
      },
      400,
      'parameter_invalid',
      'bills[1].bill_id',
    );
    await api.expectRefusal(w.owner, 'POST', PAYMENTS, { ...base, bills: [{ bill_id: newId(), amount: 1 }] }, 404, 'not_found', 'bills[0].bill_id');
    const stranger = await apWorld(api);
    const strangerBill = await stranger.postedBill(5);
    await api.expectRefusal(w.owner, 'POST', PAYMENTS, { ...base, bills: [{ bill_id: strangerBill.id, amount: 1 }] }, 404, 'not_found', 'bills[0].bill_id');
    const otherCredit = await api.post(w.owner, '/v1/vendor-credits', { vendor_id: other.id, amount: 1 });
    await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      { ...base, bills: [{ bill_id: bill.id, amount: 1 }], vendor_credit_ids: [otherCredit.id] },
      422,
      'vendor_credit_not_applicable',
      'vendor_credit_ids[0]',
    );
    await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      { ...base, bills: [{ bill_id: bill.id, amount: 1 }], method: 'cash' as 'check' },
      400,
      'parameter_invalid',
      'method',
    );
    await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      { ...base, bills: [{ bill_id: bill.id, amount: 1 }], bank_account_id: newId() },
      404,
      'not_found',
      'bank_account_id',
    );
    // A bill posted before January closed; paying it in the closed month is refused.
    const early = await api.post(w.owner, '/v1/vendor-bills', {
      vendor_id: w.vendor.id,
      bill_date: '2025-12-20',
      lines: [{ type: 'expense', account_id: w.expense, amount: 5 }],
    });
    await api.post(w.owner, `/v1/vendor-bills/${early.id}/post`, { skip_permission_check: true }, 200);
    await closedPeriod(api, w.owner, { period_name: 'Jan 2026', start_date: '2026-01-01', end_date: '2026-01-31' });
    await api.expectRefusal(
      w.owner,
      'POST',
      PAYMENTS,
      { ...base, bills: [{ bill_id: early.id, amount: 1 }], payment_date: '2026-01-15' },
      422,
      'period_closed',
      'payment_date',
    );
  });

  it('takes an Idempotency-Key: a replay answers the same payment and pays once', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(10);
    const body = { bills: [{ bill_id: bill.id, amount: 4 }], bank_account_id: w.bankAccountId, method: 'check' as const };
    const headers = { 'Idempotency-Key': `pay-${newId()}` };
    const first = await api.request('POST', PAYMENTS, { key: w.owner.secret, body, headers });
    const again = await api.request('POST', PAYMENTS, { key: w.owner.secret, body, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect((await api.get(w.owner, `/v1/vendor-bills/${bill.id}`)).amount_paid).toBe(4);
  });
});

describe('reading and voiding AP payments', () => {
  it('GET returns the payment; another entity gets 404; the list filters by vendor, bill and date', async () => {
    const w = await apWorld(api);
    const a = await w.postedBill(10, { bill_date: '2026-02-01' });
    const b = await w.postedBill(10, { bill_date: '2026-02-01' });
    const pay = (billId: string, date: string) =>
      api.post(w.owner, PAYMENTS, { bills: [{ bill_id: billId, amount: 2 }], bank_account_id: w.bankAccountId, method: 'ach', payment_date: date });
    const p1 = await pay(a.id, '2026-03-01');
    const p2 = await pay(b.id, '2026-04-01');
    const p3 = await pay(a.id, '2026-05-01');
    expect((await api.get(w.owner, `${PAYMENTS}/${p1.id}`)).applications[0]).toMatchObject({ bill_id: a.id, amount: 2, applied_on: '2026-03-01' });
    const stranger = await api.newEntity();
    const hidden = await api.request('GET', `${PAYMENTS}/${p1.id}`, { key: stranger.secret });
    expect([hidden.status, hidden.error.code]).toEqual([404, 'not_found']);
    const ids = async (query: Record<string, string>) => (await api.get(w.owner, PAYMENTS, query)).data.map((p) => p.id);
    expect(await ids({ vendor_id: w.vendor.id })).toEqual([p3.id, p2.id, p1.id]);
    expect(await ids({ bill_id: a.id })).toEqual([p3.id, p1.id]);
    expect(await ids({ payment_date_gte: '2026-04-01' })).toEqual([p3.id, p2.id]);
    expect(await ids({ payment_date_lte: '2026-04-01', payment_date_gte: '2026-03-15' })).toEqual([p2.id]);
    const page = await api.get(w.owner, PAYMENTS, { limit: '2' });
    expect(page.has_more).toBe(true);
    expect((await api.get(w.owner, PAYMENTS, { limit: '2', starting_after: page.next_cursor! })).data.map((p) => p.id)).toEqual([p1.id]);
  });

  it('void reverses the entry and gives the bills and credits back; a second void is 409', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(50);
    const credit = await w.credit(20);
    const payment = await api.post(w.owner, PAYMENTS, {
      bills: [{ bill_id: bill.id, amount: 50 }],
      vendor_credit_ids: [credit.id],
      bank_account_id: w.bankAccountId,
      method: 'check',
    });
    // A bill with a payment applied is not voided: void the payment first.
    const refused = await api.expectRefusal(w.owner, 'POST', `/v1/vendor-bills/${bill.id}/void`, {}, 409, 'vendor_bill_has_payments', 'id');
    expect((refused as unknown as { payment_ids: string[] }).payment_ids).toEqual([payment.id]);
    const voided = await api.post(w.owner, `${PAYMENTS}/${payment.id}/void`, { reason: 'Check lost' }, 200);
    expect(voided).toMatchObject({ status: 'voided', void_reason: 'Check lost' });
    expect(voided.applications.every((x) => x.voided_on === voided.void_date)).toBe(true);
    expect(await api.get(w.owner, `/v1/vendor-bills/${bill.id}`)).toMatchObject({ status: 'open', amount_paid: 0, balance_due: 50 });
    expect(await api.get(w.owner, `/v1/vendor-credits/${credit.id}`)).toMatchObject({ status: 'open', remaining_amount: '20.0000' });
    const { lines } = await entryLines(api, w.owner, voided.void_journal_entry_id);
    expect(lines).toEqual(
      expect.arrayContaining([
        { key: 'accounts_payable', debit: 0, credit: 50 },
        { key: 'bank', debit: 30, credit: 0 },
      ]),
    );
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-50');
    expect(await glBalance(w.owner, 'bank')).toBe('0');
    expect(await glBalance(w.owner, 'vendor_credits')).toBe('-20');
    await api.expectRefusal(w.owner, 'POST', `${PAYMENTS}/${payment.id}/void`, {}, 409, 'ap_payment_invalid_transition', 'id');
    expect(await eventTypesOf(w.owner, payment.id)).toEqual(expect.arrayContaining(['ap_payment.created', 'ap_payment.voided']));
    // With no payment left, the bill can be voided.
    await api.post(w.owner, `/v1/vendor-bills/${bill.id}/void`, {}, 200);
  });

  it('a credit voided after it was applied stays voided when the payment is voided: the returning amount is released', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(50);
    const credit = await w.credit(20);
    const payment = await api.post(w.owner, PAYMENTS, { bills: [{ bill_id: bill.id, amount: 5 }], vendor_credit_ids: [credit.id], method: 'check' });
    await api.post(w.owner, `/v1/vendor-credits/${credit.id}/void`, {}, 200);
    await api.post(w.owner, `${PAYMENTS}/${payment.id}/void`, {}, 200);
    expect(await api.get(w.owner, `/v1/vendor-credits/${credit.id}`)).toMatchObject({ status: 'voided', remaining_amount: '0.0000', voided_amount: '20.0000' });
    expect(await glBalance(w.owner, 'vendor_credits')).toBe('0');
    expect(await glBalance(w.owner, 'vendor_returns_receivable')).toBe('0');
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-50');
  });
});

describe('concurrency', () => {
  it('20 concurrent payments on one bill never overpay it', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(100);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.request('POST', PAYMENTS, {
          key: w.owner.secret,
          body: { bills: [{ bill_id: bill.id, amount: 7 }], bank_account_id: w.bankAccountId, method: 'ach' },
        }),
      ),
    );
    const paid = responses.filter((r) => r.status === 201);
    // 14 × 7 = 98 fit in 100; the others are refused as overpayments.
    expect(paid.length).toBe(14);
    for (const r of responses.filter((x) => x.status !== 201)) expect(r.error).toMatchObject({ code: 'vendor_bill_overpayment', param: 'bills[0].amount' });
    expect(await api.get(w.owner, `/v1/vendor-bills/${bill.id}`)).toMatchObject({ amount_paid: 98, balance_due: 2, status: 'partially_paid' });
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-2');
    const numbers = paid.map((r) => r.body.payment_number).sort();
    expect(numbers).toEqual(Array.from({ length: 14 }, (_, i) => `APP-${String(i + 1).padStart(6, '0')}`));
  });

  it('concurrent applications of one credit never exceed it', async () => {
    const w = await apWorld(api);
    const credit = await w.credit(30);
    const bills = await Promise.all(Array.from({ length: 10 }, () => w.postedBill(8)));
    // Each payment asks the credit for 8 with no cash: only 3 fit in 30 in full, one more takes the last 6 if cash covers 2.
    const responses = await Promise.all(
      bills.map((bill) =>
        api.request('POST', PAYMENTS, {
          key: w.owner.secret,
          body: { bills: [{ bill_id: bill.id, amount: 8 }], vendor_credit_ids: [credit.id], method: 'check' },
        }),
      ),
    );
    const ok = responses.filter((r) => r.status === 201);
    expect(ok.length).toBe(3);
    for (const r of responses.filter((x) => x.status !== 201)) {
      expect(['vendor_credit_not_applicable', 'parameter_missing']).toContain(r.error.code);
    }
    const after = await api.get(w.owner, `/v1/vendor-credits/${credit.id}`, { 'expand[]': ['applications'] });
    expect(after).toMatchObject({ remaining_amount: '6.0000', status: 'partially_applied' });
    expect(after.applications!.reduce((total, a) => total + Number(a.amount), 0)).toBe(24);
    expect(await glBalance(w.owner, 'vendor_credits')).toBe('-6');
  });
});

describe('E23 GET /v1/entities/{entity_id}/reconciliation/ap-aging', () => {
  const aging = (owner: Awaited<ReturnType<typeof apWorld>>['owner'], asOf?: string) =>
    api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/ap-aging`, asOf ? { as_of_date: asOf } : {});

  it('Scope migration:read; another entity is 404', async () => {
    const w = await apWorld(api);
    const reader = await userWithKey(w.owner, [], ['migration:read']);
    expect((await api.get(reader.secret, `/v1/entities/${w.owner.entity.id}/reconciliation/ap-aging`)).object).toBe('ap_aging');
    const purchasing = await userWithKey(w.owner, [], ['purchasing:read']);
    const refused = await api.request('GET', `/v1/entities/${w.owner.entity.id}/reconciliation/ap-aging`, { key: purchasing.secret });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'insufficient_scope', required: 'migration:read' });
    const stranger = await api.newEntity();
    const hidden = await api.request('GET', `/v1/entities/${w.owner.entity.id}/reconciliation/ap-aging`, { key: stranger.secret });
    expect(hidden.status).toBe(404);
  });

  it('Open vendor bill balances per vendor in buckets; Response {object: ap_aging, as_of_date, vendors: [{id, name, current, days_1_30, days_31_60, days_61_90, days_over_90, total}], totals}', async () => {
    const w = await apWorld(api);
    const other = await w.newVendor();
    // As of 2026-06-30: due 2026-07-15 is current, 2026-06-20 is 10 days late, 2026-05-15 46, 2026-04-10 81, 2026-01-01 180.
    const dues = ['2026-07-15', '2026-06-20', '2026-05-15', '2026-04-10', '2026-01-01'];
    for (const [index, due] of dues.entries()) await w.postedBill(10 * (index + 1), { bill_date: '2025-12-01', due_date: due });
    const otherBill = await api.post(w.owner, '/v1/vendor-bills', {
      vendor_id: other.id,
      bill_date: '2026-06-01',
      due_date: '2026-06-29',
      lines: [{ type: 'expense', account_id: w.expense, amount: 7 }],
    });
    await api.post(w.owner, `/v1/vendor-bills/${otherBill.id}/post`, { skip_permission_check: true }, 200);
    const report = await aging(w.owner, '2026-06-30');
    expect(report).toMatchObject({ object: 'ap_aging', as_of_date: '2026-06-30' });
    const row = report.vendors.find((v) => v.id === w.vendor.id);
    expect(row).toMatchObject({ current: 10, days_1_30: 20, days_31_60: 30, days_61_90: 40, days_over_90: 50, total: 150 });
    expect(report.vendors.find((v) => v.id === other.id)).toMatchObject({ current: 0, days_1_30: 7, total: 7 });
    expect(report.totals).toEqual({ current: 10, days_1_30: 27, days_31_60: 30, days_61_90: 40, days_over_90: 50, total: 157 });
    expect(report.accounts_payable_balance).toBe(157);
  });

  it('as_of_date gives a historical snapshot from the bill and payment history, and the grand total equals the AP control balance at that date', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(100, { bill_date: '2026-01-10', due_date: '2026-02-09' });
    const late = await w.postedBill(40, { bill_date: '2026-03-01', due_date: '2026-03-31' });
    const credit = await w.credit(10, { credit_date: '2026-01-01' });
    await api.post(w.owner, PAYMENTS, {
      bills: [{ bill_id: bill.id, amount: 30 }],
      vendor_credit_ids: [credit.id],
      bank_account_id: w.bankAccountId,
      method: 'check',
      payment_date: '2026-02-01',
    });
    const second = await api.post(w.owner, PAYMENTS, {
      bills: [{ bill_id: bill.id, amount: 50 }],
      bank_account_id: w.bankAccountId,
      method: 'check',
      payment_date: '2026-04-01',
    });
    await api.post(w.owner, PAYMENTS, {
      bills: [{ bill_id: late.id, amount: 40 }],
      bank_account_id: w.bankAccountId,
      method: 'check',
      payment_date: '2026-04-15',
    });
    // Voided today: as of dates before today the second payment still counts.
    await api.post(w.owner, `${PAYMENTS}/${second.id}/void`, {}, 200);
    const expectations: [string, number, Record<string, number>][] = [
      ['2026-01-09', 0, {}],
      ['2026-01-31', 100, { current: 100 }],
      ['2026-02-15', 70, { days_1_30: 70 }],
      ['2026-03-15', 110, { current: 40, days_31_60: 70 }],
      ['2026-04-10', 60, { days_1_30: 40, days_31_60: 20, days_61_90: 0 }],
      ['2026-04-20', 20, { days_61_90: 20 }],
    ];
    for (const [asOf, total, buckets] of expectations) {
      const report = await aging(w.owner, asOf);
      expect(report.totals.total, asOf).toBe(total);
      expect(report.totals, asOf).toMatchObject(buckets);
      expect(report.accounts_payable_balance, asOf).toBe(total);
    }
    // Today the second payment is voided: 70 open on the first bill.
    const today = await aging(w.owner);
    expect(today.totals.total).toBe(70);
    expect(today.accounts_payable_balance).toBe(70);
    expect(Number(await glBalance(w.owner, 'accounts_payable'))).toBe(-70);
  });

  it('a voided bill leaves the aging from its void date on', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(25, { bill_date: '2026-02-01', due_date: '2026-03-01' });
    await api.post(w.owner, `/v1/vendor-bills/${bill.id}/void`, {}, 200);
    expect((await aging(w.owner, '2026-03-10')).totals.total).toBe(25);
    const now = await aging(w.owner);
    expect(now.totals.total).toBe(0);
    expect(now.vendors).toEqual([]);
    expect(now.accounts_payable_balance).toBe(0);
  });
});
