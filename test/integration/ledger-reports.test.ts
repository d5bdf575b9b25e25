/**
 * Cash balance (E20) and trial balance, and the property that matters most: whatever sequence of
 * postings and reversals happens, the ledger balances, the trial balance ties, and both reports
 * agree with a model computed from the postings alone.
 */
import fc from 'fast-check';
import { SYSTEM_ACCOUNTS } from '../../shared/ledger/gl-accounts';
import { describe, expect, it } from 'vitest';
import { amount, sum, type Amount } from '../../shared/money';
import { setupTestApi, type TestEntity } from '../support/harness';
import { chart, postEntry, userWithKey } from '../support/ledger-helpers';

const api = setupTestApi();

const cashBalance = (owner: TestEntity, asOf?: string, key = owner.secret) =>
  api.request('GET', `/v1/entities/${owner.entity.id}/reconciliation/cash-balance`, { key, query: asOf ? { as_of_date: asOf } : {} });
const trialBalance = (owner: TestEntity, asOf?: string, key = owner.secret) =>
  api.request('GET', `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`, { key, query: asOf ? { as_of_date: asOf } : {} });

describe('cash balance (E20)', () => {
  it('reports each bank account’s GL balance as of a date, and the total', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    await postEntry(api, owner.secret, '2026-01-10', [
      { account_id: accounts.system.bank, debit: 1000 },
      { account_id: accounts.revenue, credit: 1000 },
    ]);
    await postEntry(api, owner.secret, '2026-01-20', [
      { account_id: accounts.bank2, debit: 250.25 },
      { account_id: accounts.system.bank, credit: 250.25 },
    ]);
    await postEntry(api, owner.secret, '2026-02-01', [
      { account_id: accounts.expense, debit: 0.1 },
      { account_id: accounts.bank2, credit: 0.1 },
    ]);
    const bankAccounts = (await api.get(owner, '/v1/gl-accounts', { is_bank: 'true' })).data;
    const bankId = (id: string) => bankAccounts.find((a) => a.id === id)!.bank_account_id;
    const jan15 = await cashBalance(owner, '2026-01-15');
    expect(jan15.status).toBe(200);
    expect(jan15.body).toEqual({
      object: 'cash_balance',
      livemode: false,
      as_of_date: '2026-01-15',
      accounts: [
        { bank_account_id: bankId(accounts.system.bank), account_name: 'Operating Bank Account', gl_balance: 1000 },
        { bank_account_id: bankId(accounts.bank2), account_name: 'Savings', gl_balance: 0 },
      ],
      total_gl_balance: 1000,
    });
    const later = await cashBalance(owner, '2026-02-01');
    expect(later.body.accounts.map((a) => a.gl_balance)).toEqual([749.75, 250.15]);
    expect(later.body.total_gl_balance).toBe(999.9);
    const today = await cashBalance(owner);
    expect(today.body.as_of_date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.body.total_gl_balance).toBe(999.9);
    // an inactive bank account is listed while it holds a balance
    const empty = (
      await api.request('POST', '/v1/gl-accounts', { key: owner.secret, body: { code: 'B-9', name: 'Closed account', type: 'asset', subtype: 'bank' } })
    ).body;
    await api.request('PATCH', `/v1/gl-accounts/${empty.id}`, { key: owner.secret, body: { is_active: false } });
    await api.request('PATCH', `/v1/gl-accounts/${accounts.bank2}`, { key: owner.secret, body: { is_active: false } });
    const names = (await cashBalance(owner, '2026-02-01')).body.accounts.map((a) => a.account_name);
    expect(names).toEqual(['Operating Bank Account', 'Savings']);
    const bad = await cashBalance(owner, '2026-13-01');
    expect(bad.error).toMatchObject({ code: 'parameter_invalid', param: 'as_of_date' });
    const unknown = await api.request('GET', `/v1/entities/${owner.entity.id}/reconciliation/cash-balance`, {
      key: owner.secret,
      query: { date: '2026-01-01' },
    });
    expect(unknown.error).toMatchObject({ code: 'parameter_unknown', param: 'date' });
    const accountingOnly = await userWithKey(owner, [], ['accounting:write']);
    expect((await cashBalance(owner, undefined, accountingOnly.secret)).error).toMatchObject({
      code: 'insufficient_scope',
      required: 'migration:read',
    });
  });
});

describe('trial balance', () => {
  it('lists every account in the debit or credit column; totals tie; earlier years’ profit sits in retained earnings', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    await postEntry(api, owner.secret, '2025-06-01', [
      { account_id: accounts.system.bank, debit: 500 },
      { account_id: accounts.revenue, credit: 500 },
    ]);
    await postEntry(api, owner.secret, '2026-02-01', [
      { account_id: accounts.expense, debit: 120 },
      { account_id: accounts.system.bank, credit: 120 },
    ]);
    const tb = await trialBalance(owner, '2026-03-31');
    expect(tb.status).toBe(200);
    expect(tb.body).toMatchObject({
      object: 'trial_balance',
      as_of_date: '2026-03-31',
      fiscal_year_start: '2026-01-01',
      total_debits: 500,
      total_credits: 500,
    });
    const row = (id: string) => tb.body.accounts.find((a) => a.account_id === id);
    expect(row(accounts.system.bank)).toMatchObject({ code: '1000', type: 'asset', debit_balance: 380, credit_balance: 0 });
    expect(row(accounts.expense)).toMatchObject({ debit_balance: 120, credit_balance: 0 });
    expect(row(accounts.revenue)).toMatchObject({ debit_balance: 0, credit_balance: 0 }); // last year's revenue is closed out
    expect(row(accounts.system.retained_earnings)).toMatchObject({ debit_balance: 0, credit_balance: 500 });
    expect(tb.body.accounts.length).toBe(SYSTEM_ACCOUNTS.length + 3); // every active account, zero or not
    // within 2025 the revenue is still current-year activity
    const last = await trialBalance(owner, '2025-12-31');
    expect(last.body).toMatchObject({ fiscal_year_start: '2025-01-01', total_debits: 500, total_credits: 500 });
    expect(last.body.accounts.find((a) => a.account_id === accounts.revenue)!.credit_balance).toBe(500);
    // a fiscal year starting in April (fiscal 2027 = Apr 2026 – Mar 2027) moves the cut-off
    await api.request('POST', '/v1/periods/fiscal-years', { key: owner.secret, body: { fiscal_year: 2027, start_month: 4 } });
    await postEntry(api, owner.secret, '2026-05-01', [
      { account_id: accounts.system.bank, debit: 40 },
      { account_id: accounts.revenue, credit: 40 },
    ]);
    const fy = await trialBalance(owner, '2026-06-30');
    expect(fy.body.fiscal_year_start).toBe('2026-04-01');
    const fyRow = (id: string) => fy.body.accounts.find((a) => a.account_id === id)!;
    expect(fyRow(accounts.revenue).credit_balance).toBe(40);
    expect(fyRow(accounts.expense).debit_balance).toBe(0);
    expect(fyRow(accounts.system.retained_earnings).credit_balance).toBe(380);
    expect(fy.body.total_debits).toBe(fy.body.total_credits);
  });

  it('property: any sequence of postings and reversals leaves the ledger balanced, the trial balance tied, and both reports equal to the model', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const pool = [accounts.expense, accounts.revenue, accounts.bank2, accounts.system.bank, accounts.system.inventory, accounts.system.sales_tax_payable];
    const types: Record<string, string> = {};
    for (const account of (await api.get(owner, '/v1/gl-accounts', { limit: '100' })).data) types[account.id] = account.type;
    // The model: every posted line, by account and date.
    const model: { account: string; date: string; net: Amount }[] = [];
    const posted: { id: string; lines: { account_id: string; debit: number; credit: number }[] }[] = [];

    const cents = fc.integer({ min: 1, max: 5_000_000 });
    const day = fc.integer({ min: 0, max: 59 }).map((d) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10));
    const posting = fc.record({
      kind: fc.constant('post' as const),
      date: day,
      debits: fc.array(fc.tuple(fc.constantFrom(...pool), cents), { minLength: 1, maxLength: 4 }),
      credits: fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 }),
    });
    const reversal = fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat(), days: fc.integer({ min: 0, max: 10 }) });

    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ arbitrary: posting, weight: 3 }, { arbitrary: reversal, weight: 1 }), { minLength: 1, maxLength: 8 }),
        async (operations) => {
          for (const operation of operations) {
            if (operation.kind === 'post') {
              // split the debit total over the credit accounts, cent-exact
              const total = operation.debits.reduce((t, [, c]) => t + c, 0);
              const shares = operation.credits
                .map((_, i) => Math.floor(total / operation.credits.length) + (i < total % operation.credits.length ? 1 : 0))
                .filter((c) => c > 0);
              const lines = [
                ...operation.debits.map(([account_id, c]) => ({ account_id, debit: c / 100, credit: 0 })),
                ...shares.map((c, i) => ({ account_id: operation.credits[i], debit: 0, credit: c / 100 })),
              ];
              const response = await postEntry(
                api,
                owner.secret,
                operation.date,
                lines.map(({ account_id, debit, credit }) => (debit ? { account_id, debit } : { account_id, credit })),
              );
              expect(response.status, response.text).toBe(201);
              posted.push({ id: response.body.id, lines });
              for (const line of lines) model.push({ account: line.account_id, date: operation.date, net: amount(line.debit).minus(line.credit) });
            } else if (posted.length > 0) {
              const target = posted.splice(operation.pick % posted.length, 1)[0];
              const original = await api.get(owner, `/v1/journal-entries/${target.id}`);
              const date = new Date(Date.parse(original.entry_date) + operation.days * 86_400_000).toISOString().slice(0, 10);
              const response = await api.request('POST', `/v1/journal-entries/${target.id}/reverse`, { key: owner.secret, body: { reversal_date: date } });
              expect(response.status, response.text).toBe(201);
              for (const line of target.lines) model.push({ account: line.account_id, date, net: amount(line.credit).minus(line.debit) });
            }
          }
          // the ledger balances, and the day balances are exactly the lines' sums
          const check = await owner.sql((db) =>
            db.one<{ debits: string; credits: string; mismatched: number }>(
              `SELECT (SELECT coalesce(sum(debit), 0) FROM journal_lines WHERE entity_id = $1) AS debits,
                    (SELECT coalesce(sum(credit), 0) FROM journal_lines WHERE entity_id = $1) AS credits,
                    (SELECT count(*)::int FROM (
                       SELECT account_id, entry_date, sum(debit) AS d, sum(credit) AS c FROM journal_lines WHERE entity_id = $1 GROUP BY 1, 2
                     ) l FULL JOIN (SELECT * FROM gl_daily_balances WHERE entity_id = $1) b ON b.account_id = l.account_id AND b.balance_date = l.entry_date
                     WHERE b.debit_total IS DISTINCT FROM l.d OR b.credit_total IS DISTINCT FROM l.c) AS mismatched`,
              [owner.entity.id],
            ),
          );
          expect(amount(check.debits).eq(check.credits)).toBe(true);
          expect(check.mismatched).toBe(0);
          // both reports, as of a few dates, agree with the model; the trial balance ties
          for (const asOf of ['2026-01-01', '2026-01-31', '2026-02-15', '2026-03-31']) {
            const tb = (await trialBalance(owner, asOf)).body;
            expect(tb.total_debits).toBe(tb.total_credits);
            for (const row of tb.accounts) {
              const expected = sum(model.filter((m) => m.account === row.account_id && m.date <= asOf).map((m) => m.net));
              expect(amount(row.debit_balance).minus(row.credit_balance).eq(expected), `${types[row.account_id]} ${row.code} ${asOf}`).toBe(true);
            }
            const cash = (await cashBalance(owner, asOf)).body;
            const expectedCash = sum(
              model.filter((m) => (m.account === accounts.system.bank || m.account === accounts.bank2) && m.date <= asOf).map((m) => m.net),
            );
            expect(amount(cash.total_gl_balance).eq(expectedCash)).toBe(true);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
