import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { componentFulfilled, receiptPostingLines } from '../../shared/orders/receipt-postings';
import { amount, ZERO } from '../../shared/money';

const cents = (value: string | undefined) => amount(value ?? 0);
// Costs with up to 8 decimals (4-decimal quantity × 4-decimal unit cost).
const cost = fc.integer({ min: 0, max: 10_000_000_000 }).map((n) => amount(n).dividedBy(100_000_000).toString());

describe('receiptPostingLines', () => {
  it('debits inventory and COGS, credits received_not_billed, leaves out zero lines', () => {
    expect(receiptPostingLines('12', '0')).toEqual([
      { system_key: 'inventory', debit: '12' },
      { system_key: 'received_not_billed', credit: '12' },
    ]);
    expect(receiptPostingLines('0', '9.005')).toEqual([
      { system_key: 'cost_of_goods_sold', debit: '9.01' },
      { system_key: 'received_not_billed', credit: '9.01' },
    ]);
    expect(receiptPostingLines('0.004', '0')).toEqual([]);
  });

  it('property: balances to the cent, whole cents only, each debit within half a cent of its cost', () => {
    fc.assert(
      fc.property(cost, cost, (inventory, dropShip) => {
        const lines = receiptPostingLines(inventory, dropShip);
        const debits = lines.reduce((sum, line) => sum.plus(cents(line.debit)), ZERO);
        const credits = lines.reduce((sum, line) => sum.plus(cents(line.credit)), ZERO);
        expect(debits.eq(credits)).toBe(true);
        for (const line of lines) {
          const value = cents(line.debit ?? line.credit);
          expect(value.gt(0)).toBe(true);
          expect(value.times(100).isInteger()).toBe(true);
        }
        const inventoryLine = lines.find((line) => line.system_key === 'inventory');
        expect(cents(inventoryLine?.debit).minus(inventory).abs().lte('0.005')).toBe(true);
      }),
    );
  });
});

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
