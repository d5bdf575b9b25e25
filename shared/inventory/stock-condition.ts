/**
 * Stock conditions of a location balance and the events crossing them emits. low: on_hand <=
 * reorder_point (only when the product has one); out: on_hand <= 0. An event fires when a
 * condition starts to hold, and back_in_stock when the balance leaves every condition; while a
 * condition keeps holding nothing repeats.
 *
 * The events are population-gated (spec, Events): only products with a reorder point are watched,
 * so a product without one never emits low, out or back-in-stock events, though its balance still
 * reports out_of_stock.
 */
import { amount, type AmountLike } from '../money';

export interface StockCondition {
  low: boolean;
  out: boolean;
}

export type StockEvent = 'inventory.low_stock' | 'inventory.out_of_stock' | 'inventory.back_in_stock';

export function stockCondition(onHand: AmountLike, reorderPoint: AmountLike | null): StockCondition {
  const quantity = amount(onHand);
  return { low: reorderPoint !== null && quantity.lte(reorderPoint), out: quantity.lte(0) };
}

export function stockStatus(condition: StockCondition): 'in_stock' | 'low_stock' | 'out_of_stock' {
  return condition.out ? 'out_of_stock' : condition.low ? 'low_stock' : 'in_stock';
}

/** `watched`: the product has a reorder point, which puts it in the population events are sent for. */
export function crossingEvents(before: StockCondition, after: StockCondition, watched: boolean): StockEvent[] {
  const events: StockEvent[] = [];
  if (!watched) return events;
  if (after.low && !before.low) events.push('inventory.low_stock');
  if (after.out && !before.out) events.push('inventory.out_of_stock');
  if ((before.low || before.out) && !after.low && !after.out) events.push('inventory.back_in_stock');
  return events;
}
