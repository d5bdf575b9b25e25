/**
 * The double-entry rule, pure: a set of lines balances when every line has exactly one positive
 * side (debit or credit) in whole cents and the debits equal the credits. Decimal arithmetic
 * only; amounts arrive as decimal strings, JSON numbers or decimals.
 */
import { amount, MONEY_SCALE, sum, ZERO, type Amount, type AmountLike } from '../money';

export interface LedgerLine {
  debit?: AmountLike | null;
  credit?: AmountLike | null;
}

export type LineProblem = 'both_sides' | 'no_side' | 'negative' | 'sub_cent';

/** What is wrong with one line, or undefined when it is a valid ledger line. */
export function lineProblem(line: LedgerLine): LineProblem | undefined {
  const debit = amount(line.debit ?? 0);
  const credit = amount(line.credit ?? 0);
  if (debit.isNegative() || credit.isNegative()) return 'negative';
  if (debit.decimalPlaces() > MONEY_SCALE || credit.decimalPlaces() > MONEY_SCALE) return 'sub_cent';
  if (debit.gt(0) && credit.gt(0)) return 'both_sides';
  if (debit.isZero() && credit.isZero()) return 'no_side';
  return undefined;
}

export interface EntryTotals {
  debits: Amount;
  credits: Amount;
}

export function entryTotals(lines: readonly LedgerLine[]): EntryTotals {
  return { debits: sum(lines.map((line) => line.debit ?? 0)), credits: sum(lines.map((line) => line.credit ?? 0)) };
}

export type EntryCheck =
  | { ok: true; total: Amount; debits: Amount; credits: Amount }
  | { ok: false; reason: 'invalid_line'; index: number; problem: LineProblem; debits: Amount; credits: Amount }
  | { ok: false; reason: 'too_few_lines' | 'unbalanced'; debits: Amount; credits: Amount };

/**
 * Whether `lines` can be posted: every line valid, at least one debit and one credit line, and
 * debits equal to credits to the cent.
 */
export function checkEntry(lines: readonly LedgerLine[]): EntryCheck {
  const { debits, credits } = entryTotals(lines);
  for (const [index, line] of lines.entries()) {
    const problem = lineProblem(line);
    if (problem) return { ok: false, reason: 'invalid_line', index, problem, debits, credits };
  }
  if (lines.length < 2 || debits.isZero() || credits.isZero()) return { ok: false, reason: 'too_few_lines', debits, credits };
  if (!debits.eq(credits)) return { ok: false, reason: 'unbalanced', debits, credits };
  return { ok: true, total: debits, debits, credits };
}

/** The lines of a reversing entry: every debit becomes a credit of the same amount and vice versa. */
export function reversedLines<T extends LedgerLine>(lines: readonly T[]): (T & { debit: AmountLike; credit: AmountLike })[] {
  return lines.map((line) => ({ ...line, debit: line.credit ?? ZERO, credit: line.debit ?? ZERO }));
}
