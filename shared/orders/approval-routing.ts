/**
 * Order approval routing (E9), pure. A rule names a customer account, a sales channel or both;
 * it matches a sales order when every dimension it names equals the order's. A matching active
 * rule routes the order when order_total is strictly over its threshold_amount ("over the
 * threshold": an order of exactly the threshold goes through, as an approval limit is the most a
 * user may commit alone). When several rules route one order, the one with the highest threshold
 * wins (the most senior approval the amount needs), then the more specific (account and channel,
 * then account, then channel), then the oldest (the caller passes rules oldest first).
 * Purchase order rules (document_type purchase_order) route purchase orders only: a rule with a
 * vendor matches that vendor's, one without matches every purchase order; the vendor's rule is the
 * more specific.
 */
import { amount, type AmountLike } from '../money';

export interface ApprovalRuleLike {
  id: string;
  /** sales_order when left out. */
  document_type?: 'sales_order' | 'purchase_order';
  vendor_id?: string | null;
  account_id: string | null;
  sales_channel_id: string | null;
  threshold_amount: AmountLike;
  is_active: boolean;
}

export interface RoutedOrder {
  /** sales_order when left out. */
  document_type?: 'sales_order' | 'purchase_order';
  vendor_id?: string | null;
  account_id: string | null;
  sales_channel_id: string | null;
  order_total: AmountLike;
}

/** Whether every dimension the rule names is the order's (a rule names at least one). */
export function ruleMatches(rule: ApprovalRuleLike, order: Omit<RoutedOrder, 'order_total'>): boolean {
  const ruleType = rule.document_type ?? 'sales_order';
  if (ruleType !== (order.document_type ?? 'sales_order')) return false;
  if (ruleType === 'purchase_order') return (rule.vendor_id ?? null) === null || rule.vendor_id === order.vendor_id;
  if (rule.account_id === null && rule.sales_channel_id === null) return false;
  if (rule.account_id !== null && rule.account_id !== order.account_id) return false;
  if (rule.sales_channel_id !== null && rule.sales_channel_id !== order.sales_channel_id) return false;
  return true;
}

/** Strictly over: an order of exactly the threshold needs no approval. */
export const overThreshold = (orderTotal: AmountLike, threshold: AmountLike): boolean => amount(orderTotal).gt(threshold);

const specificity = (rule: ApprovalRuleLike) =>
  (rule.account_id !== null ? 2 : 0) + (rule.sales_channel_id !== null ? 1 : 0) + ((rule.vendor_id ?? null) !== null ? 2 : 0);

/** The rule that holds this order for approval, or null when it goes straight to confirmed. */
export function routingRule<R extends ApprovalRuleLike>(order: RoutedOrder, rules: readonly R[]): R | null {
  let best: R | null = null;
  for (const rule of rules) {
    if (!rule.is_active || !ruleMatches(rule, order) || !overThreshold(order.order_total, rule.threshold_amount)) continue;
    if (best === null) {
      best = rule;
      continue;
    }
    const byThreshold = amount(rule.threshold_amount).cmp(best.threshold_amount);
    if (byThreshold > 0 || (byThreshold === 0 && specificity(rule) > specificity(best))) best = rule;
  }
  return best;
}
