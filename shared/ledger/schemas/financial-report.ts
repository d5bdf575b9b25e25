/** The financial statements and the account activity report: balance sheet, profit and loss, one account's lines over a range. */
import * as z from 'zod/mini';
import { param, queryParams } from '../../schemas/parameters';
import { id, isoDate } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';
import { ALL_GL_ACCOUNT_SUBTYPES, GL_ACCOUNT_TYPES, type GlAccountSubtype } from './gl-account';

const subtype = () => z.enum(ALL_GL_ACCOUNT_SUBTYPES as [GlAccountSubtype, ...GlAccountSubtype[]]);

/** The example the reference page shows: a business in its second fiscal year, compared with the year end. */
const BALANCE_SHEET_EXAMPLE = {
  object: 'balance_sheet',
  livemode: false,
  as_of_date: '2026-03-31',
  fiscal_year_start: '2026-01-01',
  compare_to: '2025-12-31',
  compare_fiscal_year_start: '2025-01-01',
  assets: {
    accounts: [
      {
        account_id: '01a24e93-71ec-75b3-a07f-812b155b0c6f',
        code: '1000',
        name: 'Operating Bank Account',
        subtype: 'bank',
        balance: 1830,
        compare_balance: 1300,
      },
    ],
    total: 1830,
    compare_total: 1300,
  },
  liabilities: {
    accounts: [
      {
        account_id: '01a24e93-71ec-75b3-a07f-a1d85041b791',
        code: '2700',
        name: 'Bank loan',
        subtype: 'long_term_liability',
        balance: 120.1,
        compare_balance: 0,
      },
    ],
    total: 120.1,
    compare_total: 0,
  },
  equity: {
    accounts: [
      {
        account_id: '01a24e93-71ec-75b3-a07f-c36d0b98d152',
        code: '3000',
        name: "Owner's capital",
        subtype: 'owners_equity',
        balance: 1000,
        compare_balance: 1000,
      },
      {
        account_id: '01a24e93-71ec-75b3-a07f-d36d0b98d152',
        code: '3100',
        name: 'Retained Earnings',
        subtype: 'retained_earnings',
        balance: 300,
        compare_balance: 0,
      },
    ],
    retained_earnings: 300,
    current_year_earnings: 409.9,
    total: 1709.9,
    compare_total: 1300,
    compare_retained_earnings: 0,
    compare_current_year_earnings: 300,
  },
  total_liabilities_and_equity: 1830,
  compare_total_liabilities_and_equity: 1300,
};

const BalanceSheetLine = z
  .object({
    account_id: id(),
    code: z.string(),
    name: z.string(),
    subtype: subtype(),
    balance: z
      .number()
      .check(
        z.describe(
          "The account's balance on as_of_date on its section's side: debits minus credits for assets, credits minus debits for liabilities and equity.",
        ),
      ),
    compare_balance: z.optional(z.number()).check(z.describe('The balance on compare_to; present when compare_to is given.')),
  })
  .register(z.globalRegistry, { id: 'BalanceSheetLine', description: 'One account of a balance sheet section and its balance.' });

const sectionMembers = () => ({
  accounts: z.array(BalanceSheetLine).check(z.describe('Accounts of the section holding a balance on either date, by code.')),
  total: z.number(),
  compare_total: z.optional(z.number()).check(z.describe('The total on compare_to; present when compare_to is given.')),
});

const BalanceSheetSection = z
  .object(sectionMembers())
  .register(z.globalRegistry, { id: 'BalanceSheetSection', description: 'Assets or liabilities: their accounts and total.' });

const BalanceSheetEquity = z
  .object({
    ...sectionMembers(),
    retained_earnings: z
      .number()
      .check(
        z.describe(
          "The retained earnings account's line: what was posted to it plus the profit or loss of every fiscal year that ended before fiscal_year_start.",
        ),
      ),
    current_year_earnings: z
      .number()
      .check(
        z.describe(
          'Net income from fiscal_year_start to as_of_date (income minus expenses), computed from the revenue and expense accounts; included in total.',
        ),
      ),
    compare_retained_earnings: z.optional(z.number()),
    compare_current_year_earnings: z.optional(z.number()),
  })
  .register(z.globalRegistry, {
    id: 'BalanceSheetEquity',
    description: 'Equity accounts, and the current fiscal year earnings no account holds yet; total = Σ accounts + current_year_earnings.',
  });

export const BalanceSheet = z
  .object({
    object: z.literal('balance_sheet'),
    livemode: livemode(),
    as_of_date: isoDate(),
    fiscal_year_start: isoDate().check(z.describe('The first day of the fiscal year containing as_of_date: current_year_earnings start here.')),
    compare_to: z.nullable(isoDate()),
    compare_fiscal_year_start: z.nullable(isoDate()),
    assets: BalanceSheetSection,
    liabilities: BalanceSheetSection,
    equity: BalanceSheetEquity,
    total_liabilities_and_equity: z.number().check(z.describe('liabilities.total + equity.total; always equal to assets.total.')),
    compare_total_liabilities_and_equity: z.optional(z.number()),
  })
  .register(z.globalRegistry, {
    id: 'BalanceSheet',
    description: 'Assets, liabilities and equity on a date, and optionally on an earlier date beside it.',
    examples: [BALANCE_SHEET_EXAMPLE],
  });
export type BalanceSheet = z.infer<typeof BalanceSheet>;

export const BalanceSheetQuery = queryParams({
  as_of_date: param.date('Balances include postings dated on or before this date; defaults to today (UTC).'),
  compare_to: param.date('An earlier date: adds its balances beside each line (compare_balance, compare_total).'),
});

/** The sections of the profit and loss, in the order they add up to net income. */
export const PROFIT_AND_LOSS_SECTIONS = ['income', 'cost_of_goods_sold', 'expenses', 'other'] as const;
export type ProfitAndLossSection = (typeof PROFIT_AND_LOSS_SECTIONS)[number];

/** The example the reference page shows: the first quarter by month. */
const PROFIT_AND_LOSS_EXAMPLE = {
  object: 'profit_and_loss',
  livemode: false,
  start_date: '2026-01-01',
  end_date: '2026-03-31',
  columns: [
    { kind: 'month', start_date: '2026-01-01', end_date: '2026-01-31', gross_profit: 500, net_income: 500 },
    { kind: 'month', start_date: '2026-02-01', end_date: '2026-02-28', gross_profit: 0, net_income: -70.1 },
    { kind: 'month', start_date: '2026-03-01', end_date: '2026-03-31', gross_profit: 0, net_income: -20 },
  ],
  income: {
    accounts: [
      {
        account_id: '01a24e93-71ec-75b3-a07f-e36d0b98d152',
        code: '4000',
        name: 'Service revenue',
        subtype: 'income',
        amount: 800,
        column_amounts: [800, 0, 0],
      },
    ],
    total: 800,
    column_totals: [800, 0, 0],
  },
  cost_of_goods_sold: {
    accounts: [
      {
        account_id: '01a24e93-71ec-75b3-a07f-f36d0b98d152',
        code: '5000',
        name: 'Cost of Goods Sold',
        subtype: 'cost_of_goods_sold',
        amount: 300,
        column_amounts: [300, 0, 0],
      },
    ],
    total: 300,
    column_totals: [300, 0, 0],
  },
  expenses: {
    accounts: [
      {
        account_id: '01a24e93-71ec-75b3-a07f-036d0b98d153',
        code: '6100',
        name: 'Rent expense',
        subtype: 'expense',
        amount: 120.1,
        column_amounts: [0, 120.1, 0],
      },
    ],
    total: 120.1,
    column_totals: [0, 120.1, 0],
  },
  other: {
    accounts: [
      {
        account_id: '01a24e93-71ec-75b3-a07f-136d0b98d153',
        code: '7000',
        name: 'Interest income',
        subtype: 'other_income',
        amount: 50,
        column_amounts: [0, 50, 0],
      },
      {
        account_id: '01a24e93-71ec-75b3-a07f-236d0b98d153',
        code: '8000',
        name: 'Bank fees',
        subtype: 'other_expense',
        amount: -20,
        column_amounts: [0, 0, -20],
      },
    ],
    total: 30,
    column_totals: [0, 50, -20],
  },
  gross_profit: 500,
  net_income: 409.9,
};

const ProfitAndLossLine = z
  .object({
    account_id: id(),
    code: z.string(),
    name: z.string(),
    subtype: subtype(),
    amount: z.number().check(z.describe('The whole range, signed as its section adds it (see the section).')),
    column_amounts: z.array(z.number()).check(z.describe('One amount per entry of columns, in the same order.')),
  })
  .register(z.globalRegistry, { id: 'ProfitAndLossLine', description: 'One account of a profit and loss section: the whole range and each column.' });

const ProfitAndLossSectionSchema = z
  .object({
    accounts: z.array(ProfitAndLossLine).check(z.describe('Accounts with activity in the range or a column, by code.')),
    total: z.number(),
    column_totals: z.array(z.number()),
  })
  .register(z.globalRegistry, {
    id: 'ProfitAndLossSection',
    description: 'A section of the profit and loss: its accounts, its total and its total per column.',
  });

const ProfitAndLossColumn = z
  .object({
    kind: z.enum(['month', 'quarter', 'previous_period', 'previous_year']),
    start_date: isoDate(),
    end_date: isoDate(),
    gross_profit: z.number(),
    net_income: z.number(),
  })
  .register(z.globalRegistry, {
    id: 'ProfitAndLossColumn',
    description: 'A column beside the whole range: a month or fiscal quarter of it, or the range it is compared with.',
  });

export const ProfitAndLoss = z
  .object({
    object: z.literal('profit_and_loss'),
    livemode: livemode(),
    start_date: isoDate(),
    end_date: isoDate(),
    columns: z
      .array(ProfitAndLossColumn)
      .check(z.describe('The months or fiscal quarters of the range (columns), then the comparison range (compare); empty when neither is asked.')),
    income: ProfitAndLossSectionSchema.check(z.describe('Income accounts (revenue, subtype income): credits minus debits.')),
    cost_of_goods_sold: ProfitAndLossSectionSchema.check(z.describe('Expense accounts of subtype cost_of_goods_sold: debits minus credits.')),
    expenses: ProfitAndLossSectionSchema.check(z.describe('Expense accounts of subtype expense: debits minus credits.')),
    other: ProfitAndLossSectionSchema.check(
      z.describe(
        'Other income and other expense accounts (subtypes other_income, other_expense): credits minus debits, so other expenses are negative and total is net other income.',
      ),
    ),
    gross_profit: z.number().check(z.describe('income.total − cost_of_goods_sold.total.')),
    net_income: z.number().check(z.describe('gross_profit − expenses.total + other.total.')),
  })
  .register(z.globalRegistry, {
    id: 'ProfitAndLoss',
    description: 'Income and expenses over a date range, optionally split by month or fiscal quarter and compared with an earlier range.',
    examples: [PROFIT_AND_LOSS_EXAMPLE],
  });
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

/** The example the reference page shows: a first page of two lines of the bank account. */
const ACCOUNT_ACTIVITY_EXAMPLE = {
  object: 'account_activity',
  livemode: false,
  account_id: '01a24e93-71ec-75b3-a07f-812b155b0c6f',
  code: '1000',
  name: 'Operating Bank Account',
  type: 'asset',
  normal_balance: 'debit',
  start_date: '2026-01-01',
  end_date: '2026-03-31',
  opening_balance: 1300,
  total_debits: 850,
  total_credits: 320,
  closing_balance: 1830,
  lines: [
    {
      id: '01a24e95-0c11-7d2e-9a51-3f2b7c1d0001',
      date: '2026-01-15',
      journal_entry_id: '01a24e95-0c10-7d2e-9a51-3f2b7c1d0001',
      entry_number: 'JE-000004',
      memo: 'January sales',
      source_type: 'manual',
      source_id: null,
      debit: 800,
      credit: 0,
      running_balance: 2100,
    },
    {
      id: '01a24e95-0c11-7d2e-9a51-3f2b7c1d0002',
      date: '2026-01-20',
      journal_entry_id: '01a24e95-0c10-7d2e-9a51-3f2b7c1d0002',
      entry_number: 'JE-000005',
      memo: null,
      source_type: 'ap_payment',
      source_id: '01a24e95-0c0f-7d2e-9a51-3f2b7c1d0009',
      debit: 0,
      credit: 300,
      running_balance: 1800,
    },
  ],
  has_more: true,
  next_cursor: '01a24e95-0c11-7d2e-9a51-3f2b7c1d0002',
};

const AccountActivityLine = z
  .object({
    id: id().check(z.describe('The journal line; pass it as starting_after to page on.')),
    date: isoDate(),
    journal_entry_id: id(),
    entry_number: z.string(),
    memo: z.nullable(z.string()).check(z.describe("The line's memo, else its entry's.")),
    source_type: z
      .string()
      .check(z.describe('What posted the entry: manual, recurring_journal_template, or the document type (invoice, payment, vendor_bill, ...).')),
    source_id: z.nullable(id()).check(z.describe('The document that posted the entry; null for manual entries.')),
    debit: z.number(),
    credit: z.number(),
    running_balance: z.number().check(z.describe("The account's balance after this line, on its normal side.")),
  })
  .register(z.globalRegistry, { id: 'AccountActivityLine', description: 'A journal line of the account, with the balance after it.' });

export const AccountActivity = z
  .object({
    object: z.literal('account_activity'),
    livemode: livemode(),
    account_id: id(),
    code: z.string(),
    name: z.string(),
    type: z.enum(GL_ACCOUNT_TYPES),
    normal_balance: z.enum(['debit', 'credit']).check(z.describe('The side balances are shown on: debit for assets and expenses, credit for the rest.')),
    start_date: isoDate(),
    end_date: isoDate(),
    opening_balance: z.number().check(z.describe('The balance at the start of start_date, on the normal side.')),
    total_debits: z.number().check(z.describe('Σ debits of the whole range (every page).')),
    total_credits: z.number().check(z.describe('Σ credits of the whole range (every page).')),
    closing_balance: z
      .number()
      .check(z.describe('opening_balance + total_debits − total_credits for a debit-normal account (+ credits − debits for a credit-normal one).')),
    lines: z.array(AccountActivityLine).check(z.describe('This page of the lines, by date, then in the order they were posted.')),
    has_more: z.boolean(),
    next_cursor: z
      .nullable(id())
      .check(z.describe('Pass as starting_after for the next page (as ending_before, when paging backwards); null when no lines are left that way.')),
  })
  .register(z.globalRegistry, {
    id: 'AccountActivity',
    description: "One GL account's postings over a date range with opening, running and closing balances.",
    examples: [ACCOUNT_ACTIVITY_EXAMPLE],
  });
export type AccountActivity = z.infer<typeof AccountActivity>;

export const AccountActivityQuery = queryParams({
  account_id: { ...param.id('The GL account.'), required: true },
  start_date: param.date('First day of the range; defaults to the start of the fiscal year containing end_date.'),
  end_date: param.date('Last day of the range, inclusive; defaults to today (UTC).'),
  limit: param.int({ min: 1, max: 500 }, 'Lines per page, 1 to 500.', { default: 100 }),
  starting_after: param.id('A line id from the previous page: the lines after it.'),
  ending_before: param.id('A line id: the lines before it (paging backwards); not with starting_after.'),
});
