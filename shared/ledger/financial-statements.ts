/**
 * The balance sheet and the profit and loss. Both read gl_daily_balances (the per-account per-day
 * sums the journal_lines trigger maintains), so their cost follows the (account, day) pairs with
 * activity, not the number of journal lines.
 *
 * Signs: every figure is shown on its section's normal side. Assets, cost of goods sold and
 * expenses are debits minus credits; liabilities, equity, income and other are credits minus
 * debits (other expenses come out negative in `other`, whose total is net other income).
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { amount, sum, toJsonNumber, ZERO, type Amount } from '../money';
import { accountBalances, type AccountBalance } from './ledger-reports';
import { addDays, daysBetween, fiscalYearStartOf, fiscalYears, monthEnd, monthStart } from './fiscal-calendar';
import type { GlAccountSubtype } from './schemas/gl-account';
import { PROFIT_AND_LOSS_SECTIONS, type BalanceSheet, type ProfitAndLoss, type ProfitAndLossSection } from './schemas/financial-report';

type Side = 'asset' | 'liability' | 'equity';

/** An account's balance on its balance sheet side. */
const sideBalance = (account: AccountBalance): Amount => (account.type === 'asset' ? account.net_debit : account.net_debit.negated());

/** Net income to date in the current fiscal year: credits minus debits of every revenue and expense account. */
const currentYearEarnings = (accounts: readonly AccountBalance[]): Amount =>
  sum(accounts.filter((a) => a.type === 'revenue' || a.type === 'expense').map((a) => a.net_debit.negated()));

export async function balanceSheet(db: Db, entityId: string, asOfDate: string, compareTo?: string): Promise<BalanceSheet> {
  if (compareTo !== undefined && compareTo >= asOfDate) {
    throw new ApiError('parameter_invalid', { param: 'compare_to', hint: 'compare_to must be a date before as_of_date.' });
  }
  const current = await accountBalances(db, entityId, asOfDate);
  const earlier = compareTo === undefined ? undefined : await accountBalances(db, entityId, compareTo);
  const earlierById = new Map(earlier?.accounts.map((a) => [a.id, a]));
  const compared = earlier !== undefined;

  const section = (side: Side) => {
    const lines = current.accounts
      .filter((a) => a.type === side)
      .map((account) => ({ account, balance: sideBalance(account), before: earlierById.has(account.id) ? sideBalance(earlierById.get(account.id)!) : ZERO }))
      .filter(({ account, balance, before }) => account.system_key === 'retained_earnings' || !balance.isZero() || !before.isZero());
    return {
      lines,
      accounts: lines.map(({ account, balance, before }) => ({
        account_id: account.id,
        code: account.code,
        name: account.name,
        subtype: account.subtype,
        balance: toJsonNumber(balance),
        ...(compared ? { compare_balance: toJsonNumber(before) } : {}),
      })),
      total: sum(lines.map((l) => l.balance)),
      compareTotal: sum(lines.map((l) => l.before)),
    };
  };
  const assets = section('asset');
  const liabilities = section('liability');
  const equity = section('equity');
  const earnings = currentYearEarnings(current.accounts);
  const earlierEarnings = earlier ? currentYearEarnings(earlier.accounts) : ZERO;
  const retained = equity.lines.find((l) => l.account.system_key === 'retained_earnings');
  const equityTotal = equity.total.plus(earnings);
  const earlierEquityTotal = equity.compareTotal.plus(earlierEarnings);
  const plain = ({ accounts, total, compareTotal }: ReturnType<typeof section>) => ({
    accounts,
    total: toJsonNumber(total),
    ...(compared ? { compare_total: toJsonNumber(compareTotal) } : {}),
  });
  return {
    object: 'balance_sheet',
    as_of_date: asOfDate,
    fiscal_year_start: current.fiscalYearStart,
    compare_to: compareTo ?? null,
    compare_fiscal_year_start: earlier?.fiscalYearStart ?? null,
    assets: plain(assets),
    liabilities: plain(liabilities),
    equity: {
      accounts: equity.accounts,
      retained_earnings: toJsonNumber(retained?.balance ?? ZERO),
      current_year_earnings: toJsonNumber(earnings),
      total: toJsonNumber(equityTotal),
      ...(compared
        ? {
            compare_total: toJsonNumber(earlierEquityTotal),
            compare_retained_earnings: toJsonNumber(retained?.before ?? ZERO),
            compare_current_year_earnings: toJsonNumber(earlierEarnings),
          }
        : {}),
    },
    total_liabilities_and_equity: toJsonNumber(liabilities.total.plus(equityTotal)),
    ...(compared ? { compare_total_liabilities_and_equity: toJsonNumber(liabilities.compareTotal.plus(earlierEquityTotal)) } : {}),
  };
}

/** Which section of the profit and loss an account's subtype reports in, and whether it shows credits minus debits. */
const SECTION_OF: Partial<Record<GlAccountSubtype, { section: ProfitAndLossSection; creditNormal: boolean }>> = {
  income: { section: 'income', creditNormal: true },
  cost_of_goods_sold: { section: 'cost_of_goods_sold', creditNormal: false },
  expense: { section: 'expenses', creditNormal: false },
  other_income: { section: 'other', creditNormal: true },
  other_expense: { section: 'other', creditNormal: true },
};

interface DateRange {
  start_date: string;
  end_date: string;
}
type ColumnKind = ProfitAndLoss['columns'][number]['kind'];

const isMonthStart = (date: string) => date.endsWith('-01');
const isMonthEnd = (date: string) => monthEnd(date) === date;
const FIRST_DAY = '0001-01-01';

/** Months, or three-month steps from `anchor`'s month, cut to the range. */
function splitRange(range: DateRange, stepMonths: number, anchor: string): DateRange[] {
  const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
  const startIndex = monthIndex(range.start_date);
  const endIndex = monthIndex(range.end_date);
  // The step containing start_date: anchor's month moved by whole steps.
  const offset = (((startIndex - monthIndex(anchor)) % stepMonths) + stepMonths) % stepMonths;
  const columns: DateRange[] = [];
  for (let first = startIndex - offset; first <= endIndex; first += stepMonths) {
    const lastIndex = first + stepMonths - 1;
    columns.push({
      start_date: first <= startIndex ? range.start_date : monthStart(range.start_date, first - startIndex),
      end_date: lastIndex >= endIndex ? range.end_date : monthEnd(monthStart(range.start_date, lastIndex - startIndex)),
    });
  }
  return columns;
}

/** The same calendar date a year earlier; February 29 and month ends stay month ends. */
function yearEarlier(date: string): string {
  const year = Number(date.slice(0, 4)) - 1;
  const shifted = `${String(year).padStart(4, '0')}-${date.slice(5, 7)}-01`;
  return isMonthEnd(date) || date.endsWith('-02-29') ? monthEnd(shifted) : `${shifted.slice(0, 8)}${date.slice(8)}`;
}

function comparisonRange(range: DateRange, compare: 'previous_period' | 'previous_year'): DateRange {
  if (compare === 'previous_year') return { start_date: yearEarlier(range.start_date), end_date: yearEarlier(range.end_date) };
  if (isMonthStart(range.start_date) && isMonthEnd(range.end_date)) {
    const months =
      (Number(range.end_date.slice(0, 4)) - Number(range.start_date.slice(0, 4))) * 12 +
      Number(range.end_date.slice(5, 7)) -
      Number(range.start_date.slice(5, 7)) +
      1;
    return { start_date: monthStart(range.start_date, -months), end_date: addDays(range.start_date, -1) };
  }
  const days = daysBetween(range.start_date, range.end_date) + 1;
  return { start_date: addDays(range.start_date, -days), end_date: addDays(range.start_date, -1) };
}

interface NetRow {
  id: string;
  code: string;
  name: string;
  subtype: GlAccountSubtype;
  n: number;
  net_credit: string;
}

/** Credits minus debits of each revenue and expense account in each range (n: the range's 1-based index). */
function netByRange(db: Db, entityId: string, ranges: readonly DateRange[]): Promise<NetRow[]> {
  return db.query<NetRow>(
    `SELECT a.id, a.code, a.name, a.subtype, r.n::int AS n, sum(d.credit_total - d.debit_total) AS net_credit
       FROM unnest($2::date[], $3::date[]) WITH ORDINALITY AS r(first_day, last_day, n)
       JOIN gl_daily_balances d ON d.entity_id = $1 AND d.balance_date BETWEEN r.first_day AND r.last_day
       JOIN gl_accounts a ON a.entity_id = d.entity_id AND a.id = d.account_id
      WHERE a.type IN ('revenue', 'expense')
      GROUP BY a.id, a.code, a.name, a.subtype, r.n
      ORDER BY a.code, a.id`,
    [entityId, ranges.map((r) => r.start_date), ranges.map((r) => r.end_date)],
  );
}

interface ProfitAndLossRequest {
  start_date?: string;
  end_date: string;
  columns: 'total' | 'month' | 'quarter';
  compare?: 'previous_period' | 'previous_year';
}

/** The longest range a report covers: ten years (120 month columns). */
const MAX_RANGE_DAYS = 3653;

export async function profitAndLoss(db: Db, entityId: string, request: ProfitAndLossRequest): Promise<ProfitAndLoss> {
  const years = await fiscalYears(db, entityId);
  const range: DateRange = { start_date: request.start_date ?? fiscalYearStartOf(request.end_date, years), end_date: request.end_date };
  if (range.end_date < range.start_date) {
    throw new ApiError('parameter_invalid', { param: 'end_date', hint: 'end_date (default today) must be on or after start_date.' });
  }
  if (daysBetween(range.start_date, range.end_date) >= MAX_RANGE_DAYS) {
    throw new ApiError('parameter_invalid', { param: 'end_date', hint: 'The range may cover at most ten years.' });
  }
  const periodKind: ColumnKind | undefined = request.columns === 'total' ? undefined : request.columns;
  const periods =
    request.columns === 'month'
      ? splitRange(range, 1, range.start_date)
      : request.columns === 'quarter'
        ? splitRange(range, 3, fiscalYearStartOf(range.start_date, years))
        : [];
  const comparison = request.compare ? comparisonRange(range, request.compare) : undefined;
  if (comparison && comparison.start_date < FIRST_DAY) {
    throw new ApiError('parameter_invalid', { param: 'compare', hint: 'The comparison range would start before year 1.' });
  }
  // The whole range is the sum of its columns when it is split, so the columns always add up to it.
  const queried = [...(periods.length ? periods : [range]), ...(comparison ? [comparison] : [])];
  const rows = await netByRange(db, entityId, queried);

  const columnCount = periods.length + (comparison ? 1 : 0);
  // Figures per account: [whole range, ...columns], on the account's section side.
  const accounts = new Map<string, { row: NetRow; section: ProfitAndLossSection; figures: Amount[] }>();
  for (const row of rows) {
    const placement = SECTION_OF[row.subtype];
    if (!placement) continue;
    let account = accounts.get(row.id);
    if (!account) {
      account = { row, section: placement.section, figures: Array.from({ length: columnCount + 1 }, () => ZERO) };
      accounts.set(row.id, account);
    }
    const value = placement.creditNormal ? amount(row.net_credit) : amount(row.net_credit).negated();
    const index = row.n - 1;
    if (periods.length && index < periods.length) {
      account.figures[0] = account.figures[0].plus(value);
      account.figures[1 + index] = value;
    } else if (!periods.length && index === 0) {
      account.figures[0] = value;
    } else {
      account.figures[columnCount] = value;
    }
  }

  const totalsOf = (section: ProfitAndLossSection) => {
    const members = [...accounts.values()].filter((a) => a.section === section);
    return Array.from({ length: columnCount + 1 }, (_, i) => sum(members.map((m) => m.figures[i])));
  };
  const totals = Object.fromEntries(PROFIT_AND_LOSS_SECTIONS.map((section) => [section, totalsOf(section)])) as Record<ProfitAndLossSection, Amount[]>;
  const grossProfit = totals.income.map((income, i) => income.minus(totals.cost_of_goods_sold[i]));
  const netIncome = grossProfit.map((gross, i) => gross.minus(totals.expenses[i]).plus(totals.other[i]));

  const sectionOut = (section: ProfitAndLossSection) => ({
    accounts: [...accounts.values()]
      .filter((a) => a.section === section)
      .map(({ row, figures }) => ({
        account_id: row.id,
        code: row.code,
        name: row.name,
        subtype: row.subtype,
        amount: toJsonNumber(figures[0]),
        column_amounts: figures.slice(1).map((f) => toJsonNumber(f)),
      })),
    total: toJsonNumber(totals[section][0]),
    column_totals: totals[section].slice(1).map((t) => toJsonNumber(t)),
  });
  const columns = [...periods.map((p) => ({ kind: periodKind!, ...p })), ...(comparison ? [{ kind: request.compare!, ...comparison }] : [])].map(
    (column, i) => ({ ...column, gross_profit: toJsonNumber(grossProfit[i + 1]), net_income: toJsonNumber(netIncome[i + 1]) }),
  );

  return {
    object: 'profit_and_loss',
    start_date: range.start_date,
    end_date: range.end_date,
    columns,
    income: sectionOut('income'),
    cost_of_goods_sold: sectionOut('cost_of_goods_sold'),
    expenses: sectionOut('expenses'),
    other: sectionOut('other'),
    gross_profit: toJsonNumber(grossProfit[0]),
    net_income: toJsonNumber(netIncome[0]),
  };
}
