/**
 * FIFO costing. Stock comes in as cost layers (quantity at a unit cost) and goes out oldest layer
 * first. Quantities have 4 decimals and unit costs 4, so a draw's cost has at most 8 decimals and is
 * kept exact: the cost that leaves equals, to the last digit, the cost the consumed layers held.
 */
import { amount, ZERO, type Amount, type AmountLike } from '../money';

export interface CostLayer {
  id: string;
  remaining_quantity: AmountLike;
  unit_cost: AmountLike;
}

interface LayerDraw {
  layer_id: string;
  quantity: Amount;
  unit_cost: Amount;
  cost: Amount;
}

export interface FifoResult {
  draws: LayerDraw[];
  /** Quantity the layers could not cover (stock going negative). */
  shortfall: Amount;
  /** Cost of the draws only; the shortfall is priced by the caller. */
  layered_cost: Amount;
}

/** Draws `quantity` from `layers`, which must be in FIFO order (oldest first). */
export function consumeFifo(layers: readonly CostLayer[], quantity: AmountLike): FifoResult {
  let left = amount(quantity);
  if (left.isNegative()) throw new Error('consumeFifo takes a positive quantity');
  const draws: LayerDraw[] = [];
  let layeredCost = ZERO;
  for (const layer of layers) {
    if (left.isZero()) break;
    const available = amount(layer.remaining_quantity);
    if (available.lte(0)) continue;
    const taken = available.lt(left) ? available : left;
    const unitCost = amount(layer.unit_cost);
    const cost = taken.times(unitCost);
    draws.push({ layer_id: layer.id, quantity: taken, unit_cost: unitCost, cost });
    layeredCost = layeredCost.plus(cost);
    left = left.minus(taken);
  }
  return { draws, shortfall: left, layered_cost: layeredCost };
}

/**
 * The layer a receipt opens. While on hand is negative, the first units received settle what was
 * already shipped (those units were costed when they left), so only the rest become a layer:
 * remaining layers always add up to max(on hand, 0).
 */
export function receiptLayerQuantity(onHandBefore: AmountLike, received: AmountLike): Amount {
  const after = amount(onHandBefore).plus(received);
  if (after.lte(0)) return ZERO;
  return after.lt(received) ? after : amount(received);
}
