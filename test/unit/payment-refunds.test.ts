/** Pure rules of refunds, document payment_status and ACH clearance moves (shared/domain/payments/refunds.ts, orders/lifecycle.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACH_CLEARANCE_FROM, achClearanceTransition } from '../../shared/orders/lifecycle-rules';
import { amountDue, balanceDue, type DocumentType, type OrderStatus } from '../../shared/orders/totals';
import { payableAmount } from '../../shared/payments/allocation';
import { paymentStatus } from '../../shared/orders/payment-status';
import { refundableAmount, splitRefund } from '../../shared/payments/refund-split';
import { amount, sum, ZERO } from '../../shared/money';

const cents = (min: number, max: number) => fc.integer({ min, max }).map((n) => amount(n).dividedBy(100));

/** A document a payment applied to: order_total, what others paid, what this payment applied, its tax. */
const documentArb = fc
  .record({
    document_type: fc.constantFrom<DocumentType>('invoice', 'invoice', 'sales_order'),
    total: cents(1, 500_000),
    otherPaidShare: fc.integer({ min: 0, max: 100 }),
    appliedShare: fc.integer({ min: 1, max: 100 }),
    overpay: cents(0, 5_000),
    taxShare: fc.integer({ min: 0, max: 30 }),
  })
  .map((d) => {
    const applied = d.total.times(d.appliedShare).dividedBy(100).toDecimalPlaces(2, 0);
    const room = d.total.minus(applied);
    const others = room.times(d.otherPaidShare).dividedBy(100).toDecimalPlaces(2, 0);
    // An overpaid document comes from an order_total that fell after payment.
    const paid = applied.plus(others);
    const total = d.overpay.gt(0) && d.overpay.lt(d.total) ? d.total.minus(d.overpay) : d.total;
    return {
      document_type: d.document_type,
      order_total: total,
      amount_paid: paid,
      applied: applied.gt(0) ? applied : amount('0.01'),
      tax_total: total.times(d.taxShare).dividedBy(130).toDecimalPlaces(2, 0),
    };
  });

describe('splitRefund', () => {
  it('places every cent of a refund up to the refundable amount: unapplied credit first, each application up to what remains of it', () => {
    fc.assert(
      fc.property(cents(0, 100_000), fc.array(documentArb, { minLength: 0, maxLength: 5 }), fc.integer({ min: 1, max: 100 }), (unapplied, docs, share) => {
        const applications = docs.map((doc, index) => ({ target: index, ...doc, remaining: doc.applied }));
        const refundable = refundableAmount(unapplied, applications);
        fc.pre(refundable.gt(0));
        const refund = refundable.times(share).dividedBy(100).toDecimalPlaces(2, 0);
        fc.pre(refund.gt(0));
        const split = splitRefund(refund, unapplied, applications);
        expect(split.remainder.isZero()).toBe(true);
        expect(split.unapplied.eq(refund.lt(unapplied) ? refund : unapplied)).toBe(true);
        expect(
          split.unapplied
            .plus(sum(split.pieces.map((p) => p.credit)))
            .plus(sum(split.pieces.map((p) => p.allowance)))
            .eq(refund),
        ).toBe(true);
        for (const piece of split.pieces) {
          const doc = applications[piece.target];
          expect(piece.credit.gte(0) && piece.allowance.gte(0)).toBe(true);
          expect(piece.credit.plus(piece.allowance).lte(doc.remaining)).toBe(true);
          if (doc.document_type !== 'invoice') expect(piece.allowance.isZero()).toBe(true);
          else {
            const overpaid = amount(doc.amount_paid).minus(doc.order_total);
            expect(piece.credit.lte(overpaid.gt(0) ? overpaid : ZERO)).toBe(true);
          }
          expect(piece.allowance_tax.gte(0) && piece.allowance_tax.lte(piece.allowance)).toBe(true);
        }
      }),
    );
  });

  it('keeps the AR identity: on every invoice the balance_due moves exactly by the credit part, which is what AR is debited', () => {
    fc.assert(
      fc.property(documentArb, fc.integer({ min: 1, max: 100 }), (doc, share) => {
        fc.pre(doc.document_type === 'invoice');
        const refund = doc.applied.times(share).dividedBy(100).toDecimalPlaces(2, 0);
        fc.pre(refund.gt(0));
        const [piece] = splitRefund(refund, 0, [{ target: 0, ...doc, remaining: doc.applied }]).pieces;
        const state = (paid: ReturnType<typeof amount>, refunded: ReturnType<typeof amount>) => {
          const payment_status = paymentStatus({ ...doc, amount_paid: paid, amount_refunded: refunded });
          return balanceDue({ ...doc, order_status: 'confirmed', payment_status, amount_paid: paid });
        };
        const before = state(amount(doc.amount_paid), ZERO);
        const after = state(amount(doc.amount_paid).minus(piece.credit), refund);
        expect(after.minus(before).eq(piece.credit)).toBe(true);
        // A refunded invoice's forced 0 never changes its value.
        expect(after.eq(amountDue(doc.order_total, amount(doc.amount_paid).minus(piece.credit)))).toBe(true);
      }),
    );
  });

  it('splits the allowance of an invoice into revenue and tax pro rata to the cent', () => {
    const split = splitRefund('54.50', 0, [
      { target: 'inv', document_type: 'invoice', order_total: '109', amount_paid: '109', tax_total: '9', remaining: '109' },
    ]);
    expect(split.pieces[0].credit.toString()).toBe('0');
    expect(split.pieces[0].allowance.toString()).toBe('54.5');
    expect(split.pieces[0].allowance_tax.toString()).toBe('4.5');
  });

  it('gives back a sales order prepayment and an invoice overpayment as customer credit', () => {
    const so = splitRefund('10', 0, [{ target: 'so', document_type: 'sales_order', order_total: '25', amount_paid: '25', tax_total: '0', remaining: '25' }]);
    expect([so.pieces[0].credit.toString(), so.pieces[0].allowance.toString()]).toEqual(['10', '0']);
    const over = splitRefund('30', '5', [
      { target: 'inv', document_type: 'invoice', order_total: '100', amount_paid: '120', tax_total: '0', remaining: '120' },
    ]);
    expect([over.unapplied.toString(), over.pieces[0].credit.toString(), over.pieces[0].allowance.toString()]).toEqual(['5', '20', '5']);
  });
});

describe('paymentStatus', () => {
  const invoice = { document_type: 'invoice' as const, order_total: '100' };
  it.each([
    [{ ...invoice, amount_paid: '0', amount_refunded: '0' }, 'unpaid'],
    [{ ...invoice, amount_paid: '40', amount_refunded: '0' }, 'partially_paid'],
    [{ ...invoice, amount_paid: '100', amount_refunded: '0' }, 'paid'],
    [{ ...invoice, amount_paid: '100', amount_refunded: '30' }, 'partially_refunded'],
    [{ ...invoice, amount_paid: '100', amount_refunded: '100' }, 'refunded'],
    [{ ...invoice, amount_paid: '40', amount_refunded: '40' }, 'partially_refunded'],
    [{ document_type: 'sales_order' as const, order_total: '25', amount_paid: '15', amount_refunded: '10' }, 'partially_refunded'],
    [{ document_type: 'sales_order' as const, order_total: '25', amount_paid: '0', amount_refunded: '25' }, 'refunded'],
  ])('%o → %s', (state, status) => {
    expect(paymentStatus(state)).toBe(status);
  });

  it('marks an invoice refunded only when nothing is due, so forcing its balance_due to 0 never moves AR', () => {
    fc.assert(
      fc.property(cents(1, 100_000), cents(0, 100_000), cents(0, 100_000), (total, paid, refunded) => {
        const status = paymentStatus({ document_type: 'invoice', order_total: total, amount_paid: paid, amount_refunded: refunded });
        if (status === 'refunded') expect(amountDue(total, paid).isZero()).toBe(true);
      }),
    );
  });
});

describe('ACH clearance moves', () => {
  it('a pending ACH payment puts every payable status into awaiting_ach_clearance; settling returns to the remembered one', () => {
    for (const status of ACH_CLEARANCE_FROM) {
      expect(achClearanceTransition(status, 'payment_pending')).toEqual({ allowed: true, next: 'awaiting_ach_clearance' });
      expect(achClearanceTransition('awaiting_ach_clearance', 'payment_settled', status)).toEqual({ allowed: true, next: status });
    }
    for (const status of ['draft', 'cancelled', 'voided', 'awaiting_ach_clearance'] as OrderStatus[]) {
      expect(achClearanceTransition(status, 'payment_pending')).toEqual({ allowed: false, reason: 'not_allowed' });
    }
    expect(achClearanceTransition('confirmed', 'payment_settled', 'on_hold')).toEqual({ allowed: false, reason: 'not_allowed' });
    expect(achClearanceTransition('awaiting_ach_clearance', 'payment_settled', null)).toEqual({ allowed: true, next: 'confirmed' });
  });

  it('a document awaiting ACH clearance accepts no other payment', () => {
    const state = { document_type: 'invoice' as const, payment_status: 'unpaid' as const, order_total: '100', amount_paid: '0' };
    expect(payableAmount({ ...state, order_status: 'confirmed' }).toString()).toBe('100');
    expect(payableAmount({ ...state, order_status: 'awaiting_ach_clearance' }).toString()).toBe('0');
  });
});
