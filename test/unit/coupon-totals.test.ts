/** Coupon adjustments in the totals engine: prorated into coupon_adjustment, exactly, before other discounts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeTotals, type AdjustmentInput, type LineInput } from '../../shared/orders/totals';
import { round, sum, ZERO } from '../../shared/money';
import { decimal, positive } from '../support/decimal-arbitraries';

const line: fc.Arbitrary<LineInput> = fc.record({
  quantity: positive(100, 4),
  list_price: decimal(1_000, 4),
  sell_rate: decimal(1_000, 4),
  discount_amount: fc.option(decimal(200, 2), { nil: null }),
  discount_percent: fc.option(decimal(100, 2), { nil: null }),
  tax_rate: fc.option(decimal(30, 4), { nil: null }),
  is_kit_component: fc.boolean(),
});
const adjustment = (coupon: boolean): fc.Arbitrary<AdjustmentInput> =>
  fc.record({
    id: fc.uuid(),
    name: fc.constant(coupon ? 'coupon' : 'manual'),
    effect_type: coupon ? fc.constant('discount' as const) : fc.constantFrom('discount' as const, 'fee' as const),
    discount_type: fc.constantFrom('percentage' as const, 'fixed_amount' as const),
    value: decimal(100, 2),
    coupon_id: coupon ? fc.uuid() : fc.constant(null),
  });
const order = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 10 }),
  // Coupons and manual adjustments interleaved: coupons apply first whatever their position.
  adjustments: fc
    .tuple(fc.array(adjustment(true), { maxLength: 3 }), fc.array(adjustment(false), { maxLength: 3 }))
    .chain(([coupons, manual]) => fc.shuffledSubarray([...coupons, ...manual], { minLength: coupons.length + manual.length })),
});

describe('coupon proration (property-based)', () => {
  it("each coupon's line shares sum exactly to its amount, and each line's coupon_adjustment is the sum of its coupon shares", () => {
    fc.assert(
      fc.property(order, (input) => {
        const totals = computeTotals(input);
        for (const coupon of input.adjustments.filter((a) => a.coupon_id)) {
          const applied = totals.adjustments.find((a) => a.id === coupon.id)!.amount;
          const shares = totals.lines.flatMap((l) => l.shares.filter((s) => s.adjustment_id === coupon.id));
          expect(sum(shares.map((s) => s.line_amount)).eq(applied)).toBe(true);
          for (const share of shares) expect(share.coupon_id).toBe(coupon.coupon_id);
        }
        totals.lines.forEach((l) => {
          const couponShares = sum(l.shares.filter((s) => s.coupon_id).map((s) => s.line_amount));
          expect(l.coupon_adjustment.eq(couponShares)).toBe(true);
          expect(l.coupon_adjustment.gte(0)).toBe(true);
          // Never below zero: line discount + coupons + order discounts ≤ line_subtotal.
          expect(l.discount_amount.plus(l.coupon_adjustment).plus(l.order_discount).lte(l.line_subtotal)).toBe(true);
        });
        expect(totals.discount_total.eq(sum(totals.lines.map((l) => l.discount_amount.plus(l.coupon_adjustment).plus(l.order_discount))))).toBe(true);
      }),
    );
  });

  it('a coupon alone takes min(nominal, merchandise after line discounts); coupons apply before manual discounts regardless of order', () => {
    fc.assert(
      fc.property(order, (input) => {
        const totals = computeTotals(input);
        const noAdjustments = computeTotals({ ...input, adjustments: [] });
        const merchandise = sum(noAdjustments.lines.map((l) => l.line_subtotal.minus(l.discount_amount)));
        let left = merchandise;
        for (const coupon of input.adjustments.filter((a) => a.coupon_id)) {
          const nominal = coupon.discount_type === 'percentage' ? round(merchandise.times(coupon.value).dividedBy(100)) : round(coupon.value);
          const expected = nominal.lt(left) ? nominal : left;
          expect(totals.adjustments.find((a) => a.id === coupon.id)!.amount.eq(expected)).toBe(true);
          left = left.minus(expected);
        }
        const couponsFirst = computeTotals({
          ...input,
          adjustments: [...input.adjustments.filter((a) => a.coupon_id), ...input.adjustments.filter((a) => !a.coupon_id)],
        });
        expect(couponsFirst.order_total.eq(totals.order_total)).toBe(true);
        expect(left.gte(ZERO)).toBe(true);
      }),
    );
  });
});
