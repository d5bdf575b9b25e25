/**
 * Balance sheet, profit and loss and account activity, on a small ledger whose figures are worked
 * out by hand: two fiscal years of postings over every section (income, cost of goods sold,
 * expenses, other income and expense, a liability, owner's equity), the split of earnings between
 * retained earnings and the current year, columns and comparisons, paging with running balances,
 * and the refusals (bad dates and ranges, another entity's account, scopes, the other mode).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApi, type TestEntity } from '../support/harness';
import { chart, closedPeriod, postEntry, userWithKey, type Chart } from '../support/ledger-helpers';

const api = setupTestApi();

type Query = Record<string, string>;
const reportPath = (owner: TestEntity, report: string) => `/v1/entities/${owner.entity.id}/reports/${report}`;
const balanceSheet = (owner: TestEntity, query: Query = {}, key = owner.secret) =>
  api.request('GET', `/v1/entities/${owner.entity.id}/reports/balance-sheet`, { key, query });
const profitAndLoss = (owner: TestEntity, query: Query = {}, key = owner.secret) =>
  api.request('GET', `/v1/entities/${owner.entity.id}/reports/profit-and-loss`, { key, query });
const activity = (owner: TestEntity, query: Query, key = owner.secret) =>
  api.request('GET', `/v1/entities/${owner.entity.id}/reports/account-activity`, { key, query });

interface Books {
  owner: TestEntity;
  accounts: Chart & { cogs: string; otherIncome: string; otherExpense: string; loan: string; capital: string };
}

let code = 0;
async function books(): Promise<Books> {
  const owner = await api.newEntity();
  const base = await chart(api, owner);
  const create = async (body: Record<string, string>) => (await api.post(owner, '/v1/gl-accounts', { code: `R${code++}`, ...body } as never)).id;
  const accounts = {
    ...base,
    cogs: await create({ name: 'Cost of sales', type: 'expense', subtype: 'cost_of_goods_sold' }),
    otherIncome: await create({ name: 'Interest income', type: 'revenue', subtype: 'other_income' }),
    otherExpense: await create({ name: 'Bank fees', type: 'expense', subtype: 'other_expense' }),
    loan: await create({ name: 'Bank loan', type: 'liability', subtype: 'long_term_liability' }),
    capital: await create({ name: "Owner's capital", type: 'equity', subtype: 'owners_equity' }),
  };
  const bank = accounts.system.bank;
  const post = async (date: string, debit: string, credit: string, value: number, memo?: string) => {
    const response = await postEntry(api, owner.secret, date, [
      { account_id: debit, debit: value },
      { account_id: credit, credit: value, ...(memo ? { memo } : {}) },
    ]);
    expect(response.status, response.text).toBe(201);
  };
  // Fiscal 2025 (calendar): capital in, 500 income, 200 expenses: 300 of profit for retained earnings.
  await post('2025-03-10', bank, accounts.capital, 1000);
  await post('2025-06-01', bank, accounts.revenue, 500);
  await post('2025-07-01', accounts.expense, bank, 200);
  // Fiscal 2026 to the end of March: 409.90 of profit.
  await post('2026-01-15', bank, accounts.revenue, 800, 'January sales');
  await post('2026-01-20', accounts.cogs, bank, 300);
  await post('2026-02-10', accounts.expense, accounts.loan, 120.1);
  await post('2026-02-11', bank, accounts.otherIncome, 50);
  await post('2026-03-05', accounts.otherExpense, bank, 20);
  // After the statements' date.
  await post('2026-04-01', bank, accounts.revenue, 0.01);
  return { owner, accounts };
}

describe('balance sheet', () => {
  let b: Books;
  beforeAll(async () => {
    b = await books();
  });

  it('lists assets, liabilities and equity on their sides; last year’s profit is in retained earnings, this year’s in current-year earnings', async () => {
    const { owner, accounts } = b;
    const response = await balanceSheet(owner, { as_of_date: '2026-03-31' });
    expect(response.status, response.text).toBe(200);
    const sheet = response.body;
    expect(sheet).toMatchObject({
      object: 'balance_sheet',
      livemode: false,
      as_of_date: '2026-03-31',
      fiscal_year_start: '2026-01-01',
      compare_to: null,
      compare_fiscal_year_start: null,
      total_liabilities_and_equity: 1830,
    });
    expect(sheet.assets).toEqual({
      accounts: [{ account_id: accounts.system.bank, code: '1000', name: 'Operating Bank Account', subtype: 'bank', balance: 1830 }],
      total: 1830,
    });
    expect(sheet.liabilities.accounts.map((a) => [a.account_id, a.balance])).toEqual([[accounts.loan, 120.1]]);
    expect(sheet.liabilities.total).toBe(120.1);
    const equity = Object.fromEntries(sheet.equity.accounts.map((a) => [a.account_id, a.balance]));
    expect(equity).toEqual({ [accounts.capital]: 1000, [accounts.system.retained_earnings]: 300 });
    expect(sheet.equity).toMatchObject({ retained_earnings: 300, current_year_earnings: 409.9, total: 1709.9 });
    expect(sheet.equity.compare_total).toBeUndefined();
  });

  it('compare_to adds the earlier date’s figures beside every line', async () => {
    const { owner, accounts } = b;
    const sheet = (await balanceSheet(owner, { as_of_date: '2026-03-31', compare_to: '2025-12-31' })).body;
    expect(sheet).toMatchObject({ compare_to: '2025-12-31', compare_fiscal_year_start: '2025-01-01', compare_total_liabilities_and_equity: 1300 });
    expect(sheet.assets).toMatchObject({ total: 1830, compare_total: 1300 });
    expect(sheet.assets.accounts[0]).toMatchObject({ balance: 1830, compare_balance: 1300 });
    expect(sheet.liabilities.accounts).toEqual([expect.objectContaining({ account_id: accounts.loan, balance: 120.1, compare_balance: 0 })]);
    expect(sheet.equity).toMatchObject({
      retained_earnings: 300,
      compare_retained_earnings: 0,
      current_year_earnings: 409.9,
      compare_current_year_earnings: 300,
      compare_total: 1300,
    });
  });

  it('defaults to today and ties exactly; a date before any posting is all zeros', async () => {
    const { owner } = b;
    const today = (await balanceSheet(owner)).body;
    expect(today.as_of_date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.assets.total).toBe(today.total_liabilities_and_equity);
    const empty = (await balanceSheet(owner, { as_of_date: '2020-01-01' })).body;
    expect([empty.assets.total, empty.liabilities.total, empty.equity.total, empty.equity.retained_earnings]).toEqual([0, 0, 0, 0]);
  });

  it('refuses bad dates and a compare_to that is not earlier, with the parameter named', async () => {
    const { owner } = b;
    const path = reportPath(owner, 'balance-sheet') as '/v1/entities/{entity_id}/reports/balance-sheet';
    for (const [query, param] of [
      [{ as_of_date: '2026-02-30' }, 'as_of_date'],
      [{ as_of_date: '2026-03-31', compare_to: '2026-03-31' }, 'compare_to'],
      [{ as_of_date: '2026-03-31', compare_to: '2026-04-01' }, 'compare_to'],
      [{ compare_to: 'yesterday' }, 'compare_to'],
      [{ as_of: '2026-01-01' }, 'as_of'],
    ] as const) {
      const response = await api.raw('GET', path.replace('{entity_id}', owner.entity.id), { key: owner.secret, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.error.param).toBe(param);
    }
  });
});

describe('profit and loss', () => {
  let b: Books;
  beforeAll(async () => {
    b = await books();
  });

  it('sections by subtype, gross profit and net income over the fiscal year to date', async () => {
    const { owner, accounts } = b;
    const response = await profitAndLoss(owner, { end_date: '2026-03-31' });
    expect(response.status, response.text).toBe(200);
    const pl = response.body;
    expect(pl).toMatchObject({
      object: 'profit_and_loss',
      start_date: '2026-01-01',
      end_date: '2026-03-31',
      columns: [],
      gross_profit: 500,
      net_income: 409.9,
    });
    const line = (id: string, amount: number, subtype: string): unknown => expect.objectContaining({ account_id: id, amount, subtype, column_amounts: [] });
    expect(pl.income).toEqual({ accounts: [line(accounts.revenue, 800, 'income')], total: 800, column_totals: [] });
    expect(pl.cost_of_goods_sold).toEqual({ accounts: [line(accounts.cogs, 300, 'cost_of_goods_sold')], total: 300, column_totals: [] });
    expect(pl.expenses).toEqual({ accounts: [line(accounts.expense, 120.1, 'expense')], total: 120.1, column_totals: [] });
    expect(pl.other.accounts).toEqual([line(accounts.otherIncome, 50, 'other_income'), line(accounts.otherExpense, -20, 'other_expense')]);
    expect(pl.other.total).toBe(30);
    // The same figure the balance sheet shows as current-year earnings.
    expect((await balanceSheet(owner, { as_of_date: '2026-03-31' })).body.equity.current_year_earnings).toBe(pl.net_income);
  });

  it('columns=month splits the range, cut at its ends, and the columns add up to the whole', async () => {
    const { owner, accounts } = b;
    const pl = (await profitAndLoss(owner, { start_date: '2026-01-10', end_date: '2026-03-31', columns: 'month' })).body;
    expect(pl.columns).toEqual([
      { kind: 'month', start_date: '2026-01-10', end_date: '2026-01-31', gross_profit: 500, net_income: 500 },
      { kind: 'month', start_date: '2026-02-01', end_date: '2026-02-28', gross_profit: 0, net_income: -70.1 },
      { kind: 'month', start_date: '2026-03-01', end_date: '2026-03-31', gross_profit: 0, net_income: -20 },
    ]);
    expect(pl.net_income).toBe(409.9);
    expect(pl.income.accounts[0]).toMatchObject({ account_id: accounts.revenue, amount: 800, column_amounts: [800, 0, 0] });
    expect(pl.other.column_totals).toEqual([0, 50, -20]);
    expect(pl.expenses.column_totals).toEqual([0, 120.1, 0]);
  });

  it('columns=quarter follows the fiscal year: quarters from April once a fiscal year starting in April is defined', async () => {
    const { owner } = b;
    const calendar = (await profitAndLoss(owner, { start_date: '2025-01-01', end_date: '2025-12-31', columns: 'quarter' })).body;
    expect(calendar.columns.map((c) => [c.start_date, c.end_date, c.net_income])).toEqual([
      ['2025-01-01', '2025-03-31', 0],
      ['2025-04-01', '2025-06-30', 500],
      ['2025-07-01', '2025-09-30', -200],
      ['2025-10-01', '2025-12-31', 0],
    ]);
    const other = await api.newEntity();
    const created = await api.request('POST', '/v1/periods/fiscal-years', { key: other.secret, body: { fiscal_year: 2026, start_month: 4 } });
    expect(created.status, created.text).toBe(201);
    const fiscal = (await profitAndLoss(other, { end_date: '2025-11-15', columns: 'quarter' })).body;
    expect(fiscal.start_date).toBe('2025-04-01');
    expect(fiscal.columns.map((c) => [c.start_date, c.end_date])).toEqual([
      ['2025-04-01', '2025-06-30'],
      ['2025-07-01', '2025-09-30'],
      ['2025-10-01', '2025-11-15'],
    ]);
    // Beyond the defined year the start month still holds.
    expect((await profitAndLoss(other, { end_date: '2027-02-01' })).body.start_date).toBe('2026-04-01');
  });

  it('compare adds a column for the previous period or the previous year', async () => {
    const { owner, accounts } = b;
    const months = (await profitAndLoss(owner, { start_date: '2026-02-01', end_date: '2026-03-31', compare: 'previous_period' })).body;
    expect(months.net_income).toBe(-90.1);
    expect(months.columns).toEqual([{ kind: 'previous_period', start_date: '2025-12-01', end_date: '2026-01-31', gross_profit: 500, net_income: 500 }]);
    expect(months.income.accounts).toEqual([expect.objectContaining({ account_id: accounts.revenue, amount: 0, column_amounts: [800] })]);
    const days = (await profitAndLoss(owner, { start_date: '2026-01-10', end_date: '2026-01-19', compare: 'previous_period' })).body;
    expect(days.columns.map((c) => [c.start_date, c.end_date])).toEqual([['2025-12-31', '2026-01-09']]);
    const year = (await profitAndLoss(owner, { start_date: '2026-06-01', end_date: '2026-07-31', compare: 'previous_year', columns: 'month' })).body;
    expect(year.columns.map((c) => [c.kind, c.start_date, c.end_date, c.net_income])).toEqual([
      ['month', '2026-06-01', '2026-06-30', 0],
      ['month', '2026-07-01', '2026-07-31', 0],
      ['previous_year', '2025-06-01', '2025-07-31', 300],
    ]);
    expect(year.expenses.accounts[0]).toMatchObject({ account_id: accounts.expense, amount: 0, column_amounts: [0, 0, 200] });
    const leap = (await profitAndLoss(owner, { start_date: '2028-02-01', end_date: '2028-02-29', compare: 'previous_year' })).body;
    expect(leap.columns.map((c) => [c.start_date, c.end_date])).toEqual([['2027-02-01', '2027-02-28']]);
  });

  it('refuses bad dates, reversed or overlong ranges and unknown column kinds, with the parameter named', async () => {
    const { owner } = b;
    const path = reportPath(owner, 'profit-and-loss');
    for (const [query, param] of [
      [{ end_date: '2026-13-01' }, 'end_date'],
      [{ start_date: '2026-02-01', end_date: '2026-01-31' }, 'end_date'],
      [{ start_date: '2010-01-01', end_date: '2026-01-31' }, 'end_date'],
      [{ columns: 'week' }, 'columns'],
      [{ compare: 'last_year' }, 'compare'],
      [{ start_date: '0001-01-01', end_date: '0001-12-31', compare: 'previous_year' }, 'compare'],
    ] as const) {
      const response = await api.raw('GET', path, { key: owner.secret, query });
      expect(response.status, `${JSON.stringify(query)} ${response.text}`).toBe(400);
      expect(response.error.param).toBe(param);
    }
  });
});

describe('account activity', () => {
  let b: Books;
  beforeAll(async () => {
    b = await books();
  });

  it('opening, lines with running balances, closing; paged by cursor with the balances carried across pages', async () => {
    const { owner, accounts } = b;
    const query = { account_id: accounts.system.bank, start_date: '2026-01-01', end_date: '2026-03-31', limit: '3' };
    const first = await activity(owner, query);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      object: 'account_activity',
      account_id: accounts.system.bank,
      code: '1000',
      type: 'asset',
      normal_balance: 'debit',
      start_date: '2026-01-01',
      end_date: '2026-03-31',
      opening_balance: 1300,
      total_debits: 850,
      total_credits: 320,
      closing_balance: 1830,
      has_more: true,
    });
    expect(first.body.lines.map((l) => [l.date, l.debit, l.credit, l.running_balance])).toEqual([
      ['2026-01-15', 800, 0, 2100],
      ['2026-01-20', 0, 300, 1800],
      ['2026-02-11', 50, 0, 1850],
    ]);
    const line = first.body.lines[0];
    const entry = await api.get(owner, `/v1/journal-entries/${line.journal_entry_id}`);
    expect(line).toMatchObject({ entry_number: entry.entry_number, memo: null, source_type: 'manual', source_id: null });
    expect(first.body.next_cursor).toBe(first.body.lines[2].id);
    const second = (await activity(owner, { ...query, starting_after: first.body.next_cursor! })).body;
    expect(second.lines.map((l) => [l.date, l.running_balance])).toEqual([['2026-03-05', 1830]]);
    expect(second).toMatchObject({ has_more: false, next_cursor: null, opening_balance: 1300, closing_balance: 1830 });

    // Backwards from the last line: the lines before it, in date order, with the same running balances.
    const last = second.lines[0].id;
    const back = (await activity(owner, { ...query, limit: '2', ending_before: last })).body;
    expect(back.lines.map((l) => [l.date, l.running_balance])).toEqual([
      ['2026-01-20', 1800],
      ['2026-02-11', 1850],
    ]);
    expect(back).toMatchObject({ has_more: true, next_cursor: back.lines[0].id, opening_balance: 1300, closing_balance: 1830 });
    const start = (await activity(owner, { ...query, limit: '2', ending_before: back.next_cursor! })).body;
    expect(start.lines.map((l) => [l.date, l.running_balance])).toEqual([['2026-01-15', 2100]]);
    expect(start).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('credit-normal accounts, revenue from the fiscal year start, retained earnings with earlier years’ profit; closing = trial balance', async () => {
    const { owner, accounts } = b;
    const revenue = (await activity(owner, { account_id: accounts.revenue, start_date: '2026-02-01', end_date: '2026-03-31' })).body;
    expect(revenue).toMatchObject({ normal_balance: 'credit', opening_balance: 800, closing_balance: 800, lines: [] });
    const sales = (await activity(owner, { account_id: accounts.revenue, end_date: '2026-03-31' })).body;
    expect(sales).toMatchObject({ start_date: '2026-01-01', opening_balance: 0, closing_balance: 800 });
    expect(sales.lines[0]).toMatchObject({ memo: 'January sales', credit: 800, running_balance: 800 });
    const retained = (await activity(owner, { account_id: accounts.system.retained_earnings, end_date: '2026-03-31' })).body;
    expect(retained).toMatchObject({ opening_balance: 300, closing_balance: 300 });
    const loan = (await activity(owner, { account_id: accounts.loan, end_date: '2026-03-31' })).body;
    expect(loan).toMatchObject({ opening_balance: 0, total_credits: 120.1, closing_balance: 120.1 });
    const trial = await api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`, { as_of_date: '2026-03-31' });
    const credit = (id: string) => trial.accounts.find((a) => a.account_id === id)!.credit_balance;
    expect([credit(accounts.revenue), credit(accounts.system.retained_earnings), credit(accounts.loan)]).toEqual([800, 300, 120.1]);
  });

  it('refuses a missing account, another entity’s account, a foreign cursor and a reversed range', async () => {
    const { owner, accounts } = b;
    const path = reportPath(owner, 'account-activity');
    const other = await books();
    const otherLines = (await activity(other.owner, { account_id: other.accounts.system.bank, end_date: '2026-03-31' })).body.lines;
    for (const [query, status, param] of [
      [{}, 400, 'account_id'],
      [{ account_id: 'nope' }, 400, 'account_id'],
      [{ account_id: other.accounts.system.bank }, 404, 'account_id'],
      [{ account_id: accounts.system.bank, starting_after: otherLines[0].id }, 400, 'starting_after'],
      [{ account_id: accounts.system.bank, ending_before: otherLines[0].id }, 400, 'ending_before'],
      [{ account_id: accounts.system.bank, starting_after: otherLines[0].id, ending_before: otherLines[0].id }, 400, 'ending_before'],
      [{ account_id: accounts.system.bank, start_date: '2026-04-01', end_date: '2026-03-31' }, 400, 'end_date'],
      [{ account_id: accounts.system.bank, limit: '501' }, 400, 'limit'],
    ] as const) {
      const response = await api.raw('GET', path, { key: owner.secret, query });
      expect(response.status, `${JSON.stringify(query)} ${response.text}`).toBe(status);
      expect(response.error.param).toBe(param);
    }
  });
});

describe('security', () => {
  it('take accounting:read or migration:read; another entity or the other mode is a 404', async () => {
    const { live, test } = await api.newEntityPair();
    const { system } = await chart(api, test);
    const reports: [string, Query][] = [
      ['balance-sheet', {}],
      ['profit-and-loss', {}],
      ['account-activity', { account_id: system.bank }],
    ];
    const accounting = await userWithKey(test, [], ['accounting:read']);
    const migration = await userWithKey(test, [], ['migration:read']);
    const orders = await userWithKey(test, [], ['orders:write', 'purchasing:read']);
    const stranger = await api.newEntity();
    for (const [report, query] of reports) {
      const path = reportPath(test, report);
      for (const key of [accounting.secret, migration.secret]) expect((await api.raw('GET', path, { key, query })).status, report).toBe(200);
      const refused = await api.raw('GET', path, { key: orders.secret, query });
      expect(refused.status).toBe(403);
      expect(refused.error).toMatchObject({ code: 'insufficient_scope', required: 'accounting:read' });
      for (const key of [stranger.secret, live.secret]) {
        const hidden = await api.raw('GET', path, { key, query });
        expect(hidden.status, `${report} ${hidden.text}`).toBe(404);
        expect(hidden.error.param).toBe('entity_id');
      }
    }
    // The live twin's own account, asked for with the test key, does not exist in test mode.
    const liveBank = (await chart(api, live)).system.bank;
    const crossed = await api.raw('GET', reportPath(test, 'account-activity'), { key: test.secret, query: { account_id: liveBank } });
    expect(crossed.status).toBe(404);
    expect(crossed.error.param).toBe('account_id');
  });

  it('a closed period’s reports do not move when later activity is posted', async () => {
    const b = await books();
    await closedPeriod(api, b.owner, { period_name: 'Q1 2026', start_date: '2026-01-01', end_date: '2026-03-31' });
    const read = async () => ({
      sheet: (await balanceSheet(b.owner, { as_of_date: '2026-03-31', compare_to: '2025-12-31' })).body,
      pl: (await profitAndLoss(b.owner, { end_date: '2026-03-31', columns: 'month', compare: 'previous_year' })).body,
      bank: (await activity(b.owner, { account_id: b.accounts.system.bank, end_date: '2026-03-31' })).body,
    });
    const before = await read();
    await postEntry(api, b.owner.secret, '2026-04-15', [
      { account_id: b.accounts.expense, debit: 75 },
      { account_id: b.accounts.system.bank, credit: 75 },
    ]);
    const refused = await postEntry(api, b.owner.secret, '2026-03-15', [
      { account_id: b.accounts.expense, debit: 75 },
      { account_id: b.accounts.system.bank, credit: 75 },
    ]);
    expect(refused.error?.code).toBe('period_closed');
    expect(await read()).toEqual(before);
    expect((await balanceSheet(b.owner, { as_of_date: '2026-04-30' })).body.equity.current_year_earnings).toBe(334.91);
  });
});
