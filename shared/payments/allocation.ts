/**
 * Pure rules of customer payments (decimal only, shared/money.ts):
 *
 *   payable amount  = what a document accepts: its balance_due (balanceDue of the totals engine,
 *                     so 0 on drafts, cancelled, archived or expired orders, voided or refunded
 *                     invoices), on a sales order at most what no live invoice bills and no
 *                     deposit holds yet (its invoices collect the rest), and 0 on documents that take no customer payment (quotes,
 *                     returns, purchase orders), on voided orders and on documents awaiting
 *                     ACH clearance; never negative.
 *   auto allocation = oldest first, each invoice up to its payable amount, until the amount is used.
 */
import { amount, type Amount, type AmountLike, ZERO } from '../money';
import { balanceDue, type BalanceState, type DocumentType } from '../orders/totals';

/** Documents a customer payment can be made against. */
const PAYABLE_DOCUMENT_TYPES: readonly DocumentType[] = ['sales_order', 'invoice'];

export function payableAmount(
  state: BalanceState & { unbilled_open?: AmountLike | null },
  documentTypes: readonly DocumentType[] = PAYABLE_DOCUMENT_TYPES,
): Amount {
  // A document awaiting ACH clearance takes no other payment until that one clears or fails.
  if (!documentTypes.includes(state.document_type) || state.order_status === 'voided' || state.order_status === 'awaiting_ach_clearance') return ZERO;
  const balance = balanceDue(state);
  // A sales order's invoices collect what they bill: the order itself takes only a deposit on the rest.
  const open = state.unbilled_open != null && amount(state.unbilled_open).lt(balance) ? amount(state.unbilled_open) : balance;
  return open.gt(0) ? open : ZERO;
}

/**
 * Where a receipt's credit side goes: the part applied to invoices settles accounts_receivable;
 * the rest (sales-order prepayments and any unapplied amount) is a customer deposit, a liability
 * in customer_credits, until an invoice takes it. So AR always equals Σ balance_due of the open
 * invoices.
 */
function receiptCreditSplit(
  total: AmountLike,
  applications: readonly { document_type: DocumentType; amount: AmountLike }[],
): { receivable: Amount; customerCredits: Amount } {
  const receivable = applications.filter((a) => a.document_type === 'invoice').reduce((acc, a) => acc.plus(a.amount), ZERO);
  return { receivable, customerCredits: amount(total).minus(receivable) };
}

/** The credit lines of a receipt (or the debit lines of its reversal), zero lines left out. */
export function receiptPostingLines(
  total: AmountLike,
  applications: readonly { document_type: DocumentType; amount: AmountLike }[],
  side: 'credit' | 'debit',
): { system_key: 'accounts_receivable' | 'customer_credits'; credit?: string; debit?: string }[] {
  const { receivable, customerCredits } = receiptCreditSplit(total, applications);
  return [
    { system_key: 'accounts_receivable' as const, [side]: receivable.toString() },
    { system_key: 'customer_credits' as const, [side]: customerCredits.toString() },
  ].filter((line) => !amount(line[side]).isZero());
}

/** A payment's applications as the receipt posting needs them (document type and amount). */
export function receiptApplications(applications: readonly { order: { document_type: string }; amount: AmountLike }[]) {
  return applications.map((a) => ({ document_type: a.order.document_type as DocumentType, amount: a.amount }));
}

export interface Allocation<T> {
  target: T;
  amount: Amount;
}

/** Applies `total` over `targets` in the order given (oldest first), each up to its payable amount. */
export function allocateOldestFirst<T extends { payable: AmountLike }>(
  total: AmountLike,
  targets: readonly T[],
): { allocations: Allocation<T>[]; remainder: Amount } {
  let left = amount(total);
  const allocations: Allocation<T>[] = [];
  for (const target of targets) {
    if (!left.gt(0)) break;
    const payable = amount(target.payable);
    if (!payable.gt(0)) continue;
    const applied = payable.lt(left) ? payable : left;
    allocations.push({ target, amount: applied });
    left = left.minus(applied);
  }
  return { allocations, remainder: left };
}
