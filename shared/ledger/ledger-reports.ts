/**
 * As-of-date ledger reports (cash balance, trial balance). Both read gl_daily_balances, the
 * per-account per-day sums the journal_lines trigger maintains, so their cost follows the number
 * of (account, day) pairs with activity, not the number of lines.
 */
import type { Db } from '../db/database';
import { trialBalanceRow, trialBalanceTotals } from './trial-balance';
import { amount, sum, toJsonNumber, ZERO, type Amount } from '../money';
import { fiscalYearStart } from './fiscal-calendar';
import type { GlAccountSubtype, GlAccountType } from './schemas/gl-account';
import type { CashBalance, TrialBalance } from './schemas/ledger-report';

/**
 * Each bank account's GL balance (debits minus credits on or before the date). Inactive bank
 * accounts are listed only while they still hold a balance.
 */
export async function cashBalance(db: Db, entityId: string, asOfDate: string): Promise<CashBalance> {
  const rows = await db.query<{ bank_account_id: string; account_name: string; balance: string; is_active: boolean }>(
    `SELECT a.bank_account_id, a.name AS account_name, a.is_active,
            coalesce((SELECT sum(d.debit_total - d.credit_total) FROM gl_daily_balances d
                       WHERE d.entity_id = a.entity_id AND d.account_id = a.id AND d.balance_date <= $2::date), 0) AS balance
       FROM gl_accounts a
      WHERE a.entity_id = $1 AND a.subtype = 'bank'
      ORDER BY a.code, a.id`,
    [entityId, asOfDate],
  );
  const listed = rows.filter((row) => row.is_active || !amount(row.balance).isZero());
  return {
    object: 'cash_balance',
    as_of_date: asOfDate,
    accounts: listed.map((row) => ({ bank_account_id: row.bank_account_id, account_name: row.account_name, gl_balance: toJsonNumber(row.balance) })),
    total_gl_balance: toJsonNumber(sum(listed.map((row) => row.balance))),
  };
}

interface ActivityRow {
  id: string;
  code: string;
  name: string;
  type: GlAccountType;
  subtype: GlAccountSubtype;
  system_key: string | null;
  is_active: boolean;
  debits: string;
  credits: string;
  prior_net: string;
}

/** An account's balance as of a date, the way the trial balance and the balance sheet show it. */
export interface AccountBalance {
  id: string;
  code: string;
  name: string;
  type: GlAccountType;
  subtype: GlAccountSubtype;
  system_key: string | null;
  is_active: boolean;
  /** Debits minus credits: positive on the debit side. */
  net_debit: Amount;
}

/**
 * Every account's balance on a date, as QuickBooks shows it: balance sheet accounts carry
 * everything posted on or before the date; revenue and expense accounts carry the current fiscal
 * year's activity, and the profit or loss of earlier fiscal years sits in retained earnings
 * (whether or not their periods were closed: a fiscal year's end closes it into retained earnings).
 */
export async function accountBalances(db: Db, entityId: string, asOfDate: string): Promise<{ fiscalYearStart: string; accounts: AccountBalance[] }> {
  const fyStart = await fiscalYearStart(db, entityId, asOfDate);
  const rows = await db.query<ActivityRow>(
    `WITH activity AS (
       SELECT d.account_id,
              sum(d.debit_total) FILTER (WHERE a.type NOT IN ('revenue', 'expense') OR d.balance_date >= $3::date) AS debits,
              sum(d.credit_total) FILTER (WHERE a.type NOT IN ('revenue', 'expense') OR d.balance_date >= $3::date) AS credits,
              sum(d.debit_total - d.credit_total) FILTER (WHERE a.type IN ('revenue', 'expense') AND d.balance_date < $3::date) AS prior_net
         FROM gl_daily_balances d JOIN gl_accounts a ON a.entity_id = d.entity_id AND a.id = d.account_id
        WHERE d.entity_id = $1 AND d.balance_date <= $2::date
        GROUP BY d.account_id
     )
     SELECT a.id, a.code, a.name, a.type, a.subtype, a.system_key, a.is_active,
            coalesce(x.debits, 0) AS debits, coalesce(x.credits, 0) AS credits, coalesce(x.prior_net, 0) AS prior_net
       FROM gl_accounts a LEFT JOIN activity x ON x.account_id = a.id
      WHERE a.entity_id = $1
      ORDER BY a.code, a.id`,
    [entityId, asOfDate, fyStart],
  );
  // Earlier years' profit (net credit) or loss (net debit) closes into retained earnings.
  const priorNet = sum(rows.map((row) => row.prior_net));
  const accounts = rows.map(({ debits, credits, prior_net: _prior, ...row }) => {
    const closing = row.system_key === 'retained_earnings' ? priorNet : ZERO;
    return { ...row, net_debit: amount(debits).minus(credits).plus(closing) };
  });
  return { fiscalYearStart: fyStart, accounts };
}

/**
 * The trial balance: each account's balance (accountBalances) in the debit or the credit column;
 * the columns tie. Active accounts are listed even at zero, inactive ones only while they hold a
 * balance.
 */
export async function trialBalance(db: Db, entityId: string, asOfDate: string): Promise<TrialBalance> {
  const { fiscalYearStart: fyStart, accounts: balances } = await accountBalances(db, entityId, asOfDate);
  const accounts = balances
    .map((row) => ({ row, balance: trialBalanceRow({ debits: row.net_debit, credits: ZERO }) }))
    .filter(({ row, balance }) => row.is_active || !balance.debit_balance.isZero() || !balance.credit_balance.isZero());
  const totals = trialBalanceTotals(accounts.map(({ balance }) => balance));
  return {
    object: 'trial_balance',
    as_of_date: asOfDate,
    fiscal_year_start: fyStart,
    accounts: accounts.map(({ row, balance }) => ({
      account_id: row.id,
      code: row.code,
      name: row.name,
      type: row.type,
      debit_balance: toJsonNumber(balance.debit_balance),
      credit_balance: toJsonNumber(balance.credit_balance),
    })),
    total_debits: toJsonNumber(totals.total_debits),
    total_credits: toJsonNumber(totals.total_credits),
  };
}
