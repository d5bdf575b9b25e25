/**
 * Stock conditions of a location balance and the events crossing them emits. low: on_hand <=
 * reorder_point (only when the product has one); out: on_hand <= 0. An event fires when a
 * condition starts to hold, and back_in_stock when the balance leaves every condition; while a
 * condition keeps holding nothing repeats.
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

export function crossingEvents(before: StockCondition, after: StockCondition): StockEvent[] {
  const events: StockEvent[] = [];
  if (after.low && !before.low) events.push('inventory.low_stock');
  if (after.out && !before.out) events.push('inventory.out_of_stock');
  if ((before.low || before.out) && !after.low && !after.out) events.push('inventory.back_in_stock');
  return events;
}
