/**
 * The trial balance, pure: each account's net balance goes to the debit or the credit column, and
 * the two column totals tie whenever the underlying postings balance.
 */
import { amount, sum, ZERO, type Amount, type AmountLike } from '../money';

export interface AccountActivity {
  debits: AmountLike;
  credits: AmountLike;
}

export interface TrialBalanceRow {
  debit_balance: Amount;
  credit_balance: Amount;
}

/** Net debit balance goes to the debit column, net credit balance to the credit column. */
export function trialBalanceRow(activity: AccountActivity): TrialBalanceRow {
  const net = amount(activity.debits).minus(amount(activity.credits));
  return net.isNegative() ? { debit_balance: ZERO, credit_balance: net.negated() } : { debit_balance: net, credit_balance: ZERO };
}

export interface TrialBalanceTotals {
  total_debits: Amount;
  total_credits: Amount;
  ties: boolean;
}

export function trialBalanceTotals(rows: readonly TrialBalanceRow[]): TrialBalanceTotals {
  const totalDebits = sum(rows.map((row) => row.debit_balance));
  const totalCredits = sum(rows.map((row) => row.credit_balance));
  return { total_debits: totalDebits, total_credits: totalCredits, ties: totalDebits.eq(totalCredits) };
}
