/** Pure arithmetic of receipts: how far a drop-shipped kit's component lines are fulfilled when the kit's line is. */
import { amount, QUANTITY_SCALE, round, type Amount, type AmountLike } from '../money';

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
