import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consumeFifo, drawValue, layerValue, receiptLayerQuantity } from '../../shared/inventory/fifo';
import { stockPostingLines } from '../../shared/inventory/stock-postings';
import { amount, sum, ZERO } from '../../shared/money';

// Quantities and costs at 4 decimals, as the columns hold them.
const quantity = fc.integer({ min: 1, max: 10_000_000 }).map((n) => amount(n).dividedBy(10_000).toFixed());
const cost = fc.integer({ min: 0, max: 100_000_000 }).map((n) => amount(n).dividedBy(10_000).toFixed());
const layers = fc
  .array(fc.record({ remaining_quantity: quantity, unit_cost: cost }), { maxLength: 20 })
  .map((items) => items.map((layer, i) => ({ ...layer, id: `L${i}`, remaining_value: layerValue(layer.remaining_quantity, layer.unit_cost).toFixed() })));
const isCents = (value: { times: (n: number) => { isInteger: () => boolean } }) => value.times(100).isInteger();

describe('FIFO consumption', () => {
  it('the cost that leaves equals the cost the consumed layers held, exactly', () => {
    fc.assert(
      fc.property(layers, quantity, (open, wanted) => {
        const result = consumeFifo(open, wanted);
        const taken = sum(result.draws.map((d) => d.quantity));
        expect(taken.plus(result.shortfall).eq(wanted)).toBe(true);
        expect(result.layered_cost.eq(sum(result.draws.map((d) => d.quantity.times(d.unit_cost))))).toBe(true);
        // The value left in the layers plus the cost out equals the value before.
        const before = sum(open.map((l) => amount(l.remaining_quantity).times(l.unit_cost)));
        const drawn = new Map(result.draws.map((d) => [d.layer_id, d.quantity]));
        const after = sum(
          open.map((l) =>
            amount(l.remaining_quantity)
              .minus(drawn.get(l.id) ?? 0)
              .times(l.unit_cost),
          ),
        );
        expect(after.plus(result.layered_cost).eq(before)).toBe(true);
      }),
    );
  });

  it('takes the oldest layers first and leaves a shortfall only when every layer is empty', () => {
    fc.assert(
      fc.property(layers, quantity, (open, wanted) => {
        const result = consumeFifo(open, wanted);
        result.draws.forEach((draw, index) => {
          expect(draw.layer_id).toBe(open[index].id);
          if (index < result.draws.length - 1) expect(draw.quantity.eq(open[index].remaining_quantity)).toBe(true);
        });
        if (result.shortfall.gt(0)) expect(result.draws).toHaveLength(open.length);
        const total = sum(open.map((l) => l.remaining_quantity));
        expect(result.shortfall.eq(total.gte(wanted) ? 0 : amount(wanted).minus(total))).toBe(true);
      }),
    );
  });

  it('a receipt while stock is negative opens a layer only for what exceeds the shortfall', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (onHand, received) => {
        const layer = receiptLayerQuantity(onHand, received);
        expect(layer.eq(Math.max(0, Math.min(received, onHand + received)))).toBe(true);
      }),
    );
  });
});

describe('inventory valuation in cents', () => {
  it('a layer is worth quantity × unit cost rounded half away from zero to the cent: 40 × 7.3333 = 293.332 → 293.33', () => {
    expect(layerValue('40', '7.3333').toFixed(2)).toBe('293.33');
    expect(layerValue('1', '0.005').toFixed(2)).toBe('0.01');
    expect(layerValue('3', '7.3333').toFixed(2)).toBe('22.00');
  });

  it('property: the cents that leave plus the cents that stay equal the cents before, and every draw is in whole cents within its layer', () => {
    fc.assert(
      fc.property(layers, quantity, (open, wanted) => {
        const result = consumeFifo(open, wanted);
        const before = sum(open.map((l) => l.remaining_value));
        const taken = new Map(result.draws.map((d) => [d.layer_id, d]));
        const after = sum(
          open.map((l) => {
            const draw = taken.get(l.id);
            if (!draw) return amount(l.remaining_value);
            expect(isCents(draw.value)).toBe(true);
            expect(draw.value.gte(0) && draw.value.lte(l.remaining_value)).toBe(true);
            // A draw that empties its layer takes exactly what the layer was worth.
            if (draw.quantity.eq(l.remaining_quantity)) expect(draw.value.eq(l.remaining_value)).toBe(true);
            return amount(l.remaining_value).minus(draw.value);
          }),
        );
        expect(after.plus(result.value).eq(before)).toBe(true);
        expect(result.value.eq(sum(result.draws.map((d) => d.value)))).toBe(true);
      }),
    );
  });

  it('property: drawing a layer in any parts takes exactly its cents, each part within a cent of its share', () => {
    fc.assert(
      fc.property(quantity, cost, fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 8 }), (size, unitCost, weights) => {
        let layer = { remaining_quantity: amount(size), remaining_value: layerValue(size, unitCost) };
        const worth = layer.remaining_value;
        const total = weights.reduce((a, b) => a + b, 0);
        let drawn = ZERO;
        weights.forEach((weight, index) => {
          const part = index === weights.length - 1 ? layer.remaining_quantity : amount(size).times(weight).dividedBy(total).toDecimalPlaces(4, 1);
          if (!part.gt(0) || part.gt(layer.remaining_quantity)) return;
          const value = drawValue(layer, part);
          const share = layer.remaining_value.times(part).dividedBy(layer.remaining_quantity);
          expect(value.minus(share).abs().lte('0.005')).toBe(true);
          drawn = drawn.plus(value);
          layer = { remaining_quantity: layer.remaining_quantity.minus(part), remaining_value: layer.remaining_value.minus(value) };
          expect(layer.remaining_value.gte(0)).toBe(true);
        });
        if (layer.remaining_quantity.isZero()) expect(drawn.eq(worth)).toBe(true);
        expect(drawn.plus(layer.remaining_value).eq(worth)).toBe(true);
      }),
    );
  });

  it('property: a stock entry balances in whole cents, moves inventory by exactly the value change and puts only the unbalanced rest on inventory_adjustments', () => {
    const cents = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => amount(n).dividedBy(100));
    const key = fc.constantFrom('opening_balance_equity' as const, 'cost_of_goods_sold' as const, 'received_not_billed' as const);
    fc.assert(
      fc.property(cents, fc.array(fc.record({ system_key: key, debit: cents }), { maxLength: 3 }), (change, counterparts) => {
        const lines = stockPostingLines(change, counterparts);
        const debit = (name: string) => sum(lines.filter((l) => l.system_key === name).map((l) => amount(l.debit ?? 0).minus(l.credit ?? 0)));
        expect(sum(lines.map((l) => l.debit ?? 0)).eq(sum(lines.map((l) => l.credit ?? 0)))).toBe(true);
        for (const line of lines) expect(isCents(amount(line.debit ?? line.credit!)) && amount(line.debit ?? line.credit!).gt(0)).toBe(true);
        expect(debit('inventory').eq(change)).toBe(true);
        for (const name of ['opening_balance_equity', 'cost_of_goods_sold', 'received_not_billed']) {
          expect(debit(name).eq(sum(counterparts.filter((c) => c.system_key === name).map((c) => c.debit)))).toBe(true);
        }
        expect(debit('inventory_adjustments').eq(sum([change, ...counterparts.map((c) => c.debit)]).negated())).toBe(true);
      }),
    );
  });
});
