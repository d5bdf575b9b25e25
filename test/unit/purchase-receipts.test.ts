import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { componentFulfilled } from '../../shared/orders/receipt-postings';
import { amount, ZERO } from '../../shared/money';

describe('componentFulfilled', () => {
  it('property: successive receipts of a kit line fulfil its component monotonically, never above its quantity, exactly at completion', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }).map((n) => amount(n).dividedBy(10)),
        fc.integer({ min: 1, max: 10_000 }).map((n) => amount(n).dividedBy(1000)),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
        (kitQuantity, perKit, weights) => {
          const componentQuantity = kitQuantity.times(perKit);
          // Split the kit quantity into receipts by weight; the last takes the rest.
          const total = weights.reduce((sum, w) => sum + w, 0);
          let left = kitQuantity;
          let kitFulfilled = ZERO;
          let fulfilled = ZERO;
          weights.forEach((weight, index) => {
            const received = index === weights.length - 1 ? left : kitQuantity.times(weight).dividedBy(total).toDecimalPlaces(4, 1);
            if (!received.gt(0)) return;
            left = left.minus(received);
            kitFulfilled = kitFulfilled.plus(received);
            const next = componentFulfilled(
              { quantity: componentQuantity, quantity_fulfilled: fulfilled },
              { quantity: kitQuantity, fulfilledAfter: kitFulfilled },
              received,
            );
            expect(next.gte(fulfilled)).toBe(true);
            expect(next.lte(componentQuantity)).toBe(true);
            fulfilled = next;
          });
          expect(fulfilled.eq(componentQuantity)).toBe(true);
        },
      ),
    );
  });
});
