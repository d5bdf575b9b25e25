/** The financial statements and the account activity report: balance sheet, profit and loss, one account's lines over a range. */
import * as z from 'zod';
import { param, queryParams } from '../../schemas/parameters';
import { id, isoDate } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';
import { ALL_GL_ACCOUNT_SUBTYPES, GL_ACCOUNT_TYPES, type GlAccountSubtype } from './gl-account';

const subtype = () => z.enum(ALL_GL_ACCOUNT_SUBTYPES as [GlAccountSubtype, ...GlAccountSubtype[]]);

const BalanceSheetLine = z
  .object({
    account_id: id(),
    code: z.string(),
    name: z.string(),
    subtype: subtype(),
    balance: z.number().describe("The account's balance on as_of_date on its section's side: debits minus credits for assets, credits minus debits for liabilities and equity."),
    compare_balance: z.number().optional().describe('The balance on compare_to; present when compare_to is given.'),
  })
  .meta({ id: 'BalanceSheetLine', description: 'One account of a balance sheet section and its balance.' });

const sectionMembers = () => ({
  accounts: z.array(BalanceSheetLine).describe('Accounts of the section holding a balance on either date, by code.'),
  total: z.number(),
  compare_total: z.number().optional().describe('The total on compare_to; present when compare_to is given.'),
});

const BalanceSheetSection = z.object(sectionMembers()).meta({ id: 'BalanceSheetSection', description: 'Assets or liabilities: their accounts and total.' });

const BalanceSheetEquity = z
  .object({
    ...sectionMembers(),
    retained_earnings: z
      .number()
      .describe(
        "The retained earnings account's line: what was posted to it plus the profit or loss of every fiscal year that ended before fiscal_year_start.",
      ),
    current_year_earnings: z
      .number()
      .describe('Net income from fiscal_year_start to as_of_date (income minus expenses), computed from the revenue and expense accounts; included in total.'),
    compare_retained_earnings: z.number().optional(),
    compare_current_year_earnings: z.number().optional(),
  })
  .meta({ id: 'BalanceSheetEquity', description: 'Equity accounts, and the current fiscal year earnings no account holds yet; total = Σ accounts + current_year_earnings.' });

export const BalanceSheet = z
  .object({
    object: z.literal('balance_sheet'),
    livemode: livemode(),
    as_of_date: isoDate(),
    fiscal_year_start: isoDate().describe('The first day of the fiscal year containing as_of_date: current_year_earnings start here.'),
    compare_to: isoDate().nullable(),
    compare_fiscal_year_start: isoDate().nullable(),
    assets: BalanceSheetSection,
    liabilities: BalanceSheetSection,
    equity: BalanceSheetEquity,
    total_liabilities_and_equity: z.number().describe('liabilities.total + equity.total; always equal to assets.total.'),
    compare_total_liabilities_and_equity: z.number().optional(),
  })
  .meta({ id: 'BalanceSheet', description: 'Assets, liabilities and equity on a date, and optionally on an earlier date beside it.' });
export type BalanceSheet = z.infer<typeof BalanceSheet>;

export const BalanceSheetQuery = queryParams({
  as_of_date: param.date('Balances include postings dated on or before this date; defaults to today (UTC).'),
  compare_to: param.date('An earlier date: adds its balances beside each line (compare_balance, compare_total).'),
});

export const PROFIT_AND_LOSS_SECTIONS = ['income', 'cost_of_goods_sold', 'expenses', 'other'] as const;
export type ProfitAndLossSection = (typeof PROFIT_AND_LOSS_SECTIONS)[number];

const ProfitAndLossLine = z
  .object({
    account_id: id(),
    code: z.string(),
    name: z.string(),
    subtype: subtype(),
    amount: z.number().describe('The whole range, signed as its section adds it (see the section).'),
    column_amounts: z.array(z.number()).describe('One amount per entry of columns, in the same order.'),
  })
  .meta({ id: 'ProfitAndLossLine', description: 'One account of a profit and loss section: the whole range and each column.' });

const ProfitAndLossSectionSchema = z
  .object({
    accounts: z.array(ProfitAndLossLine).describe('Accounts with activity in the range or a column, by code.'),
    total: z.number(),
    column_totals: z.array(z.number()),
  })
  .meta({ id: 'ProfitAndLossSection', description: 'A section of the profit and loss: its accounts, its total and its total per column.' });

const ProfitAndLossColumn = z
  .object({
    kind: z.enum(['month', 'quarter', 'previous_period', 'previous_year']),
    start_date: isoDate(),
    end_date: isoDate(),
    gross_profit: z.number(),
    net_income: z.number(),
  })
  .meta({ id: 'ProfitAndLossColumn', description: 'A column beside the whole range: a month or fiscal quarter of it, or the range it is compared with.' });

export const ProfitAndLoss = z
  .object({
    object: z.literal('profit_and_loss'),
    livemode: livemode(),
    start_date: isoDate(),
    end_date: isoDate(),
    columns: z
      .array(ProfitAndLossColumn)
      .describe('The months or fiscal quarters of the range (columns), then the comparison range (compare); empty when neither is asked.'),
    income: ProfitAndLossSectionSchema.describe('Income accounts (revenue, subtype income): credits minus debits.'),
    cost_of_goods_sold: ProfitAndLossSectionSchema.describe('Expense accounts of subtype cost_of_goods_sold: debits minus credits.'),
    expenses: ProfitAndLossSectionSchema.describe('Expense accounts of subtype expense: debits minus credits.'),
    other: ProfitAndLossSectionSchema.describe(
      'Other income and other expense accounts (subtypes other_income, other_expense): credits minus debits, so other expenses are negative and total is net other income.',
    ),
    gross_profit: z.number().describe('income.total − cost_of_goods_sold.total.'),
    net_income: z.number().describe('gross_profit − expenses.total + other.total.'),
  })
  .meta({ id: 'ProfitAndLoss', description: 'Income and expenses over a date range, optionally split by month or fiscal quarter and compared with an earlier range.' });
export type ProfitAndLoss = z.infer<typeof ProfitAndLoss>;

export const ProfitAndLossQuery = queryParams({
  start_date: param.date('First day of the range; defaults to the start of the fiscal year containing end_date.'),
  end_date: param.date('Last day of the range, inclusive; defaults to today (UTC). At most ten years after start_date.'),
  columns: param.oneOf(
    ['total', 'month', 'quarter'] as const,
    'total (default): the whole range only; month: a column per calendar month; quarter: a column per fiscal quarter (three months from the fiscal year start). Columns are cut at the range ends.',
    { default: 'total' },
  ),
  compare: param.oneOf(
    ['previous_period', 'previous_year'] as const,
    'Adds a column for an earlier range: previous_period is as long as the range and ends the day before start_date (as many whole months when the range is whole months); previous_year is the same range a year earlier.',
  ),
});

const AccountActivityLine = z
  .object({
    id: id().describe('The journal line; pass it as starting_after to page on.'),
    date: isoDate(),
    journal_entry_id: id(),
    entry_number: z.string(),
    memo: z.string().nullable().describe("The line's memo, else its entry's."),
    source_type: z.string().describe('What posted the entry: manual, recurring_journal_template, or the document type (invoice, payment, vendor_bill, ...).'),
    source_id: id().nullable().describe('The document that posted the entry; null for manual entries.'),
    debit: z.number(),
    credit: z.number(),
    running_balance: z.number().describe("The account's balance after this line, on its normal side."),
  })
  .meta({ id: 'AccountActivityLine', description: 'A journal line of the account, with the balance after it.' });

export const AccountActivity = z
  .object({
    object: z.literal('account_activity'),
    livemode: livemode(),
    account_id: id(),
    code: z.string(),
    name: z.string(),
    type: z.enum(GL_ACCOUNT_TYPES),
    normal_balance: z.enum(['debit', 'credit']).describe('The side balances are shown on: debit for assets and expenses, credit for the rest.'),
    start_date: isoDate(),
    end_date: isoDate(),
    opening_balance: z.number().describe('The balance at the start of start_date, on the normal side.'),
    total_debits: z.number().describe('Σ debits of the whole range (every page).'),
    total_credits: z.number().describe('Σ credits of the whole range (every page).'),
    closing_balance: z
      .number()
      .describe('opening_balance + total_debits − total_credits for a debit-normal account (+ credits − debits for a credit-normal one).'),
    lines: z.array(AccountActivityLine).describe('This page of the lines, by date, then in the order they were posted.'),
    has_more: z.boolean(),
    next_cursor: id().nullable().describe('Pass as starting_after for the next page; null on the last page.'),
  })
  .meta({ id: 'AccountActivity', description: "One GL account's postings over a date range with opening, running and closing balances." });
export type AccountActivity = z.infer<typeof AccountActivity>;

export const AccountActivityQuery = queryParams({
  account_id: { ...param.id('The GL account.'), required: true },
  start_date: param.date('First day of the range; defaults to the start of the fiscal year containing end_date.'),
  end_date: param.date('Last day of the range, inclusive; defaults to today (UTC).'),
  limit: param.int({ min: 1, max: 500 }, 'Lines per page, 1 to 500.', { default: 100 }),
  starting_after: param.id('A line id from the previous page: the lines after it.'),
});
