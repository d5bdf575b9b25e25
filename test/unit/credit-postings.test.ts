/** The pure rules of vendor credits and AP payments: credits-first planning and the balanced entries. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryTotals } from '../../shared/ledger/entry-balance';
import { amount, sum } from '../../shared/money';
import { creditStatus, issuanceLines, paymentLines, planApplications, releaseLines } from '../../shared/payables/credit-postings';

const cents = fc.integer({ min: 1, max: 10_000_000 }).map((c) => (c / 100).toFixed(2));

describe('planApplications', () => {
  it('applies the credits first, in order, and never puts more on a bill than asked nor takes more from a credit than it has', () => {
    fc.assert(
      fc.property(fc.array(cents, { minLength: 1, maxLength: 6 }), fc.array(cents, { maxLength: 4 }), (bills, credits) => {
        const plan = planApplications(bills, credits);
        bills.forEach((bill, index) => {
          expect(sum(plan.filter((a) => a.billIndex === index).map((a) => a.amount)).toString()).toBe(amount(bill).toString());
        });
        credits.forEach((credit, index) => {
          expect(sum(plan.filter((a) => a.creditIndex === index).map((a) => a.amount)).lte(amount(credit))).toBe(true);
        });
        // Cash only once every credit is spent.
        const creditUse = sum(plan.filter((a) => a.creditIndex !== null).map((a) => a.amount));
        const cash = sum(plan.filter((a) => a.creditIndex === null).map((a) => a.amount));
        if (cash.gt(0)) expect(creditUse.toString()).toBe(sum(credits).toString());
        for (const a of plan) expect(a.amount.gt(0)).toBe(true);
      }),
    );
  });

  it('spends credit 1 before credit 2 and bill 1 before bill 2', () => {
    expect(planApplications(['30', '20'], ['10', '25']).map((a) => [a.billIndex, a.creditIndex, a.amount.toString()])).toEqual([
      [0, 0, '10'],
      [0, 1, '20'],
      [1, 1, '5'],
      [1, null, '15'],
    ]);
  });
});

describe('the vendor credit entries', () => {
  it('issuance, release and payment entries balance', () => {
    fc.assert(
      fc.property(cents, cents, cents, (cash, credit, extra) => {
        for (const lines of [issuanceLines(credit, 'VC-1'), releaseLines(credit, 'VC-1')]) {
          const totals = entryTotals(lines.map((l) => ({ debit: l.debit ?? 0, credit: l.credit ?? 0 })));
          expect(totals.debits.toString()).toBe(totals.credits.toString());
        }
        const bills = [
          { bill_number: 'B1', total: amount(cash).plus(credit) },
          { bill_number: 'B2', total: amount(extra) },
        ];
        const lines = paymentLines('APP-1', 'bank-gl', bills, amount(cash).plus(extra), amount(credit));
        const totals = entryTotals(lines.map((l) => ({ debit: l.debit ?? 0, credit: l.credit ?? 0 })));
        expect(totals.debits.toString()).toBe(totals.credits.toString());
      }),
    );
  });

  it('a credit is open untouched, partially_applied when part is spent, applied at zero', () => {
    expect([creditStatus('10', '10'), creditStatus('10', '4'), creditStatus('10', '0')]).toEqual(['open', 'partially_applied', 'applied']);
  });
});
