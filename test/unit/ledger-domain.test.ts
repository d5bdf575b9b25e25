/** Property-based tests of the ledger's pure rules: balance, period workflow, schedules, trial balance. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEntry, entryTotals, lineProblem, reversedLines } from '../../shared/ledger/entry-balance';
import { acceptsPostings, monthlyPeriods, nextPeriodStatus, PERIOD_ACTIONS, PERIOD_STATUSES } from '../../shared/ledger/period-status';
import { addMonths, FREQUENCIES, nextRunDate, occurrence, occurrenceAfter, occurrencesThrough } from '../../shared/ledger/recurrence';
import { trialBalanceRow, trialBalanceTotals } from '../../shared/ledger/trial-balance';
import { amount, sum } from '../../shared/money';

/** Whole-cent amounts as decimal text, 0.01 to 1,000,000.00. */
const cents = fc.integer({ min: 1, max: 100_000_000 }).map((n) => amount(n).dividedBy(100).toFixed(2));
const isoDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** A balanced entry: debits split into random pieces, credits into others, equal totals. */
const balancedLines = fc.tuple(fc.array(cents, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 8 })).map(([debits, creditCount]) => {
  const total = sum(debits);
  const totalCents = total.times(100).toNumber();
  const pieces: number[] = [];
  let left = totalCents;
  for (let i = 0; i < creditCount - 1 && left > 1; i++) {
    const piece = Math.max(1, Math.floor(left / (creditCount - i)));
    pieces.push(piece);
    left -= piece;
  }
  pieces.push(left);
  return [...debits.map((debit) => ({ debit, credit: '0' })), ...pieces.map((piece) => ({ debit: '0', credit: amount(piece).dividedBy(100).toFixed(2) }))];
});

describe('entry balance', () => {
  it('accepts every balanced entry and reports its total', () => {
    fc.assert(
      fc.property(balancedLines, (lines) => {
        const check = checkEntry(lines);
        expect(check.ok).toBe(true);
        if (check.ok) expect(check.total.eq(sum(lines.map((l) => l.debit)))).toBe(true);
      }),
    );
  });

  it('refuses any entry whose debits and credits differ, by as little as a cent', () => {
    fc.assert(
      fc.property(balancedLines, fc.integer({ min: 1, max: 1000 }), fc.nat(), (lines, extraCents, at) => {
        const index = at % lines.length;
        const skewed = lines.map((line, i) =>
          i !== index
            ? line
            : amount(line.debit).gt(0)
              ? { ...line, debit: amount(line.debit).plus(amount(extraCents).dividedBy(100)).toFixed(2) }
              : { ...line, credit: amount(line.credit).plus(amount(extraCents).dividedBy(100)).toFixed(2) },
        );
        const check = checkEntry(skewed);
        expect(check.ok).toBe(false);
        if (!check.ok) expect(check.reason).toBe('unbalanced');
      }),
    );
  });

  it('a reversal mirrors the entry: it balances, and entry plus reversal nets every account to zero', () => {
    fc.assert(
      fc.property(balancedLines, (lines) => {
        const reversal = reversedLines(lines);
        expect(checkEntry(reversal).ok).toBe(true);
        const both = entryTotals([...lines, ...reversal]);
        expect(both.debits.eq(both.credits)).toBe(true);
        lines.forEach((line, i) => expect(amount(line.debit).minus(line.credit).plus(amount(reversal[i].debit).minus(reversal[i].credit)).isZero()).toBe(true));
      }),
    );
  });

  it('names what is wrong with a line', () => {
    expect(lineProblem({ debit: '1.00', credit: '1.00' })).toBe('both_sides');
    expect(lineProblem({ debit: 0, credit: 0 })).toBe('no_side');
    expect(lineProblem({ debit: '-5' })).toBe('negative');
    expect(lineProblem({ credit: '0.001' })).toBe('sub_cent');
    expect(lineProblem({ credit: '0.01' })).toBeUndefined();
    expect(checkEntry([{ debit: '10.00' }])).toMatchObject({ ok: false, reason: 'too_few_lines' });
    expect(checkEntry([])).toMatchObject({ ok: false, reason: 'too_few_lines' });
    expect(checkEntry([{ debit: '0.1' }, { credit: '0.10' }]).ok).toBe(true);
    expect(checkEntry([{ debit: 0.1 }, { debit: 0.2 }, { credit: 0.3 }]).ok).toBe(true); // no float drift
  });
});

describe('period workflow', () => {
  it('allows exactly open → close_requested → closed, and reopen from either of the latter', () => {
    const table = Object.fromEntries(
      PERIOD_STATUSES.map((status) => [status, Object.fromEntries(PERIOD_ACTIONS.map((a) => [a, nextPeriodStatus(status, a) ?? null]))]),
    );
    expect(table).toEqual({
      open: { request_close: 'close_requested', approve_close: null, reopen: null },
      close_requested: { request_close: null, approve_close: 'closed', reopen: 'open' },
      closed: { request_close: null, approve_close: null, reopen: 'open' },
    });
  });

  it('any sequence of moves keeps the status valid, and only open periods accept postings', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PERIOD_ACTIONS), { maxLength: 30 }), (actions) => {
        let status: (typeof PERIOD_STATUSES)[number] = 'open';
        let closedOnce = false;
        for (const action of actions) {
          const next = nextPeriodStatus(status, action);
          if (next) status = next;
          if (status === 'closed') closedOnce = true;
          expect(PERIOD_STATUSES).toContain(status);
          expect(acceptsPostings(status)).toBe(status === 'open');
        }
        // closed is reachable only through close_requested
        if (closedOnce) expect(actions).toContain('request_close');
      }),
    );
  });

  it('monthly periods tile the fiscal year without gaps or overlaps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1901, max: 9998 }), fc.integer({ min: 1, max: 12 }), (year, startMonth) => {
        const periods = monthlyPeriods(year, startMonth);
        expect(periods).toHaveLength(12);
        for (let i = 1; i < 12; i++) expect(periods[i].start_date).toBe(addMonths(periods[i - 1].start_date, 1));
        for (const p of periods) expect(addMonths(p.start_date, 1) > p.end_date).toBe(true);
        expect(periods[11].end_date.slice(0, 4)).toBe(String(year)); // named by the year it ends in
      }),
    );
    expect(monthlyPeriods(2024)[1]).toEqual({ period_name: 'Feb 2024', start_date: '2024-02-01', end_date: '2024-02-29' });
    expect(monthlyPeriods(2026, 4)[0]).toEqual({ period_name: 'Apr 2025', start_date: '2025-04-01', end_date: '2025-04-30' });
  });
});

describe('recurring schedules', () => {
  it('clamps month ends and comes back to the anchor day', () => {
    expect([0, 1, 2, 3].map((k) => occurrence('2026-01-31', 'monthly', k))).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(occurrence('2024-01-31', 'monthly', 1)).toBe('2024-02-29');
    expect(occurrence('2024-02-29', 'yearly', 1)).toBe('2025-02-28');
    expect(occurrence('2024-02-29', 'yearly', 4)).toBe('2028-02-29');
    expect(occurrence('2025-11-30', 'quarterly', 1)).toBe('2026-02-28');
    expect(occurrenceAfter('2026-01-31', 'monthly', '2026-02-28')).toBe('2026-03-31');
    expect(occurrencesThrough('2026-01-31', 'monthly', '2026-01-31', '2026-05-01')).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(nextRunDate('2026-01-31', 'monthly', '2026-03-31', '2026-04-15')).toBeNull();
    expect(nextRunDate('2026-01-31', 'weekly', null, null)).toBe('2026-01-31');
  });

  it('occurrenceAfter is the smallest occurrence strictly after the date, for every frequency', () => {
    fc.assert(
      fc.property(isoDate, fc.constantFrom(...FREQUENCIES), fc.integer({ min: 0, max: 400 }), (anchor, frequency, days) => {
        const date = new Date(Date.parse(anchor) + days * 86_400_000).toISOString().slice(0, 10);
        const next = occurrenceAfter(anchor, frequency, date);
        expect(next > date).toBe(true);
        // it is an occurrence, and the one before it is not after the date
        let k = 0;
        while (occurrence(anchor, frequency, k) < next) k++;
        expect(occurrence(anchor, frequency, k)).toBe(next);
        if (k > 0) expect(occurrence(anchor, frequency, k - 1) <= date).toBe(true);
      }),
    );
  });

  it('monthly occurrences keep the anchor day, or the month end when the month is shorter', () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: 0, max: 60 }), (anchor, k) => {
        const date = occurrence(anchor, 'monthly', k);
        const anchorDay = Number(anchor.slice(8));
        const day = Number(date.slice(8));
        const lastDay = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate();
        expect(day).toBe(Math.min(anchorDay, lastDay));
      }),
    );
  });

  it('running through consecutive dates visits every occurrence exactly once', () => {
    fc.assert(
      fc.property(isoDate, fc.constantFrom(...FREQUENCIES), fc.integer({ min: 1, max: 800 }), (anchor, frequency, span) => {
        const through = new Date(Date.parse(anchor) + span * 86_400_000).toISOString().slice(0, 10);
        const visited: string[] = [];
        for (let next = nextRunDate(anchor, frequency, null, null); next && next <= through; next = nextRunDate(anchor, frequency, next, null))
          visited.push(next);
        expect(visited).toEqual(occurrencesThrough(anchor, frequency, anchor, through));
        expect(new Set(visited).size).toBe(visited.length);
      }),
    );
  });
});

describe('trial balance', () => {
  it('ties whenever the postings balance, whatever the accounts', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(balancedLines, fc.array(fc.nat(7), { minLength: 16, maxLength: 16 }))), (entries) => {
        const accounts = new Map<number, { debits: string; credits: string }>();
        for (const [lines, assignment] of entries) {
          lines.forEach((line, i) => {
            const account = assignment[i % assignment.length];
            const current = accounts.get(account) ?? { debits: '0', credits: '0' };
            accounts.set(account, {
              debits: amount(current.debits).plus(line.debit).toString(),
              credits: amount(current.credits).plus(line.credit).toString(),
            });
          });
        }
        const rows = [...accounts.values()].map(trialBalanceRow);
        for (const row of rows) expect(row.debit_balance.isZero() || row.credit_balance.isZero()).toBe(true);
        expect(trialBalanceTotals(rows).ties).toBe(true);
      }),
    );
  });
});
