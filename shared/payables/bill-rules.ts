/**
 * The arithmetic and the state machine of vendor bills, without I/O: line amounts, totals, the due
 * date from payment terms, the AP journal lines of a posting, and which move each status allows.
 */
import { amount, round, sum, type AmountLike } from '../money';
import type { VendorBillStatus } from './schemas/vendor-bill';

/** An item line's amount: quantity × unit cost, rounded half away from zero to the cent. */
export function itemLineAmount(quantity: AmountLike, unitCost: AmountLike): string {
  return round(amount(quantity).times(amount(unitCost))).toString();
}

/** subtotal = Σ line amounts; bill_total = subtotal + tax + shipping. */
export function billTotals(lineAmounts: readonly AmountLike[], taxTotal: AmountLike, shippingTotal: AmountLike): { subtotal: string; bill_total: string } {
  const subtotal = sum(lineAmounts);
  return { subtotal: subtotal.toString(), bill_total: subtotal.plus(amount(taxTotal)).plus(amount(shippingTotal)).toString() };
}

/** bill_date + net_days, as an ISO date. */
export function dueDateFrom(billDate: string, netDays: number): string {
  const date = new Date(`${billDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + netDays);
  return date.toISOString().slice(0, 10);
}

export interface PostableLine {
  type: 'expense' | 'item';
  account_id: string | null;
  amount: AmountLike;
  /** Item lines billed from a purchase order: the received-not-billed cost they clear (set at posting; null when the receipt posted nothing). */
  receipt_cost?: AmountLike | null;
}

export interface BillPostingLine {
  account_id?: string;
  system_key?: 'cost_of_goods_sold' | 'accounts_payable' | 'received_not_billed' | 'purchase_price_variance';
  debit?: string;
  credit?: string;
  memo: string;
}

/**
 * The AP journal entry of a bill: each expense line debits its account; an item line billed from a
 * purchase order debits received_not_billed its receipt cost and posts amount − receipt cost to
 * purchase_price_variance (a debit when the bill costs more than the receipt, a credit when less);
 * any other item line (no purchase order receipt behind it, so no stock moved) debits the cost of
 * goods sold, as do tax and shipping; accounts payable is credited the bill total. Zero amounts
 * post nothing. Balanced by construction when bill_total is the sum.
 */
export function billPostingLines(
  bill: { bill_number: string; tax_total: AmountLike; shipping_total: AmountLike; bill_total: AmountLike },
  lines: readonly PostableLine[],
): BillPostingLine[] {
  const posting: BillPostingLine[] = [];
  const debit = (value: AmountLike, target: Pick<BillPostingLine, 'account_id' | 'system_key'>, memo: string) => {
    if (!amount(value).isZero()) posting.push({ ...target, debit: amount(value).toString(), memo });
  };
  lines.forEach((line, index) => {
    const memo = `${bill.bill_number} line ${index + 1}`;
    if (line.type === 'expense') debit(line.amount, { account_id: line.account_id! }, memo);
    else if (line.receipt_cost === null || line.receipt_cost === undefined) debit(line.amount, { system_key: 'cost_of_goods_sold' }, memo);
    else {
      debit(line.receipt_cost, { system_key: 'received_not_billed' }, memo);
      const variance = amount(line.amount).minus(line.receipt_cost);
      if (variance.gt(0)) debit(variance, { system_key: 'purchase_price_variance' }, `${memo} price variance`);
      if (variance.lt(0)) posting.push({ system_key: 'purchase_price_variance', credit: variance.negated().toString(), memo: `${memo} price variance` });
    }
  });
  debit(bill.tax_total, { system_key: 'cost_of_goods_sold' }, `${bill.bill_number} tax`);
  debit(bill.shipping_total, { system_key: 'cost_of_goods_sold' }, `${bill.bill_number} shipping`);
  posting.push({ system_key: 'accounts_payable', credit: amount(bill.bill_total).toString(), memo: bill.bill_number });
  return posting;
}

export type BillAction = 'edit' | 'submit' | 'approve' | 'reject' | 'post' | 'post_skipping_approval' | 'void';

/** The statuses each action starts from; anything else is 409 vendor_bill_invalid_transition. */
const FROM: Record<BillAction, readonly VendorBillStatus[]> = {
  // A rejected bill is corrected and submitted again, as a draft is.
  edit: ['draft', 'rejected'],
  submit: ['draft', 'rejected'],
  approve: ['pending_approval'],
  reject: ['pending_approval'],
  post: ['approved'],
  // The migration carve-out loads bills that were approved in the system they come from.
  post_skipping_approval: ['draft', 'pending_approval', 'approved', 'rejected'],
  void: ['draft', 'pending_approval', 'approved', 'rejected', 'open'],
};

export function allows(action: BillAction, status: VendorBillStatus): boolean {
  return FROM[action].includes(status);
}
