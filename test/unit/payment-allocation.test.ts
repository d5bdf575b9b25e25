import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateOldestFirst, payableAmount } from '../../shared/payments/allocation';
import { amount, sum } from '../../shared/money';

const cents = (max = 1_000_000) => fc.integer({ min: 0, max }).map((n) => amount(n).dividedBy(100).toString());

describe('payment rules', () => {
  it('oldest-first allocation never exceeds an invoice or the amount, fills in order and keeps every cent', () => {
    fc.assert(
      fc.property(cents(), fc.array(cents(), { maxLength: 20 }), (total, payables) => {
        const { allocations, remainder } = allocateOldestFirst(
          total,
          payables.map((payable, index) => ({ payable, index })),
        );
        expect(
          sum(allocations.map((a) => a.amount))
            .plus(remainder)
            .eq(total),
        ).toBe(true);
        expect(remainder.gte(0)).toBe(true);
        for (const allocation of allocations) {
          expect(allocation.amount.gt(0)).toBe(true);
          expect(allocation.amount.lte(allocation.target.payable)).toBe(true);
        }
        // Every invoice before the last one used is paid in full.
        allocations.slice(0, -1).forEach((allocation) => expect(allocation.amount.eq(allocation.target.payable)).toBe(true));
        if (remainder.gt(0)) expect(sum(allocations.map((a) => a.amount)).eq(sum(payables))).toBe(true);
      }),
    );
  });

  it('a document accepts its balance_due, and nothing when it takes no payment', () => {
    const base = { document_type: 'invoice', order_status: 'confirmed', payment_status: 'partially_paid', order_total: '100', amount_paid: '40' } as const;
    expect(payableAmount(base).toString()).toBe('60');
    expect(payableAmount({ ...base, order_status: 'draft' }).toString()).toBe('0');
    expect(payableAmount({ ...base, order_status: 'cancelled' }).toString()).toBe('0');
    expect(payableAmount({ ...base, payment_status: 'refunded' }).toString()).toBe('0');
    expect(payableAmount({ ...base, document_type: 'sales_order', order_status: 'voided' }).toString()).toBe('0');
    expect(payableAmount({ ...base, document_type: 'quote' }).toString()).toBe('0');
    expect(payableAmount({ ...base, document_type: 'purchase_order' }).toString()).toBe('0');
    expect(payableAmount({ ...base, document_type: 'sales_order' }, ['invoice']).toString()).toBe('0');
    expect(payableAmount({ ...base, amount_paid: '120' }).toString()).toBe('0');
  });
});
