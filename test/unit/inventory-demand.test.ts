import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averageDailyDemand, basisTransactionTypes, blendedDaily, runRate } from '../../shared/catalog/demand';
import { buildableKits } from '../../shared/inventory/buildable-kits';
import { ceilToMultiple, suggestReorder } from '../../shared/inventory/reorder';
import { crossingEvents, stockCondition, type StockCondition } from '../../shared/inventory/stock-condition';
import { amount } from '../../shared/money';

const qty = (max = 100_000) => fc.integer({ min: 0, max: max * 10_000 }).map((n) => amount(n).dividedBy(10_000).toFixed());
const positive = (max = 1000) => fc.integer({ min: 1, max: max * 10_000 }).map((n) => amount(n).dividedBy(10_000).toFixed());

describe('demand arithmetic', () => {
  it('run rates are units / days at 4 decimals and the blend lies between the smallest and largest rate', () => {
    fc.assert(
      fc.property(qty(), qty(), qty(), qty(), (a, b, c, d) => {
        const rates = { 30: runRate(a, 30), 90: runRate(b, 90), 180: runRate(c, 180), 365: runRate(d, 365) };
        expect(rates[30].minus(amount(a).dividedBy(30)).abs().lte('0.00005')).toBe(true);
        const blend = blendedDaily(rates);
        const values = Object.values(rates);
        expect(blend.gte(values.reduce((m, v) => (v.lt(m) ? v : m)).minus('0.0001'))).toBe(true);
        expect(blend.lte(values.reduce((m, v) => (v.gt(m) ? v : m)).plus('0.0001'))).toBe(true);
      }),
    );
  });

  it('a constant daily demand gives that rate in every window, the blend and the average', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (perDay) => {
        const rates = { 30: runRate(perDay * 30, 30), 90: runRate(perDay * 90, 90), 180: runRate(perDay * 180, 180), 365: runRate(perDay * 365, 365) };
        for (const rate of Object.values(rates)) expect(rate.eq(perDay)).toBe(true);
        expect(blendedDaily(rates).eq(perDay)).toBe(true);
        expect(averageDailyDemand(perDay * 365, 500).eq(perDay)).toBe(true);
      }),
    );
  });

  it('averages a new product over the days it has existed, never fewer than one', () => {
    expect(averageDailyDemand(10, 5).eq(2)).toBe(true);
    expect(averageDailyDemand(10, 0.2).eq(10)).toBe(true);
    expect(averageDailyDemand(10, null).eq(0)).toBe(true);
  });

  it('each basis counts sales and builds once, never receipts, transfers or returns', () => {
    expect(basisTransactionTypes('sales_and_builds')).toEqual(['sale_fulfillment', 'build_consume']);
    for (const basis of ['sales', 'builds', 'sales_and_builds', 'consumption'] as const) {
      const types = basisTransactionTypes(basis);
      expect(new Set(types).size).toBe(types.length);
      for (const excluded of ['receive', 'transfer', 'return', 'build_produce']) expect(types).not.toContain(excluded);
    }
  });
});

describe('reorder suggestion', () => {
  it('net_suggested_qty is the smallest multiple covering the need, and zero when nothing is needed', () => {
    fc.assert(
      fc.property(
        qty(),
        qty(1000),
        qty(1000),
        qty(100),
        fc.integer({ min: 0, max: 60 }),
        positive(),
        (onHand, committed, reorderPoint, daily, lead, multiple) => {
          const s = suggestReorder({
            on_hand: onHand,
            committed,
            on_order: 0,
            reorder_point: reorderPoint,
            daily_demand: daily,
            lead_time_days: lead,
            order_multiple: multiple,
          });
          const need = amount(reorderPoint).plus(amount(daily).times(lead)).minus(amount(onHand).minus(committed));
          if (need.lte(0)) {
            expect(s.net_suggested_qty.eq(0)).toBe(true);
            return;
          }
          expect(s.net_suggested_qty.gte(s.suggested_qty)).toBe(true);
          expect(s.net_suggested_qty.dividedBy(multiple).isInteger()).toBe(true);
          expect(s.net_suggested_qty.minus(multiple).lt(s.suggested_qty)).toBe(true);
        },
      ),
    );
  });

  it('open purchase orders count like stock on hand, committed demand like stock gone: only the position matters', () => {
    fc.assert(
      fc.property(
        qty(),
        qty(1000),
        qty(1000),
        qty(1000),
        qty(100),
        fc.integer({ min: 0, max: 60 }),
        (onHand, committed, onOrder, reorderPoint, daily, lead) => {
          const input = { reorder_point: reorderPoint, daily_demand: daily, lead_time_days: lead, order_multiple: null };
          const withOrders = suggestReorder({ ...input, on_hand: onHand, committed, on_order: onOrder });
          // The same position with everything folded into on_hand gives the same suggestion.
          const folded = suggestReorder({ ...input, on_hand: amount(onHand).minus(committed).plus(onOrder).toFixed(), committed: 0, on_order: 0 });
          expect(withOrders.inventory_position.eq(amount(onHand).minus(committed).plus(onOrder))).toBe(true);
          expect(withOrders.suggested_qty.eq(folded.suggested_qty)).toBe(true);
          // More on order never raises the suggestion; each unit on order lowers a positive need by one unit.
          const more = suggestReorder({ ...input, on_hand: onHand, committed, on_order: amount(onOrder).plus(1).toFixed() });
          expect(more.suggested_qty.lte(withOrders.suggested_qty)).toBe(true);
          if (withOrders.suggested_qty.gte(1)) expect(withOrders.suggested_qty.minus(more.suggested_qty).eq(1)).toBe(true);
          // suggested_qty = max(0, target - position) exactly.
          const gap = withOrders.target_level.minus(withOrders.inventory_position);
          expect(withOrders.suggested_qty.eq(gap.gt(0) ? gap : 0)).toBe(true);
        },
      ),
    );
  });

  it('suggested_reorder_point is the lead-time demand, and target_level = reorder_point + suggested_reorder_point', () => {
    fc.assert(
      fc.property(qty(1000), qty(100), fc.option(fc.integer({ min: 0, max: 365 }), { nil: null }), (reorderPoint, daily, lead) => {
        const s = suggestReorder({
          on_hand: 0,
          committed: 0,
          on_order: 0,
          reorder_point: reorderPoint,
          daily_demand: daily,
          lead_time_days: lead,
          order_multiple: null,
        });
        expect(s.suggested_reorder_point.eq(amount(daily).times(lead ?? 0))).toBe(true);
        expect(s.suggested_reorder_point.gte(0)).toBe(true);
        expect(s.target_level.eq(amount(reorderPoint).plus(s.suggested_reorder_point))).toBe(true);
      }),
    );
  });

  it('ceilToMultiple rounds up to the multiple and leaves exact multiples alone', () => {
    expect(ceilToMultiple(30, 12).eq(36)).toBe(true);
    expect(ceilToMultiple(24, 12).eq(24)).toBe(true);
    expect(ceilToMultiple('0.1', '2.5').eq('2.5')).toBe(true);
    expect(ceilToMultiple(7, null).eq(7)).toBe(true);
    expect(ceilToMultiple(0, 12).eq(0)).toBe(true);
  });

  it('a minimum order raises a small need before rounding to the multiple', () => {
    const s = suggestReorder({
      on_hand: 9,
      committed: 0,
      on_order: 0,
      reorder_point: 10,
      daily_demand: 0,
      lead_time_days: null,
      order_multiple: 4,
      minimum_order_quantity: 10,
    });
    expect(s.suggested_qty.eq(1)).toBe(true);
    expect(s.net_suggested_qty.eq(12)).toBe(true);
  });
});

describe('kit availability', () => {
  it('is the minimum over components of floor(available / quantity_per_kit)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity_per_kit: positive(10), available: fc.integer({ min: -100, max: 100_000 }) }), { minLength: 1, maxLength: 8 }),
        (components) => {
          const kits = buildableKits(components);
          expect(kits).toBeGreaterThanOrEqual(0);
          // Building them is possible, one more is not.
          for (const c of components) expect(amount(c.quantity_per_kit).times(kits).lte(Math.max(0, c.available))).toBe(true);
          expect(
            components.some((c) =>
              amount(c.quantity_per_kit)
                .times(kits + 1)
                .gt(c.available),
            ),
          ).toBe(true);
        },
      ),
    );
  });
});

describe('stock condition crossings', () => {
  it('fires an event exactly when a condition starts to hold or all stop holding, never while unchanged', () => {
    const level = fc.integer({ min: -50, max: 50 });
    fc.assert(
      fc.property(fc.array(level, { minLength: 1, maxLength: 40 }), fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }), (levels, reorderPoint) => {
        let previous: StockCondition = { low: false, out: false };
        for (const onHand of levels) {
          const next = stockCondition(onHand, reorderPoint);
          const events = crossingEvents(previous, next, reorderPoint !== null);
          if (reorderPoint === null || (previous.low === next.low && previous.out === next.out)) expect(events).toEqual([]);
          if (reorderPoint === null) {
            previous = next;
            continue;
          }
          expect(events.includes('inventory.out_of_stock')).toBe(next.out && !previous.out);
          expect(events.includes('inventory.low_stock')).toBe(next.low && !previous.low);
          expect(events.includes('inventory.back_in_stock')).toBe((previous.low || previous.out) && !next.low && !next.out);
          previous = next;
        }
      }),
    );
  });
});
