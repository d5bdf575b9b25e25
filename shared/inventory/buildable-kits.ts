/** How many kits the components on hand can build. */
import { amount, floor, type AmountLike } from '../money';

export interface ComponentStock {
  quantity_per_kit: AmountLike;
  available: AmountLike;
}

/** min over components of floor(available / quantity_per_kit); 0 when any component is short or none exist. */
export function buildableKits(components: readonly ComponentStock[]): number {
  if (components.length === 0) return 0;
  let best: number | undefined;
  for (const component of components) {
    const available = amount(component.available);
    const perKit = amount(component.quantity_per_kit);
    if (perKit.lte(0)) throw new Error('quantity_per_kit must be positive');
    const kits = available.lte(0) ? 0 : floor(available.dividedBy(perKit)).toNumber();
    best = best === undefined ? kits : Math.min(best, kits);
  }
  return best ?? 0;
}
