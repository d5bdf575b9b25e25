import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demandReorderPoint } from '../../shared/catalog/demand-reorder-point';
import { depositTakes } from '../../shared/payments/deposit-application';
import { amount, sum } from '../../shared/money';
import { decimal } from '../support/decimal-arbitraries';

describe('reorder_point_mode demand: the reorder point follows demand × lead time', () => {
  it('is demand_avg_per_day × lead_time_days, rounded half away from zero to 4 decimals; 0 without a lead time', () => {
    expect(demandReorderPoint('2.25', 10).toString()).toBe('22.5');
    expect(demandReorderPoint('0.33335', 1).toString()).toBe('0.3334');
    expect(demandReorderPoint('5', null).toString()).toBe('0');
    expect(demandReorderPoint('0', 30).toString()).toBe('0');
  });
});

describe('prepayments follow the invoice: what a deposit gives an invoice', () => {
  it('oldest first, each up to what it holds, never more than the invoice is open for or the deposit holds', () => {
    fc.assert(
      fc.property(decimal(10_000, 2), fc.array(decimal(5_000, 2), { maxLength: 6 }), (open, holds) => {
        const applications = holds.map((held, index) => ({ id: String(index), holds: amount(held) }));
        const takes = depositTakes(amount(open), applications);
        const taken = sum(takes.map((t) => t.take));
        const held = sum(applications.map((a) => a.holds));
        expect(taken.eq(amount(open).lt(held) ? amount(open) : held)).toBe(true);
        for (const take of takes) {
          expect(take.take.gt(0)).toBe(true);
          expect(take.take.lte(applications[Number(take.id)].holds)).toBe(true);
        }
        // Oldest first: only the last application taken may be taken in part.
        takes.slice(0, -1).forEach((take) => expect(take.take.eq(applications[Number(take.id)].holds)).toBe(true));
      }),
    );
  });
});
