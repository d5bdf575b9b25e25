/**
 * Reorder suggestion. Order up to reorder_point plus the demand expected during the preferred
 * vendor's lead time, net of what is already available and on order, rounded up to the vendor's
 * order multiple (a case of 12 is bought as 12, 24, ...).
 *
 * suggested_reorder_point is the demand expected during the lead time (daily_demand ×
 * lead_time_days): a computed advice that moves with the demand rules. The stored reorder_point
 * stays what triggers the stock events and the target; the report only suggests.
 */
import { amount, ceil, QUANTITY_SCALE, round, ZERO, type Amount, type AmountLike } from '../money';

export interface ReorderInput {
  on_hand: AmountLike;
  committed: AmountLike;
  on_order: AmountLike;
  reorder_point: AmountLike | null;
  daily_demand: AmountLike;
  lead_time_days: number | null;
  order_multiple: AmountLike | null;
  /** The vendor's minimum order: a needed quantity below it is raised to it (then to the multiple). */
  minimum_order_quantity?: AmountLike | null;
}

export interface ReorderSuggestion {
  /** daily_demand × lead_time_days, 4 decimals: the stock that covers the lead time. */
  suggested_reorder_point: Amount;
  target_level: Amount;
  inventory_position: Amount;
  suggested_qty: Amount;
  net_suggested_qty: Amount;
}

/** The smallest multiple of `multiple` that is >= `quantity` (quantity itself when multiple is absent). */
export function ceilToMultiple(quantity: AmountLike, multiple: AmountLike | null): Amount {
  const value = amount(quantity);
  if (value.lte(0)) return ZERO;
  if (multiple === null) return value;
  const step = amount(multiple);
  if (step.lte(0)) throw new Error('order_multiple must be positive');
  return ceil(value.dividedBy(step)).times(step);
}

export function suggestReorder(input: ReorderInput): ReorderSuggestion {
  const leadTimeDemand = round(amount(input.daily_demand).times(input.lead_time_days ?? 0), QUANTITY_SCALE);
  const target = round(amount(input.reorder_point ?? 0).plus(leadTimeDemand), QUANTITY_SCALE);
  const position = amount(input.on_hand).minus(input.committed).plus(input.on_order);
  const gap = target.minus(position);
  const suggested = gap.gt(0) ? round(gap, QUANTITY_SCALE) : ZERO;
  const minimum = input.minimum_order_quantity == null ? ZERO : amount(input.minimum_order_quantity);
  const toOrder = suggested.gt(0) && suggested.lt(minimum) ? minimum : suggested;
  return {
    suggested_reorder_point: leadTimeDemand,
    target_level: target,
    inventory_position: position,
    suggested_qty: suggested,
    net_suggested_qty: round(ceilToMultiple(toOrder, input.order_multiple), QUANTITY_SCALE),
  };
}
