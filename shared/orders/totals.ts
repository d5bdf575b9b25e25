/**
 * The totals engine of sales and purchase documents: pure, decimal only (shared/money.ts).
 *
 * Per line (kit component lines are carried for fulfillment and priced on their kit's line, so
 * every money field of theirs is 0 and they count in no total):
 *   pricing_rule_adjustment = list_price − sell_rate (per unit, 4 decimals)
 *   line_subtotal           = sell_rate × quantity, rounded to cents
 *   line discount           = discount_percent % of line_subtotal (rounded) or discount_amount, plus
 *                             coupon_adjustment; never more than line_subtotal
 *   coupon_adjustment       = the line's given coupon_adjustment plus its prorated share of every
 *                             coupon adjustment (an order-level discount carrying coupon_id); coupons
 *                             apply before the other order-level discounts (see computeTotals)
 *   order-level discounts   = each line's prorated share (see prorate())
 *   tax_amount              = rate % of (line_subtotal − line discount − prorated discounts), rounded;
 *                             0 when the line or the order is tax exempt
 *   line_total              = line_subtotal − line discount − prorated discounts + tax_amount
 * Per order:
 *   subtotal = Σ line_subtotal; discount_total = Σ line discounts + Σ order-level discounts;
 *   tax_total = Σ tax_amount; fee_total = Σ fees; shipping_total as given (not taxed);
 *   order_total = subtotal − discount_total + shipping_total + tax_total + fee_total
 *   list_price_total = Σ round(list_price × quantity) and pricing_savings = Σ (round(list_price ×
 *   quantity) − line_subtotal), both over the non-kit lines (a kit's or bundle's line that carries
 *   component lines, and those component lines, are left out: the kit is priced as a whole and has
 *   no list price of its own to save against): display-only, never part of order_total, positive
 *   when lines sell below their list price, and list_price_total − pricing_savings = the subtotal
 *   of the non-kit lines exactly.
 * Rounding: half away from zero to cents, once per line amount; order totals are sums of rounded
 * line amounts, so every total ties to its lines to the cent.
 */
import { amount, type Amount, type AmountLike, MONEY_SCALE, PRICE_SCALE, round, sum, ZERO } from '../money';

const HUNDRED = amount(100);
const CENT = amount('0.01');

export type DocumentType = 'quote' | 'sales_order' | 'invoice' | 'return' | 'purchase_order';
export type OrderStatus = 'draft' | 'confirmed' | 'partially_fulfilled' | 'fulfilled' | 'cancelled' | 'voided' | 'awaiting_ach_clearance' | 'on_hold';
export type PaymentStatus = 'unpaid' | 'partially_paid' | 'paid' | 'overpaid' | 'refunded' | 'partially_refunded' | 'voided';

export interface LineInput {
  quantity: AmountLike;
  list_price: AmountLike;
  sell_rate: AmountLike;
  coupon_adjustment?: AmountLike;
  /** A line's own discount: a money amount for the whole line ... */
  discount_amount?: AmountLike | null;
  /** ... or a percentage of line_subtotal (wins over discount_amount when set). */
  discount_percent?: AmountLike | null;
  /** Percentage, e.g. 8.25; null or undefined: no tax. */
  tax_rate?: AmountLike | null;
  is_tax_exempt?: boolean;
  /** A kit component line (priced on its kit's line). */
  is_kit_component?: boolean;
  /** A kit's (or bundle's) own line, which carries component lines: priced, but not in list_price_total or pricing_savings. */
  is_kit?: boolean;
}

export interface AdjustmentInput {
  id: string;
  name: string;
  effect_type: 'discount' | 'fee';
  discount_type: 'percentage' | 'fixed_amount';
  value: AmountLike;
  /** Set when the adjustment redeems a coupon: its shares go to the lines' coupon_adjustment. */
  coupon_id?: string | null;
}

export interface OrderInput {
  lines: LineInput[];
  adjustments: AdjustmentInput[];
  shipping_total?: AmountLike;
  tax_exempt?: boolean;
}

interface LineShare {
  adjustment_id: string;
  /** The coupon of a coupon adjustment's share, else null. */
  coupon_id: string | null;
  source_label: string;
  line_amount: Amount;
  proration_ratio: Amount;
  per_unit_amount: Amount;
}

interface LineTotals {
  pricing_rule_adjustment: Amount;
  line_subtotal: Amount;
  list_amount: Amount;
  /** The line's own discount (discount_percent or discount_amount), before coupons. */
  discount_amount: Amount;
  coupon_adjustment: Amount;
  order_discount: Amount;
  shares: LineShare[];
  tax_amount: Amount;
  line_total: Amount;
}

export interface OrderTotals {
  lines: LineTotals[];
  adjustments: { id: string; amount: Amount }[];
  subtotal: Amount;
  discount_total: Amount;
  shipping_total: Amount;
  tax_total: Amount;
  fee_total: Amount;
  order_total: Amount;
  list_price_total: Amount;
  pricing_savings: Amount;
}

const min = (a: Amount, b: Amount) => (a.lt(b) ? a : b);
const percentOf = (base: Amount, percent: AmountLike) => round(base.times(percent).dividedBy(HUNDRED), MONEY_SCALE);

/**
 * Splits `total` (cents, ≥ 0) over `weights` (cents, ≥ 0) in proportion. Each share is rounded half
 * away from zero to cents; the remainder (total − Σ rounded, a whole number of cents) is then
 * given back one cent at a time: a positive remainder to the shares rounded down the most, a
 * negative one taken from the shares rounded up the most, ties to the lower index. The shares sum
 * to `total` exactly, and no share exceeds its weight when total ≤ Σ weights.
 */
export function prorate(total: AmountLike, weights: AmountLike[]): Amount[] {
  const target = amount(total);
  const w = weights.map((value) => amount(value));
  const whole = sum(w);
  if (whole.isZero() || target.isZero()) return w.map(() => ZERO);
  const exact = w.map((weight) => target.times(weight).dividedBy(whole));
  const shares = exact.map((value) => round(value, MONEY_SCALE));
  let remainder = target.minus(sum(shares));
  const order = exact.map((value, index) => ({ index, error: value.minus(shares[index]) }));
  if (remainder.gt(0)) {
    order.sort((a, b) => b.error.comparedTo(a.error) || a.index - b.index);
    for (const { index } of order) {
      if (!remainder.gt(0)) break;
      shares[index] = shares[index].plus(CENT);
      remainder = remainder.minus(CENT);
    }
  } else if (remainder.lt(0)) {
    order.sort((a, b) => a.error.comparedTo(b.error) || a.index - b.index);
    for (const { index } of order) {
      if (!remainder.lt(0)) break;
      shares[index] = shares[index].minus(CENT);
      remainder = remainder.plus(CENT);
    }
  }
  return shares;
}

export function computeTotals(input: OrderInput): OrderTotals {
  const priced = input.lines.map((line) => !line.is_kit_component);
  const lines = input.lines.map((line, index) => {
    if (!priced[index]) {
      return {
        pricing_rule_adjustment: ZERO,
        line_subtotal: ZERO,
        list_amount: ZERO,
        discount_amount: ZERO,
        coupon_adjustment: ZERO,
        order_discount: ZERO,
        shares: [] as LineShare[],
        tax_amount: ZERO,
        line_total: ZERO,
      };
    }
    const quantity = amount(line.quantity);
    const sellRate = amount(line.sell_rate);
    const listPrice = amount(line.list_price);
    const lineSubtotal = round(sellRate.times(quantity), MONEY_SCALE);
    const own =
      line.discount_percent !== null && line.discount_percent !== undefined
        ? percentOf(lineSubtotal, line.discount_percent)
        : round(line.discount_amount ?? 0, MONEY_SCALE);
    const discount = min(own, lineSubtotal);
    const coupon = min(round(line.coupon_adjustment ?? 0, MONEY_SCALE), lineSubtotal.minus(discount));
    return {
      pricing_rule_adjustment: listPrice.minus(sellRate),
      line_subtotal: lineSubtotal,
      list_amount: round(listPrice.times(quantity), MONEY_SCALE),
      discount_amount: discount,
      coupon_adjustment: coupon,
      order_discount: ZERO,
      shares: [] as LineShare[],
      tax_amount: ZERO,
      line_total: ZERO,
    };
  });

  // Order-level adjustments. Coupon discounts first (in the order given), then the others in the
  // order given (creation order): percentages are of the merchandise after line discounts (and, for
  // the non-coupon ones, after coupons); each discount is capped at what is left and prorated over
  // the lines by what is left of each, so no line is ever discounted below zero. A coupon's shares
  // land in the lines' coupon_adjustment, the others' in their order-level discount.
  const remaining = lines.map((line) => line.line_subtotal.minus(line.discount_amount).minus(line.coupon_adjustment));
  const adjustments: { id: string; amount: Amount }[] = [];
  let feeTotal = ZERO;
  const applyDiscount = (adjustment: AdjustmentInput, nominal: Amount, coupon: boolean) => {
    const left = sum(remaining);
    const applied = min(nominal, left);
    adjustments.push({ id: adjustment.id, amount: applied });
    const shares = prorate(applied, remaining);
    shares.forEach((share, index) => {
      if (!priced[index] || remaining[index].isZero()) return;
      const line = lines[index];
      line.shares.push({
        adjustment_id: adjustment.id,
        coupon_id: coupon ? adjustment.coupon_id! : null,
        source_label: adjustment.name,
        line_amount: share,
        proration_ratio: left.isZero() ? ZERO : remaining[index].dividedBy(left).toDecimalPlaces(10),
        per_unit_amount: round(share.dividedBy(input.lines[index].quantity), PRICE_SCALE),
      });
      if (coupon) line.coupon_adjustment = line.coupon_adjustment.plus(share);
      else line.order_discount = line.order_discount.plus(share);
      remaining[index] = remaining[index].minus(share);
    });
  };
  const isCoupon = (adjustment: AdjustmentInput) => Boolean(adjustment.coupon_id) && adjustment.effect_type === 'discount';
  const merchandise = sum(remaining);
  for (const adjustment of input.adjustments.filter(isCoupon)) {
    const nominal = adjustment.discount_type === 'percentage' ? percentOf(merchandise, adjustment.value) : round(adjustment.value, MONEY_SCALE);
    applyDiscount(adjustment, nominal, true);
  }
  const base = sum(remaining);
  for (const adjustment of input.adjustments) {
    if (isCoupon(adjustment)) continue;
    const nominal = adjustment.discount_type === 'percentage' ? percentOf(base, adjustment.value) : round(adjustment.value, MONEY_SCALE);
    if (adjustment.effect_type === 'fee') {
      adjustments.push({ id: adjustment.id, amount: nominal });
      feeTotal = feeTotal.plus(nominal);
      continue;
    }
    applyDiscount(adjustment, nominal, false);
  }

  lines.forEach((line, index) => {
    if (!priced[index]) return;
    const source = input.lines[index];
    const taxable = remaining[index];
    const rate = source.tax_rate;
    const exempt = input.tax_exempt === true || source.is_tax_exempt === true || rate === null || rate === undefined;
    line.tax_amount = exempt ? ZERO : percentOf(taxable, rate);
    line.line_total = taxable.plus(line.tax_amount);
  });

  const subtotal = sum(lines.map((line) => line.line_subtotal));
  const discountTotal = sum(lines.map((line) => line.discount_amount.plus(line.coupon_adjustment).plus(line.order_discount)));
  const shippingTotal = round(input.shipping_total ?? 0, MONEY_SCALE);
  const taxTotal = sum(lines.map((line) => line.tax_amount));
  const nonKit = lines.filter((_, index) => priced[index] && !input.lines[index].is_kit);
  const listPriceTotal = sum(nonKit.map((line) => line.list_amount));
  const nonKitSubtotal = sum(nonKit.map((line) => line.line_subtotal));
  return {
    lines,
    adjustments,
    subtotal,
    discount_total: discountTotal,
    shipping_total: shippingTotal,
    tax_total: taxTotal,
    fee_total: feeTotal,
    order_total: subtotal.minus(discountTotal).plus(shippingTotal).plus(taxTotal).plus(feeTotal),
    list_price_total: listPriceTotal,
    pricing_savings: listPriceTotal.minus(nonKitSubtotal),
  };
}

/** order_total − amount_paid, rounded to 2 decimals; status-blind; negative when overpaid. */
export function amountDue(orderTotal: AmountLike, amountPaid: AmountLike): Amount {
  return round(amount(orderTotal).minus(amountPaid), MONEY_SCALE);
}

export interface BalanceState {
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  order_total: AmountLike;
  amount_paid: AmountLike;
  /** Credit memos applied to the document (a sales allowance, not a payment): they lower balance_due, never amount_due. */
  amount_credited?: AmountLike;
  /** Lifecycle flags the status enum does not carry (archived and expired orders). */
  is_archived?: boolean;
  is_expired?: boolean;
}

/** Why balance_due is forced to 0, or null when it is order_total − amount_paid. */
export function balanceForcedToZeroBy(state: BalanceState): string | null {
  // Purchase orders and quotes are never forced to 0.
  if (state.document_type === 'purchase_order' || state.document_type === 'quote') return null;
  if (state.order_status === 'draft') return 'draft_sales_document';
  if (state.order_status === 'cancelled') return 'cancelled';
  if (state.is_archived) return 'archived';
  if (state.is_expired) return 'expired';
  if (state.document_type === 'invoice') {
    // A voided invoice (the document): payment_status voided after its payments were voided leaves it owed.
    if (state.order_status === 'voided') return 'voided_invoice';
    if (state.payment_status === 'refunded') return 'refunded_invoice';
  }
  return null;
}

/** The AR receivable of a document (see balanceForcedToZeroBy for when it is 0). */
export function balanceDue(state: BalanceState): Amount {
  if (balanceForcedToZeroBy(state)) return ZERO;
  return amountDue(state.order_total, amount(state.amount_paid).plus(state.amount_credited ?? 0));
}
