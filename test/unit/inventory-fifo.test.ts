import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consumeFifo, receiptLayerQuantity } from '../../shared/inventory/fifo';
import { amount, sum } from '../../shared/money';

// Quantities and costs at 4 decimals, as the columns hold them.
const quantity = fc.integer({ min: 1, max: 10_000_000 }).map((n) => amount(n).dividedBy(10_000).toFixed());
const cost = fc.integer({ min: 0, max: 100_000_000 }).map((n) => amount(n).dividedBy(10_000).toFixed());
const layers = fc
  .array(fc.record({ remaining_quantity: quantity, unit_cost: cost }), { maxLength: 20 })
  .map((items) => items.map((layer, i) => ({ ...layer, id: `L${i}` })));

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
