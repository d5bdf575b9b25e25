/**
 * Pure rules of refunds (decimal only, shared/money.ts). The model is in docs/decisions.md
 * ("Refunds, voided payments and ACH clearance"):
 *
 *   A refund first gives back customer credit (debit accounts receivable): the payment's unapplied
 *   amount, then, newest application first, what a document holds as credit — everything paid on
 *   a document that is not an AR document (a sales order's prepayment), and on an invoice only
 *   what it is overpaid by. What is left of the refund on an invoice is an allowance: the sale is
 *   reduced by it (debit sales revenue and, pro rata, sales tax) and the invoice's receivable does
 *   not move. So every refund keeps "sum of invoice balance_due = AR control".
 *
 * The payment_status a refund leaves (partially_refunded, refunded) is the one payment_status rule's
 * (shared/orders/payment-status.ts).
 */
import { amount, type Amount, type AmountLike, MONEY_SCALE, round, sum, ZERO } from '../money';
import type { DocumentType } from '../orders/totals';

export interface RefundableApplication<T> {
  target: T;
  document_type: DocumentType;
  order_total: AmountLike;
  amount_paid: AmountLike;
  amount_credited?: AmountLike;
  tax_total: AmountLike;
  /** amount_applied minus what earlier refunds took back from this application. */
  remaining: AmountLike;
}

interface RefundPiece<T> {
  target: T;
  /** Customer credit given back: the document's amount_paid falls by it; debit AR. */
  credit: Amount;
  /** The sale reduced (invoices only): amount_paid unchanged; debit revenue and tax. */
  allowance: Amount;
  /** The tax part of the allowance (allowance × tax_total / order_total, to the cent). */
  allowance_tax: Amount;
}

export interface RefundSplit<T> {
  /** From the payment's unapplied amount (customer credit): debit AR. */
  unapplied: Amount;
  pieces: RefundPiece<T>[];
  /** What could not be placed (0 whenever refund <= refundableAmount). */
  remainder: Amount;
}

/** What a payment can still refund: its unapplied amount plus what remains of its applications. */
export function refundableAmount(unapplied: AmountLike, applications: readonly { remaining: AmountLike }[]): Amount {
  return amount(unapplied).plus(sum(applications.map((a) => a.remaining)));
}

/**
 * Splits `refund` over the payment: unapplied credit first, then the applications in the order
 * given (newest first), each up to what remains of it; on each document credit before allowance.
 */
export function splitRefund<T>(refund: AmountLike, unapplied: AmountLike, applications: readonly RefundableApplication<T>[]): RefundSplit<T> {
  let left = amount(refund);
  const fromUnapplied = smaller(left, amount(unapplied));
  left = left.minus(fromUnapplied);
  const pieces: RefundPiece<T>[] = [];
  for (const application of applications) {
    if (!left.gt(0)) break;
    const take = smaller(left, amount(application.remaining));
    if (!take.gt(0)) continue;
    const overpaid = amount(application.amount_paid)
      .plus(application.amount_credited ?? 0)
      .minus(application.order_total);
    const creditRoom = application.document_type === 'invoice' ? (overpaid.gt(0) ? overpaid : ZERO) : amount(application.amount_paid);
    const credit = smaller(take, creditRoom);
    const allowance = take.minus(credit);
    const total = amount(application.order_total);
    const allowanceTax = allowance.gt(0) && total.gt(0) ? smaller(allowance, round(allowance.times(application.tax_total).div(total), MONEY_SCALE)) : ZERO;
    pieces.push({ target: application.target, credit, allowance, allowance_tax: allowanceTax });
    left = left.minus(take);
  }
  return { unapplied: fromUnapplied, pieces, remainder: left };
}

function smaller(a: Amount, b: Amount): Amount {
  return a.lt(b) ? a : b;
}
