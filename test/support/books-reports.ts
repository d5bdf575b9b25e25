/**
 * The financial statements' identities, read through the API alone (the books property test reads
 * them after every step, beside the control accounts of books.ts):
 *
 *   balance sheet      assets = liabilities + equity, exactly
 *   earnings           current_year_earnings = profit and loss net_income from fiscal_year_start to the date
 *   retained earnings  = net_income of the earlier fiscal years + what was posted to the account
 *   columns            the month columns of the profit and loss add up to the whole range, account by account
 *   account activity   opening + Σ debits − Σ credits (normal side) = closing = the last running balance
 *                      = the account's trial balance line on the end date
 *   closed periods     every report as of a closed period's end reads the same after later activity
 */
import { expect } from 'vitest';
import { amount, sum, type AmountLike } from '../../shared/money';
import type { AccountActivity } from '../../shared/ledger/schemas/financial-report';
import type { TestApi, TestEntity } from './harness';

const text = (value: AmountLike) => amount(value).toString();

type TrialLine = { account_id: string; debit_balance: number; credit_balance: number };

/** The accounts whose activity is read: every kind of normal side, and retained earnings with its earlier years. */
const ACTIVITY_ACCOUNTS = ['bank', 'accounts_receivable', 'inventory', 'accounts_payable', 'sales_revenue', 'retained_earnings'];

/** Every page of an account's activity (small pages, so paging is exercised), with the page-by-page figures. */
async function readActivity(api: TestApi, owner: TestEntity, accountId: string, endDate: string) {
  const pages: AccountActivity[] = [];
  let cursor: string | null = null;
  do {
    const page: AccountActivity = await api.get(owner, `/v1/entities/${owner.entity.id}/reports/account-activity`, {
      account_id: accountId,
      end_date: endDate,
      limit: '25',
      ...(cursor ? { starting_after: cursor } : {}),
    });
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  const lines = pages.flatMap((page) => page.lines);
  const first = pages[0];
  return {
    normal: first.normal_balance,
    opening: text(first.opening_balance),
    closing: text(first.closing_balance),
    totalDebits: text(first.total_debits),
    totalCredits: text(first.total_credits),
    lineDebits: text(sum(lines.map((l) => l.debit))),
    lineCredits: text(sum(lines.map((l) => l.credit))),
    lastRunning: text(lines.at(-1)?.running_balance ?? first.opening_balance),
    pagesAgree: pages.every((page) => page.opening_balance === first.opening_balance && page.closing_balance === first.closing_balance),
  };
}

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const yearsBefore = (date: string, years: number) => `${Number(date.slice(0, 4)) - years}-01-01`;

/** The statements as of a date (default today), and the figures their identities compare. */
export async function readStatements(api: TestApi, owner: TestEntity, system: Record<string, string>, asOfDate?: string) {
  const sheet = await api.get(owner, `/v1/entities/${owner.entity.id}/reports/balance-sheet`, asOfDate ? { as_of_date: asOfDate } : {});
  const end = sheet.as_of_date;
  const pl = (query: Record<string, string>) => api.get(owner, `/v1/entities/${owner.entity.id}/reports/profit-and-loss`, query);
  const yearToDate = await pl({ end_date: end });
  const byMonth = await pl({ end_date: end, columns: 'month', compare: 'previous_year' });
  // Nothing in the books is dated more than a few years back.
  const earlierYears =
    sheet.fiscal_year_start > yearsBefore(end, 5) ? await pl({ start_date: yearsBefore(end, 5), end_date: dayBefore(sheet.fiscal_year_start) }) : undefined;
  const trial = await api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`, { as_of_date: end });
  const activity: Record<string, Awaited<ReturnType<typeof readActivity>> & { trial: string }> = {};
  for (const key of ACTIVITY_ACCOUNTS) {
    const read = await readActivity(api, owner, system[key], end);
    const line = trial.accounts.find((a: TrialLine) => a.account_id === system[key]);
    const debit = amount(line?.debit_balance ?? 0).minus(line?.credit_balance ?? 0);
    activity[key] = { ...read, trial: text(read.normal === 'debit' ? debit : debit.negated()) };
  }
  const retainedPostings = await api.get(owner, `/v1/entities/${owner.entity.id}/reports/account-activity`, {
    account_id: system.retained_earnings,
    start_date: sheet.fiscal_year_start,
    end_date: end,
    limit: '1',
  });
  const columnSections = ['income', 'cost_of_goods_sold', 'expenses', 'other'] as const;
  const periodColumns = byMonth.columns.filter((c) => c.kind === 'month').length;
  return { sheet, yearToDate, byMonth, earlierYears, retainedPostings, activity, columnSections, periodColumns };
}
export type Statements = Awaited<ReturnType<typeof readStatements>>;

/** The identities of the statements, each [one side, the other side]. */
export function statementIdentities(s: Statements): Record<string, [string, string]> {
  const { sheet, yearToDate, byMonth, earlierYears, retainedPostings } = s;
  const months = (values: number[]) => text(sum(values.slice(0, s.periodColumns)));
  const identities: Record<string, [string, string]> = {
    'balance sheet: assets = liabilities + equity': [text(sheet.assets.total), text(amount(sheet.liabilities.total).plus(sheet.equity.total))],
    'balance sheet: total_liabilities_and_equity = assets': [text(sheet.total_liabilities_and_equity), text(sheet.assets.total)],
    'current-year earnings = P&L net_income from the fiscal year start': [text(sheet.equity.current_year_earnings), text(yearToDate.net_income)],
    'P&L by month: Σ column net_income = net_income': [months(byMonth.columns.map((c) => c.net_income)), text(byMonth.net_income)],
    'P&L by month: whole range = fiscal year to date': [text(byMonth.net_income), text(yearToDate.net_income)],
    // The retained earnings line: its opening at the fiscal year start is every earlier year's
    // profit and its own earlier postings; then what was posted to it this year.
    'retained earnings = earlier years’ net income + postings to the account': [
      text(sheet.equity.retained_earnings),
      text(
        amount(earlierYears?.net_income ?? 0)
          .plus(retainedPostings.total_credits)
          .minus(retainedPostings.total_debits),
      ),
    ],
  };
  for (const section of s.columnSections) {
    identities[`P&L by month: ${section} columns add up`] = [months(byMonth[section].column_totals), text(byMonth[section].total)];
    for (const line of byMonth[section].accounts) {
      identities[`P&L by month: ${section} ${line.code} columns add up`] = [months(line.column_amounts), text(line.amount)];
    }
  }
  for (const [key, a] of Object.entries(s.activity)) {
    const net = amount(a.totalDebits).minus(a.totalCredits);
    identities[`account activity ${key}: opening ± movements = closing`] = [
      text(amount(a.opening).plus(a.normal === 'debit' ? net : net.negated())),
      a.closing,
    ];
    identities[`account activity ${key}: Σ line debits = total_debits`] = [a.lineDebits, a.totalDebits];
    identities[`account activity ${key}: Σ line credits = total_credits`] = [a.lineCredits, a.totalCredits];
    identities[`account activity ${key}: last running balance = closing`] = [a.lastRunning, a.closing];
    identities[`account activity ${key}: closing = trial balance line`] = [a.closing, a.trial];
    identities[`account activity ${key}: every page states the same balances`] = [String(a.pagesAgree), 'true'];
  }
  return identities;
}

/** The statements as of each closed period's end, read right after it closed (by period id). */
const closedStatements = new Map<string, Statements>();

/**
 * Every report as of the latest closed period's end reads what it read when the period closed
 * (the step that closed it takes them; nothing can be posted on or before that end since).
 */
export async function expectClosedStatementsUntouched(
  api: TestApi,
  owner: TestEntity,
  system: Record<string, string>,
  closed: readonly { id: string; end: string }[],
  label: string,
): Promise<void> {
  const latest = closed.at(-1);
  if (!latest) return;
  const now = await readStatements(api, owner, system, latest.end);
  const then = closedStatements.get(latest.id);
  if (!then) closedStatements.set(latest.id, now);
  else expect(now, `reports as of closed period end ${latest.end} — ${label}`).toEqual(then);
}
