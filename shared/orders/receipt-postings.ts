/**
 * Pure arithmetic of purchase order receipts: the GL lines of a receipt and how far a
 * drop-shipped kit's component lines are fulfilled when the kit's line is.
 */
import { amount, MONEY_SCALE, QUANTITY_SCALE, round, type Amount, type AmountLike } from '../money';

export interface ReceiptPostingLine {
  system_key: 'inventory' | 'cost_of_goods_sold' | 'received_not_billed';
  debit?: string;
  credit?: string;
}

/**
 * Debit inventory with the stocked lines' cost and cost_of_goods_sold with the drop-ship lines'
 * cost, each rounded half away from zero to cents; credit received_not_billed with their sum, so
 * the entry balances to the cent. Zero lines are left out; a receipt that costs nothing posts nothing.
 */
export function receiptPostingLines(inventoryCost: AmountLike, dropShipCost: AmountLike): ReceiptPostingLine[] {
  const inventory = round(amount(inventoryCost), MONEY_SCALE);
  const cogs = round(amount(dropShipCost), MONEY_SCALE);
  const total = inventory.plus(cogs);
  if (total.isZero()) return [];
  const lines: ReceiptPostingLine[] = [];
  if (!inventory.isZero()) lines.push({ system_key: 'inventory', debit: inventory.toString() });
  if (!cogs.isZero()) lines.push({ system_key: 'cost_of_goods_sold', debit: cogs.toString() });
  lines.push({ system_key: 'received_not_billed', credit: total.toString() });
  return lines;
}

/**
 * A kit component line's quantity_fulfilled after `received` kits of its kit line arrive: in
 * proportion (rounded to 4 decimals), never above the component's quantity, and exactly its
 * quantity once the kit line is complete, so rounding never strands a remainder.
 */
export function componentFulfilled(
  component: { quantity: AmountLike; quantity_fulfilled: AmountLike },
  kit: { quantity: AmountLike; fulfilledAfter: AmountLike },
  received: AmountLike,
): Amount {
  const quantity = amount(component.quantity);
  if (amount(kit.fulfilledAfter).gte(kit.quantity)) return quantity;
  const share = round(quantity.times(received).dividedBy(kit.quantity), QUANTITY_SCALE);
  const next = amount(component.quantity_fulfilled).plus(share);
  return next.gt(quantity) ? quantity : next;
}
