/** The payment_status rule (shared/orders/payment-status.ts): one status for any amounts, agreeing with them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchingPaymentStatuses, paymentState, paymentStatus, type PaymentAmounts } from '../../shared/orders/payment-status';
import { amountDue, type DocumentType, type OrderStatus } from '../../shared/orders/totals';
import { amount } from '../../shared/money';
import { decimal } from '../support/decimal-arbitraries';

const DOCUMENT_TYPES: DocumentType[] = ['quote', 'sales_order', 'invoice', 'return', 'purchase_order'];
const ORDER_STATUSES: OrderStatus[] = ['draft', 'confirmed', 'partially_fulfilled', 'fulfilled', 'cancelled', 'voided', 'awaiting_ach_clearance', 'on_hold'];

/** Small amounts so that equal totals, zero payments and zero refunds come up often. */
const small = fc.oneof(fc.constantFrom('0', '0.01', '20', '40', '100'), decimal(200, 2));
const amounts: fc.Arbitrary<PaymentAmounts> = fc.record({
  document_type: fc.constantFrom(...DOCUMENT_TYPES),
  order_total: fc.oneof(small, decimal(1_000_000, 2)),
  amount_paid: fc.oneof(small, decimal(1_000_000, 2)),
  amount_refunded: fc.oneof(fc.constant('0'), small),
  amount_credited: fc.oneof(fc.constant('0'), small),
  amount_voided: fc.oneof(fc.constant('0'), small),
});
/** The same amounts with an order_status: a voided document's payment_status is voided. */
const withStatus = fc.tuple(amounts, fc.constantFrom(...ORDER_STATUSES)).map(([state, order_status]) => ({ ...state, order_status }));
/** No payment voided and the document live: the six amount-driven statuses. */
const liveAmounts = amounts.map((state) => ({ ...state, amount_voided: '0' }));

describe('payment_status', () => {
  it('for any total, paid, refunded, credited and voided amounts and any order_status exactly one status holds, and it is the one returned', () => {
    fc.assert(
      fc.property(withStatus, (state) => {
        const matching = matchingPaymentStatuses(state);
        expect(matching).toHaveLength(1);
        expect(paymentStatus(state)).toBe(matching[0]);
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with the amounts: amount_due < 0 is overpaid, refunds the refund statuses, else unpaid / partially_paid / paid by amount_due', () => {
    fc.assert(
      fc.property(liveAmounts, (state) => {
        const status = paymentStatus(state);
        const paid = amount(state.amount_paid);
        const due = amountDue(state.order_total, state.amount_paid);
        const refunds = amount(state.amount_refunded).gt(0);
        expect(status === 'overpaid').toBe(paid.gt(0) && due.lt(0));
        if (status === 'overpaid') return;
        if (refunds) {
          expect(['refunded', 'partially_refunded']).toContain(status);
          // refunded: an invoice has nothing left due (so forcing its balance_due to 0 never moves AR); another document has nothing paid left.
          if (status === 'refunded' && state.document_type === 'invoice') {
            expect(amountDue(state.order_total, paid.plus(state.amount_credited ?? 0)).isZero()).toBe(true);
          }
          if (status === 'refunded' && state.document_type !== 'invoice') expect(paid.isZero()).toBe(true);
          return;
        }
        const expected = paid.isZero() ? 'unpaid' : due.isZero() ? 'paid' : 'partially_paid';
        expect(status).toBe(expected);
        if (status === 'partially_paid') expect(paid.gt(0) && paid.lt(state.order_total)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('payment_status moves (decision): voided exactly when the document is voided or voided payments left nothing paid and no refunds', () => {
    fc.assert(
      fc.property(withStatus, (state) => {
        const paymentsVoided = amount(state.amount_voided ?? 0).gt(0) && amount(state.amount_paid).isZero() && amount(state.amount_refunded).isZero();
        expect(paymentStatus(state) === 'voided').toBe(state.order_status === 'voided' || paymentsVoided);
        // Without a voided payment and on a live document, voided never comes up.
        if (state.order_status !== 'voided') expect(paymentStatus({ ...state, amount_voided: '0' })).not.toBe('voided');
      }),
      { numRuns: 3000 },
    );
  });

  it('paymentState: balance_due is amount_due less credits unless the lifecycle forces it to 0, and 0 on a refunded invoice', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(...ORDER_STATUSES), (state, order_status) => {
        const { payment_status, balance_due } = paymentState({ ...state, order_status });
        expect(payment_status).toBe(paymentStatus({ ...state, order_status }));
        if (state.document_type === 'invoice' && payment_status === 'refunded') expect(balance_due.isZero()).toBe(true);
        const forced =
          (order_status === 'draft' || order_status === 'cancelled') && state.document_type !== 'quote' && state.document_type !== 'purchase_order';
        if (!forced && !(state.document_type === 'invoice' && (order_status === 'voided' || payment_status === 'refunded'))) {
          expect(balance_due.eq(amountDue(state.order_total, amount(state.amount_paid).plus(state.amount_credited ?? 0)))).toBe(true);
        }
      }),
    );
  });

  it.each([
    // The case: 100 paid 40, then discounted by 80.
    [{ order_total: '20', amount_paid: '40', amount_refunded: '0' }, 'overpaid'],
    [{ order_total: '100', amount_paid: '0', amount_refunded: '0' }, 'unpaid'],
    [{ order_total: '100', amount_paid: '40', amount_refunded: '0' }, 'partially_paid'],
    [{ order_total: '100', amount_paid: '100', amount_refunded: '0' }, 'paid'],
    [{ order_total: '100', amount_paid: '100.01', amount_refunded: '0' }, 'overpaid'],
    // A prepaid sales order partly refunded and then discounted below what is left paid: overpaid wins over the refund history.
    [{ order_total: '50', amount_paid: '80', amount_refunded: '20' }, 'overpaid'],
    [{ order_total: '50', amount_paid: '50', amount_refunded: '30' }, 'partially_refunded'],
    [{ order_total: '50', amount_paid: '0', amount_refunded: '50' }, 'refunded'],
    // Nothing to pay and nothing paid.
    [{ order_total: '0', amount_paid: '0', amount_refunded: '0' }, 'unpaid'],
    // Its only payment voided: voided; paid again after that: the amounts decide again.
    [{ order_total: '100', amount_paid: '0', amount_refunded: '0', amount_voided: '40' }, 'voided'],
    [{ order_total: '100', amount_paid: '30', amount_refunded: '0', amount_voided: '40' }, 'partially_paid'],
    [{ order_total: '100', amount_paid: '0', amount_refunded: '0', order_status: 'voided' }, 'voided'],
  ] as const)('a sales order %o is %s', (figures, status) => {
    expect(paymentStatus({ document_type: 'sales_order', ...figures })).toBe(status);
  });
});
