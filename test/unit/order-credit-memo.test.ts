import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateCredit, creditMemoPostingLines, returnableQuantity, returnBalanceDue, returnLineDiscount } from '../../shared/orders/credit-memo';
import { balanceDue } from '../../shared/orders/totals';
import { amount, round, sum } from '../../shared/money';

const cents = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((n) => amount(n).dividedBy(100));
const units = (max: number) => fc.integer({ min: 0, max: max * 10_000 }).map((n) => amount(n).dividedBy(10_000));

describe('credit memo posting', () => {
  it('property: balanced, the mirror of the invoice entry (debit revenue and tax; credit AR with what the source invoice takes, customer_credits with the rest)', () => {
    fc.assert(
      fc.property(cents(10_000), cents(1_000), cents(500), cents(500), cents(1_000), cents(20_000), (subtotal, discount, shipping, fee, tax, open) => {
        const d = discount.gt(subtotal) ? subtotal : discount;
        const total = subtotal.minus(d).plus(shipping).plus(fee).plus(tax);
        const { applied, unapplied } = allocateCredit(total, open);
        const lines = creditMemoPostingLines(
          { subtotal, discount_total: d, shipping_total: shipping, fee_total: fee, tax_total: tax, order_total: total },
          applied,
        );
        const debits = sum(lines.map((l) => l.debit ?? 0));
        const credits = sum(lines.map((l) => l.credit ?? 0));
        expect(debits.eq(credits)).toBe(true);
        expect(credits.eq(total)).toBe(true);
        for (const line of lines) expect(amount(line.debit ?? line.credit ?? 0).gt(0)).toBe(true);
        expect(amount(lines.find((l) => l.system_key === 'accounts_receivable')?.credit ?? 0).eq(applied)).toBe(true);
        expect(amount(lines.find((l) => l.system_key === 'customer_credits')?.credit ?? 0).eq(unapplied)).toBe(true);
      }),
    );
  });
});

describe('credit allocation and the AR invariant', () => {
  it('property: applied + unapplied = credit; applied never exceeds the open balance; AR ties after the credit', () => {
    fc.assert(
      fc.property(cents(10_000), cents(10_000), cents(10_000), (total, paid, credit) => {
        const invoice = {
          document_type: 'invoice' as const,
          order_status: 'confirmed' as const,
          payment_status: 'unpaid' as const,
          order_total: total,
          amount_paid: paid.gt(total) ? total : paid,
        };
        const before = balanceDue(invoice);
        const { applied, unapplied } = allocateCredit(credit, before);
        expect(applied.plus(unapplied).eq(credit)).toBe(true);
        expect(applied.lte(before.gt(0) ? before : amount(0))).toBe(true);
        const after = balanceDue({ ...invoice, amount_credited: applied });
        expect(after.gte(0)).toBe(true);
        // AR moved by −credit; Σ balance_due (invoice + the return's negative balance) moved by the same.
        const arBefore = before;
        const arAfter = arBefore.minus(credit);
        expect(after.plus(returnBalanceDue(credit, applied)).eq(arAfter)).toBe(true);
      }),
    );
  });

  it('a credit memo balance is minus its unapplied credit, and 0 when all is applied', () => {
    expect(returnBalanceDue('39.6', 0).toString()).toBe('-39.6');
    expect(returnBalanceDue('20', '20').isZero()).toBe(true);
  });
});

describe('returnable quantity', () => {
  it('property: never negative; a sales order line holds back what invoices bill; an invoice of a sales order is capped by the goods', () => {
    fc.assert(
      fc.property(units(100), units(100), units(100), units(100), (fulfilled, returned, billed, quantity) => {
        const so = returnableQuantity({ fulfilled, returned, billed });
        expect(so.gte(0)).toBe(true);
        expect(so.lte(fulfilled)).toBe(true);
        if (so.gt(0)) expect(so.eq(fulfilled.minus(returned).minus(billed))).toBe(true);
        const inv = returnableQuantity({ fulfilled: 0, returned, quantity, goods: { fulfilled, returned: billed } });
        expect(inv.gte(0)).toBe(true);
        expect(inv.lte(quantity)).toBe(true);
        expect(inv.lte(fulfilled.gt(billed) ? fulfilled.minus(billed) : amount(0))).toBe(true);
      }),
    );
  });
});

describe('return line discount', () => {
  it('property: the whole discount on a full return, prorated and capped at the line subtotal otherwise', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        cents(500),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 1000 }),
        (qty, rate, pct, back) => {
          const returned = Math.min(back, qty);
          const subtotal = round(rate.times(qty), 2);
          const net = round(subtotal.times(100 - pct).dividedBy(100), 2);
          const discount = returnLineDiscount({ quantity: qty, sell_rate: rate, line_subtotal: subtotal, net }, returned);
          expect(discount.gte(0)).toBe(true);
          expect(discount.lte(round(rate.times(returned), 2))).toBe(true);
          if (returned === qty) expect(discount.eq(subtotal.minus(net))).toBe(true);
        },
      ),
    );
  });
});
