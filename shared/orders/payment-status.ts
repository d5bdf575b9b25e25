/**
 * payment_status: the one rule that sets it, from a document's amounts (decimal only,
 * shared/money.ts). Every change of totals (recalculateOrder) and of payments
 * (updateDocumentPayment: record, clear, fail, void, refund) and every credit memo applied goes
 * through paymentState(), which also derives balance_due (a fully refunded invoice's is forced to
 * 0), so the two never disagree. The table is in docs/decisions.md ("payment_status").
 *
 *   amount_due = order_total − amount_paid (status-blind, negative when overpaid: the spec's field)
 *
 *   voided              the document is voided (order_status voided), or payments were voided
 *                       (amount_voided > 0) and left nothing paid and no refunds: wins over every row
 *                       below, which all hold only on a document that is not voided.
 *   overpaid            amount_paid > 0 and amount_due < 0, refunds or not: money the customer
 *                       is owed back, the fact an integrator must act on (refund it or let it stand
 *                       as credit), so it wins over the refund history.
 *   refunded            refunds received, not overpaid, and the refunds gave the whole document
 *                       back (an invoice: refunds reach order_total and order_total − amount_paid −
 *                       amount_credited is 0; other documents: nothing paid is left).
 *   partially_refunded  refunds received, not overpaid, not refunded.
 *   unpaid              no refunds, nothing paid, no payment voided.
 *   partially_paid      no refunds, 0 < amount_paid < order_total.
 *   paid                no refunds, amount_paid = order_total > 0.
 *
 * The conditions exclude one another and cover every amount (property-tested in
 * test/unit/payment-status.test.ts), so adding a status means adding one row and narrowing the
 * rows it takes cases from.
 */
import { amount, type Amount, type AmountLike } from '../money';
import { amountDue, balanceDue, type BalanceState, type DocumentType, type OrderStatus, type PaymentStatus } from './totals';

export interface PaymentAmounts {
  document_type: DocumentType;
  order_total: AmountLike;
  amount_paid: AmountLike;
  /** Refunds the document received (orders.amount_refunded). */
  amount_refunded: AmountLike;
  /** Credit memos applied (orders.amount_credited): they settle an invoice like a payment for the refunded test. */
  amount_credited?: AmountLike;
  /** What voided payments had applied to the document (orders.amount_voided). */
  amount_voided?: AmountLike;
  /** The document's order_status: a voided document's payment_status is voided. */
  order_status?: OrderStatus;
}

/** What the conditions read, computed once. */
interface Figures {
  paid: Amount;
  /** amount_due: order_total − amount_paid. */
  due: Amount;
  refunds: boolean;
  /** The refunds gave the whole document back. */
  givenBack: boolean;
  /** The document is voided, or its payments were voided leaving nothing paid and no refunds. */
  voided: boolean;
}

const overpaid = (f: Figures) => !f.voided && f.paid.gt(0) && f.due.lt(0);
const live = (f: Figures) => !f.voided;

/** Status → the condition that sets it (exactly one holds for any amounts). */
const PAYMENT_STATUS_RULES: readonly (readonly [PaymentStatus, (f: Figures) => boolean])[] = [
  ['voided', (f) => f.voided],
  ['overpaid', overpaid],
  ['refunded', (f) => live(f) && f.refunds && !overpaid(f) && f.givenBack],
  ['partially_refunded', (f) => live(f) && f.refunds && !overpaid(f) && !f.givenBack],
  ['unpaid', (f) => live(f) && !f.refunds && !f.paid.gt(0)],
  ['partially_paid', (f) => live(f) && !f.refunds && f.paid.gt(0) && f.due.gt(0)],
  ['paid', (f) => live(f) && !f.refunds && f.paid.gt(0) && f.due.isZero()],
];

function figuresOf(state: PaymentAmounts): Figures {
  const paid = amount(state.amount_paid);
  const refunded = amount(state.amount_refunded);
  const givenBack =
    state.document_type === 'invoice'
      ? refunded.gte(state.order_total) && amountDue(state.order_total, paid.plus(state.amount_credited ?? 0)).isZero()
      : paid.isZero();
  const paymentsVoided = amount(state.amount_voided ?? 0).gt(0) && !paid.gt(0) && !refunded.gt(0);
  return { paid, due: amountDue(state.order_total, paid), refunds: refunded.gt(0), givenBack, voided: state.order_status === 'voided' || paymentsVoided };
}

/** The statuses whose condition holds for these amounts (one, always; exposed for the property test). */
export function matchingPaymentStatuses(state: PaymentAmounts): PaymentStatus[] {
  const figures = figuresOf(state);
  return PAYMENT_STATUS_RULES.filter(([, holds]) => holds(figures)).map(([status]) => status);
}

/** payment_status of a document from its amounts. */
export function paymentStatus(state: PaymentAmounts): PaymentStatus {
  const figures = figuresOf(state);
  const rule = PAYMENT_STATUS_RULES.find(([, holds]) => holds(figures));
  if (!rule) throw new Error('payment_status: no rule matches these amounts');
  return rule[0];
}

/**
 * payment_status and balance_due of a document from its amounts and lifecycle: what every writer
 * of amount_paid, amount_refunded, amount_credited or order_total stores.
 */
export function paymentState(state: PaymentAmounts & Omit<BalanceState, 'payment_status'>): { payment_status: PaymentStatus; balance_due: Amount } {
  const status = paymentStatus(state);
  return { payment_status: status, balance_due: balanceDue({ ...state, payment_status: status }) };
}
