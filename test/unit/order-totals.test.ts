import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountDue,
  balanceDue,
  balanceForcedToZeroBy,
  computeTotals,
  prorate,
  type AdjustmentInput,
  type DocumentType,
  type LineInput,
  type OrderStatus,
  type PaymentStatus,
} from '../../shared/orders/totals';
import { amount, round, sum } from '../../shared/money';
import { decimal, positive } from '../support/decimal-arbitraries';

const line: fc.Arbitrary<LineInput> = fc.record({
  quantity: positive(500, 4),
  list_price: decimal(5_000, 4),
  sell_rate: decimal(5_000, 4),
  coupon_adjustment: fc.constantFrom('0', '0', '1.50'),
  discount_amount: fc.option(decimal(200, 2), { nil: null }),
  discount_percent: fc.option(decimal(100, 2), { nil: null }),
  tax_rate: fc.option(decimal(30, 4), { nil: null }),
  is_tax_exempt: fc.boolean(),
  is_kit_component: fc.boolean(),
  is_kit: fc.boolean(),
});
const adjustment: fc.Arbitrary<AdjustmentInput> = fc.record({
  id: fc.uuid(),
  name: fc.constant('adj'),
  effect_type: fc.constantFrom('discount' as const, 'fee' as const),
  discount_type: fc.constantFrom('percentage' as const, 'fixed_amount' as const),
  value: decimal(100, 2),
});
const order = fc.record({
  lines: fc.array(line, { maxLength: 12 }),
  adjustments: fc.array(adjustment, { maxLength: 4 }),
  shipping_total: decimal(100, 2),
  tax_exempt: fc.boolean(),
});

const DOCUMENT_TYPES: DocumentType[] = ['quote', 'sales_order', 'invoice', 'return', 'purchase_order'];
const ORDER_STATUSES: OrderStatus[] = ['draft', 'confirmed', 'partially_fulfilled', 'fulfilled', 'cancelled', 'voided', 'awaiting_ach_clearance', 'on_hold'];
const PAYMENT_STATUSES: PaymentStatus[] = ['unpaid', 'partially_paid', 'paid', 'overpaid', 'refunded', 'partially_refunded', 'voided'];
const money = fc.integer({ min: -1_000_000_00, max: 1_000_000_00 }).map((n) => amount(n).dividedBy(100).toString());
const balanceState = fc.record({
  document_type: fc.constantFrom(...DOCUMENT_TYPES),
  order_status: fc.constantFrom(...ORDER_STATUSES),
  payment_status: fc.constantFrom(...PAYMENT_STATUSES),
  order_total: money,
  amount_paid: money,
  is_archived: fc.boolean(),
  is_expired: fc.boolean(),
});

describe('order totals: properties', () => {
  it('prorations sum exactly to the order-level discount, and no share exceeds its weight', () => {
    fc.assert(
      fc.property(fc.array(decimal(10_000, 2), { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 1000 }), (weights, permille) => {
        const total = round(sum(weights).times(permille).dividedBy(1000), 2);
        const shares = prorate(total, weights);
        expect(sum(shares).eq(total)).toBe(true);
        shares.forEach((share, i) => {
          expect(share.gte(0)).toBe(true);
          expect(share.lte(weights[i])).toBe(true);
          expect(share.decimalPlaces()).toBeLessThanOrEqual(2);
        });
      }),
    );
  });

  it('the line shares of every order-level discount sum exactly to its amount', () => {
    fc.assert(
      fc.property(order, (input) => {
        const totals = computeTotals(input);
        for (const adj of totals.adjustments) {
          const source = input.adjustments.find((a) => a.id === adj.id)!;
          if (source.effect_type !== 'discount') continue;
          const shares = totals.lines.flatMap((l) => l.shares.filter((s) => s.adjustment_id === adj.id).map((s) => s.line_amount));
          expect(sum(shares).eq(adj.amount)).toBe(true);
        }
      }),
    );
  });

  it('list_price_total and pricing_savings are sums over non-kit lines, and list_price_total − pricing_savings = the subtotal of those lines', () => {
    fc.assert(
      fc.property(order, (input) => {
        const totals = computeTotals(input);
        const nonKit = input.lines.map((l, i) => ({ l, t: totals.lines[i] })).filter(({ l }) => !l.is_kit_component && !l.is_kit);
        expect(totals.list_price_total.eq(sum(nonKit.map(({ l }) => round(amount(l.list_price).times(l.quantity), 2))))).toBe(true);
        expect(totals.list_price_total.minus(totals.pricing_savings).eq(sum(nonKit.map(({ t }) => t.line_subtotal)))).toBe(true);
        // Positive magnitude: no savings when every non-kit line sells at or above its list price.
        if (nonKit.every(({ l }) => amount(l.sell_rate).gte(l.list_price))) expect(totals.pricing_savings.lte(0)).toBe(true);
        if (nonKit.every(({ l }) => amount(l.sell_rate).lte(l.list_price))) expect(totals.pricing_savings.gte(0)).toBe(true);
        // Kit lines still count in the subtotal.
        expect(totals.subtotal.eq(sum(totals.lines.map((t) => t.line_subtotal)))).toBe(true);
      }),
    );
  });

  it('pricing_savings leaves the kit line out: W-1 × 3 at list 25 sold at 21, plus a kit at 40 with no list price, saves 12', () => {
    const t = computeTotals({
      lines: [
        { quantity: 3, list_price: 25, sell_rate: 21 },
        { quantity: 1, list_price: 0, sell_rate: 40, is_kit: true },
        { quantity: 2, list_price: 5, sell_rate: 0, is_kit_component: true },
      ],
      adjustments: [],
    });
    expect(t.pricing_savings.toString()).toBe('12');
    expect(t.list_price_total.toString()).toBe('75');
    expect(t.subtotal.toString()).toBe('103');
  });

  it('order_total = subtotal − discount_total + shipping_total + tax_total + fee_total, and equals Σ line_total + shipping + fees', () => {
    fc.assert(
      fc.property(order, (input) => {
        const t = computeTotals(input);
        expect(t.order_total.eq(t.subtotal.minus(t.discount_total).plus(t.shipping_total).plus(t.tax_total).plus(t.fee_total))).toBe(true);
        expect(
          t.order_total.eq(
            sum(t.lines.map((l) => l.line_total))
              .plus(t.shipping_total)
              .plus(t.fee_total),
          ),
        ).toBe(true);
        for (const l of t.lines) expect(l.line_total.gte(0)).toBe(true);
        for (const value of [t.subtotal, t.discount_total, t.tax_total, t.fee_total, t.order_total]) expect(value.decimalPlaces()).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('amount_due = order_total − amount_paid rounded to 2 decimals, whatever the status', () => {
    fc.assert(
      fc.property(balanceState, (state) => {
        expect(amountDue(state.order_total, state.amount_paid).eq(round(amount(state.order_total).minus(state.amount_paid), 2))).toBe(true);
      }),
    );
  });

  it('balance_due is 0 exactly in the forced cases and amount_due otherwise; purchase orders and quotes are never forced', () => {
    fc.assert(
      fc.property(balanceState, (state) => {
        const forced =
          state.document_type !== 'purchase_order' &&
          state.document_type !== 'quote' &&
          (state.order_status === 'draft' ||
            state.order_status === 'cancelled' ||
            state.is_archived ||
            state.is_expired ||
            // A voided invoice is the document voided; payment_status voided alone (its payments voided) leaves it owed.
            (state.document_type === 'invoice' && (state.order_status === 'voided' || state.payment_status === 'refunded')));
        const expected = forced ? amount(0) : amountDue(state.order_total, state.amount_paid);
        expect(balanceDue(state).eq(expected)).toBe(true);
        if (state.document_type === 'purchase_order' || state.document_type === 'quote') expect(balanceForcedToZeroBy(state)).toBeNull();
      }),
    );
  });
});

const base = { quantity: 2, list_price: 10, sell_rate: 10 } satisfies LineInput;
const state = (overrides: Partial<Parameters<typeof balanceDue>[0]>) => ({
  document_type: 'invoice' as DocumentType,
  order_status: 'confirmed' as OrderStatus,
  payment_status: 'partially_paid' as PaymentStatus,
  order_total: '100.00',
  amount_paid: '30.00',
  ...overrides,
});

describe('order totals: the spec, sentence by sentence', () => {
  it('list_price_total: sum of list_price times quantity over non-kit lines', () => {
    const t = computeTotals({
      lines: [
        { ...base, list_price: '12.50', sell_rate: 10 },
        { quantity: 3, list_price: 4, sell_rate: 0, is_kit_component: true },
      ],
      adjustments: [],
    });
    expect(t.list_price_total.toString()).toBe('25');
  });

  it('list_price_total: list price minus pricing_savings equals subtotal', () => {
    const t = computeTotals({ lines: [{ quantity: '3.3333', list_price: '9.9999', sell_rate: '7.7777' }], adjustments: [] });
    expect(t.list_price_total.minus(t.pricing_savings).eq(t.subtotal)).toBe(true);
  });

  it('list_price_total and pricing_savings are never part of order_total', () => {
    const t = computeTotals({ lines: [{ ...base, list_price: 15 }], adjustments: [] });
    expect(t.order_total.toString()).toBe('20');
    expect(t.pricing_savings.toString()).toBe('10');
  });

  it('pricing_savings: sum of pricing_rule_adjustment times quantity over non-kit lines, positive magnitude', () => {
    const t = computeTotals({ lines: [{ quantity: 4, list_price: 10, sell_rate: '8.75' }], adjustments: [] });
    expect(t.lines[0].pricing_rule_adjustment.toString()).toBe('1.25');
    expect(t.pricing_savings.toString()).toBe('5');
  });

  it('pricing_savings is already inside subtotal through sell_rate', () => {
    const t = computeTotals({ lines: [{ quantity: 4, list_price: 10, sell_rate: '8.75' }], adjustments: [] });
    expect(t.subtotal.toString()).toBe('35');
  });

  it('amount_due: order_total minus amount_paid, rounded to 2 decimals', () => {
    expect(amountDue('100.005', '0').toString()).toBe('100.01');
    expect(amountDue('100', '30').toString()).toBe('70');
  });

  it('amount_due is status-blind', () => {
    for (const order_status of ORDER_STATUSES) expect(amountDue(state({ order_status }).order_total, '30').toString()).toBe('70');
  });

  it('amount_due is negative when overpaid', () => {
    expect(amountDue('100', '120.5').toString()).toBe('-20.5');
  });

  it('amount_due equals balance_due on a confirmed, non-refunded document with no sales allowance and no cancellation', () => {
    const s = state({});
    expect(balanceDue(s).eq(amountDue(s.order_total, s.amount_paid))).toBe(true);
  });

  it('balance_due: forced to 0 on draft sales documents', () => {
    for (const document_type of ['sales_order', 'invoice', 'return'] as DocumentType[]) {
      expect(balanceDue(state({ document_type, order_status: 'draft' })).isZero()).toBe(true);
    }
  });

  it('balance_due: forced to 0 on cancelled, archived or expired orders', () => {
    expect(balanceDue(state({ document_type: 'sales_order', order_status: 'cancelled' })).isZero()).toBe(true);
    expect(balanceDue({ ...state({ document_type: 'sales_order' }), is_archived: true }).isZero()).toBe(true);
    expect(balanceDue({ ...state({ document_type: 'sales_order' }), is_expired: true }).isZero()).toBe(true);
  });

  it('balance_due: forced to 0 on voided or fully-refunded invoices', () => {
    expect(balanceDue(state({ order_status: 'voided', payment_status: 'voided' })).isZero()).toBe(true);
    expect(balanceDue(state({ order_status: 'voided' })).isZero()).toBe(true);
    expect(balanceDue(state({ payment_status: 'refunded' })).isZero()).toBe(true);
    expect(balanceDue(state({ payment_status: 'partially_refunded' })).toString()).toBe('70');
    // Voided on a sales order is not an invoice: not forced by this sentence.
    expect(balanceDue(state({ document_type: 'sales_order', order_status: 'voided' })).toString()).toBe('70');
  });

  it('balance_due (decision, payment_status moves): an invoice whose payments were voided is not a voided invoice and still owes its total', () => {
    expect(balanceDue(state({ payment_status: 'voided', amount_paid: '0' })).toString()).toBe('100');
    expect(balanceForcedToZeroBy(state({ payment_status: 'voided', amount_paid: '0' }))).toBeNull();
  });

  it('balance_due: purchase orders and quotes are never forced to 0', () => {
    for (const document_type of ['purchase_order', 'quote'] as DocumentType[]) {
      for (const order_status of ORDER_STATUSES) {
        expect(balanceDue({ ...state({ document_type, order_status, payment_status: 'refunded' }), is_archived: true }).toString()).toBe('70');
      }
    }
  });

  it('line: sell_rate = list_price − pricing_rule_adjustment', () => {
    const t = computeTotals({ lines: [{ quantity: 1, list_price: '19.99', sell_rate: '17.49' }], adjustments: [] });
    expect(amount('19.99').minus(t.lines[0].pricing_rule_adjustment).toString()).toBe('17.49');
  });

  it('line: discount_percent is a percentage of line_subtotal, rounded half away from zero to cents', () => {
    const t = computeTotals({ lines: [{ quantity: 1, list_price: '10.05', sell_rate: '10.05', discount_percent: 5 }], adjustments: [] });
    expect(t.lines[0].discount_amount.toString()).toBe('0.5'); // 0.5025 → 0.50
    const u = computeTotals({ lines: [{ quantity: 1, list_price: '0.1', sell_rate: '0.1', discount_percent: 5 }], adjustments: [] });
    expect(u.lines[0].discount_amount.toString()).toBe('0.01'); // 0.005 → 0.01
  });

  it('line: tax is the rate of the discounted amount, 0 on exempt lines and on exempt orders', () => {
    const lines: LineInput[] = [
      { ...base, tax_rate: '8.25' },
      { ...base, tax_rate: '8.25', is_tax_exempt: true },
    ];
    const t = computeTotals({ lines, adjustments: [{ id: 'a', name: 'Promo', effect_type: 'discount', discount_type: 'fixed_amount', value: 10 }] });
    expect(t.lines[0].tax_amount.toString()).toBe('1.24'); // (20 − 5) × 8.25 % = 1.2375
    expect(t.lines[1].tax_amount.isZero()).toBe(true);
    expect(computeTotals({ lines, adjustments: [], tax_exempt: true }).tax_total.isZero()).toBe(true);
  });

  it('order-level percentage discounts are prorated over lines, the remainder cent going deterministically', () => {
    const lines: LineInput[] = [base, base, base].map((l) => ({ ...l, quantity: 1 }));
    const t = computeTotals({ lines, adjustments: [{ id: 'a', name: '10% off', effect_type: 'discount', discount_type: 'fixed_amount', value: '0.10' }] });
    expect(t.lines.map((l) => l.order_discount.toString())).toEqual(['0.04', '0.03', '0.03']);
    const again = computeTotals({ lines, adjustments: [{ id: 'a', name: 'x', effect_type: 'discount', discount_type: 'fixed_amount', value: '0.10' }] });
    expect(again.lines.map((l) => l.order_discount.toString())).toEqual(['0.04', '0.03', '0.03']);
  });

  it('an order-level discount never exceeds the merchandise left; fees are added to fee_total', () => {
    const t = computeTotals({
      lines: [base],
      adjustments: [
        { id: 'd', name: 'Huge', effect_type: 'discount', discount_type: 'fixed_amount', value: 500 },
        { id: 'f', name: 'Handling', effect_type: 'fee', discount_type: 'percentage', value: 10 },
      ],
      shipping_total: 5,
    });
    expect(t.discount_total.toString()).toBe('20');
    expect(t.fee_total.toString()).toBe('2');
    expect(t.order_total.toString()).toBe('7');
  });

  it('kit component lines count in no total', () => {
    const t = computeTotals({ lines: [{ quantity: 5, list_price: 3, sell_rate: 3, tax_rate: 10, is_kit_component: true }], adjustments: [] });
    expect([t.subtotal, t.tax_total, t.order_total, t.list_price_total, t.pricing_savings].every((v) => v.isZero())).toBe(true);
  });
});
