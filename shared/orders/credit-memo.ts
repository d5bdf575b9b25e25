/**
 * Returns and credit memos: pure, decimal only (shared/money.ts).
 *
 *   returnable        how much of a source line may still be returned (see returnableQuantity)
 *   credit memo GL    the mirror of an invoice's AR entry: debit sales_revenue (subtotal −
 *                     discount_total + shipping_total + fee_total), debit sales_tax_payable
 *                     (tax_total); credit accounts_receivable with the part applied to the source
 *                     invoice and customer_credits with the rest (customer credit is a liability, not
 *                     negative AR); zero lines left out
 *   allocation        the credit goes to the source invoice up to its balance_due (as Xero allocates
 *                     a credit note); the rest is customer credit, carried as the return's negative
 *                     balance_due (held in customer_credits), so Σ balance_due over open invoices = AR control
 *   return line price the source line's net per unit: its whole discount (line, coupon and its share
 *                     of order-level discounts) prorated onto the returned units as a discount amount
 */
import { amount, type Amount, type AmountLike, MONEY_SCALE, round, ZERO } from '../money';

export interface CreditMemoTotals {
  subtotal: AmountLike;
  discount_total: AmountLike;
  shipping_total: AmountLike;
  fee_total: AmountLike;
  tax_total: AmountLike;
  order_total: AmountLike;
}

export interface CreditMemoLine {
  system_key: 'sales_revenue' | 'sales_tax_payable' | 'accounts_receivable' | 'customer_credits';
  debit?: string;
  credit?: string;
}

/**
 * Debit revenue and tax payable; credit AR with what is applied to the source invoice and
 * customer_credits with the rest: an invoice's AR entry with the sides swapped.
 */
export function creditMemoPostingLines(totals: CreditMemoTotals, appliedToInvoice: AmountLike = ZERO): CreditMemoLine[] {
  const total = round(amount(totals.order_total), MONEY_SCALE);
  const applied = round(amount(appliedToInvoice), MONEY_SCALE);
  const revenue = amount(totals.subtotal).minus(totals.discount_total).plus(totals.shipping_total).plus(totals.fee_total);
  const lines: CreditMemoLine[] = [
    { system_key: 'sales_revenue', debit: round(revenue, MONEY_SCALE).toString() },
    { system_key: 'sales_tax_payable', debit: round(amount(totals.tax_total), MONEY_SCALE).toString() },
    { system_key: 'accounts_receivable', credit: applied.toString() },
    { system_key: 'customer_credits', credit: total.minus(applied).toString() },
  ];
  return lines.filter((line) => !amount(line.debit ?? line.credit ?? 0).isZero());
}

/** How a credit of `credit` splits between the source invoice (up to its open balance) and customer credit. */
export function allocateCredit(credit: AmountLike, invoiceBalance: AmountLike): { applied: Amount; unapplied: Amount } {
  const total = amount(credit);
  const open = amount(invoiceBalance);
  const applied = open.gt(0) ? (open.lt(total) ? open : total) : ZERO;
  return { applied, unapplied: total.minus(applied) };
}

/** A confirmed credit memo's balance_due: minus the credit not yet applied (0 when it credits nothing). */
export function returnBalanceDue(orderTotal: AmountLike, applied: AmountLike): Amount {
  const left = round(amount(orderTotal).minus(applied), MONEY_SCALE);
  return left.isZero() ? ZERO : left.negated();
}

export interface ReturnableInput {
  /** What the named source line shipped (sales orders, directly created invoices). */
  fulfilled: AmountLike;
  /** On non-cancelled returns already naming this line. */
  returned: AmountLike;
  /** Sales orders: what live invoices bill of the line (those units are returned against the invoice). */
  billed?: AmountLike;
  /** An invoice billing a sales order line: that line's shipped units and everything returned of it (directly or through any of its invoices). */
  goods?: { fulfilled: AmountLike; returned: AmountLike };
  /** An invoice billing a sales order line: the units it bills. */
  quantity?: AmountLike;
}

/**
 * Units of a source line that may still be returned, never below 0:
 *   sales order line        quantity_fulfilled − billed − returned (billed units go back through their invoice)
 *   directly created invoice quantity_fulfilled − returned
 *   invoice of a sales order min(quantity − returned, goods shipped − goods returned through any document)
 */
export function returnableQuantity(input: ReturnableInput): Amount {
  let left: Amount;
  if (input.goods) {
    const own = amount(input.quantity ?? 0).minus(input.returned);
    const goods = amount(input.goods.fulfilled).minus(input.goods.returned);
    left = own.lt(goods) ? own : goods;
  } else {
    left = amount(input.fulfilled)
      .minus(input.billed ?? 0)
      .minus(input.returned);
  }
  return left.gt(0) ? left : ZERO;
}

/**
 * The return line's discount amount: the source line's whole discount (line_subtotal − net, net being
 * line_total − tax_amount) prorated onto the returned units, rounded to cents, never more than the
 * return line's own subtotal (sell_rate × returned, rounded).
 */
export function returnLineDiscount(
  source: { quantity: AmountLike; sell_rate: AmountLike; line_subtotal: AmountLike; net: AmountLike },
  returned: AmountLike,
): Amount {
  const discount = amount(source.line_subtotal).minus(source.net);
  if (!discount.gt(0)) return ZERO;
  const share = amount(returned).eq(source.quantity) ? round(discount, MONEY_SCALE) : round(discount.times(returned).dividedBy(source.quantity), MONEY_SCALE);
  const subtotal = round(amount(source.sell_rate).times(returned), MONEY_SCALE);
  return share.gt(subtotal) ? subtotal : share;
}
