/**
 * The journal lines of vendor credits and AP payments, without I/O, and the arithmetic of applying
 * credits first. The design (docs/decisions.md, "Vendor credits in the ledger"):
 *
 * - issuance A: debit vendor_returns_receivable A (the claim on the vendor), credit vendor_credits
 *   A (the credit not yet used, held until it reduces a bill);
 * - application x to a bill: debit accounts_payable x, credit vendor_returns_receivable x (the claim
 *   settles the payable), and debit vendor_credits x, credit cost_of_goods_sold x (the credit is
 *   realised as a reduction of purchase cost);
 * - void or expiry of the remaining r: debit vendor_credits r, credit vendor_returns_receivable r
 *   (the claim is cancelled or forfeited; nothing was realised, so no P&L).
 *
 * A credit carries 4 decimals and the ledger cents: issuance and release post their amount rounded
 * to cents, and applications take whole cents only (`applicable`). Since every application is whole
 * cents, the rounded issuance less the applications is the rounded remaining, so the credit balance
 * of vendor_credits, and the debit balance of vendor_returns_receivable, both equal
 * Σ round(remaining_amount, 2) at every moment, and each entry balances.
 */
import { amount, floor, MONEY_SCALE, round, ZERO, type Amount, type AmountLike } from '../money';
import type { PostingLine } from '../ledger/post-journal-entry';

/** What a credit's remaining balance can pay: its whole cents (a bill is paid in cents). */
export function applicable(remaining: AmountLike): Amount {
  return floor(amount(remaining).times(100)).div(100);
}

/** What an issuance or a release posts: the amount in cents (zero: nothing to post). */
export function postedAmount(value: AmountLike): Amount {
  return round(value, MONEY_SCALE);
}

export function issuanceLines(value: AmountLike, creditNumber: string): PostingLine[] {
  const total = postedAmount(value).toString();
  return [
    { system_key: 'vendor_returns_receivable', debit: total, memo: creditNumber },
    { system_key: 'vendor_credits', credit: total, memo: creditNumber },
  ];
}

/** Void or expiry: the unapplied balance leaves both accounts. */
export function releaseLines(value: AmountLike, memo: string): PostingLine[] {
  const total = postedAmount(value).toString();
  return [
    { system_key: 'vendor_credits', debit: total, memo },
    { system_key: 'vendor_returns_receivable', credit: total, memo },
  ];
}

export interface PlannedApplication {
  billIndex: number;
  creditIndex: number | null;
  amount: Amount;
}

/**
 * Credits first: walks the bills in order and spends the credits in order on each bill's amount;
 * what the credits do not cover is cash. Never puts more on a bill than its amount nor takes more
 * from a credit than its remaining.
 */
export function planApplications(billAmounts: readonly AmountLike[], creditRemaining: readonly AmountLike[]): PlannedApplication[] {
  const left = creditRemaining.map((value) => amount(value));
  const plan: PlannedApplication[] = [];
  billAmounts.forEach((billAmount, billIndex) => {
    let owed = amount(billAmount);
    for (let creditIndex = 0; creditIndex < left.length && owed.gt(0); creditIndex++) {
      const take = owed.lte(left[creditIndex]) ? owed : left[creditIndex];
      if (take.lte(0)) continue;
      plan.push({ billIndex, creditIndex, amount: take });
      left[creditIndex] = left[creditIndex].minus(take);
      owed = owed.minus(take);
    }
    if (owed.gt(0)) plan.push({ billIndex, creditIndex: null, amount: owed });
  });
  return plan;
}

/** The AP payment's one entry: debit AP per bill, credit the bank the cash, and the credit application lines. */
export function paymentLines(
  paymentNumber: string,
  bankGlAccountId: string | null,
  bills: readonly { bill_number: string; total: Amount }[],
  cash: Amount,
  creditTotal: Amount,
): PostingLine[] {
  const lines: PostingLine[] = [];
  for (const bill of bills) {
    if (bill.total.gt(0)) lines.push({ system_key: 'accounts_payable', debit: bill.total.toString(), memo: `${paymentNumber} ${bill.bill_number}` });
  }
  if (cash.gt(0)) lines.push({ account_id: bankGlAccountId!, credit: cash.toString(), memo: paymentNumber });
  if (creditTotal.gt(ZERO)) {
    const memo = `${paymentNumber} vendor credits`;
    lines.push({ system_key: 'vendor_returns_receivable', credit: creditTotal.toString(), memo });
    lines.push({ system_key: 'vendor_credits', debit: creditTotal.toString(), memo });
    lines.push({ system_key: 'cost_of_goods_sold', credit: creditTotal.toString(), memo });
  }
  return lines;
}

/** The status a credit's balance gives it (voided and expired are set by their moves). */
export function creditStatus(total: AmountLike, remaining: AmountLike): 'open' | 'partially_applied' | 'applied' {
  const left = amount(remaining);
  if (left.isZero()) return 'applied';
  return left.eq(amount(total)) ? 'open' : 'partially_applied';
}
