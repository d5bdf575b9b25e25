/**
 * FIFO costing and the valuation in cents. Stock comes in as cost layers (quantity at a unit cost)
 * and goes out oldest layer first. Quantities have 4 decimals and unit costs 4, so a draw's cost has
 * at most 8 decimals and is kept exact: the cost that leaves equals, to the last digit, the cost the
 * consumed layers held.
 *
 * The books keep cents, so each layer also carries the cents it is worth (its value), and that is
 * what the inventory account holds (docs/decisions.md, "Inventory valuation in cents"):
 * - a layer opened at a unit cost is worth quantity × unit cost, rounded half away from zero to the
 *   cent (layerValue);
 * - a draw takes the layer's cents in proportion to the units it takes, rounded the same way, and a
 *   draw that empties the layer takes exactly what is left (drawValue), so a layer's draws always
 *   add up to what it was worth and a layer is never worth less than 0;
 * - a layer that moves (transfer) or is built from drawn layers (kit build) carries exactly the
 *   cents that left its sources.
 * A balance's inventory_value is the sum of its layers' values, and each movement posts the change
 * it makes to that sum, so the inventory account equals the valuation to the cent by construction.
 */
import { amount, MONEY_SCALE, round, ZERO, type Amount, type AmountLike } from '../money';

export interface CostLayer {
  id: string;
  remaining_quantity: AmountLike;
  unit_cost: AmountLike;
  /** The cents the layer's remaining units are worth. */
  remaining_value: AmountLike;
}

interface LayerDraw {
  layer_id: string;
  quantity: Amount;
  unit_cost: Amount;
  cost: Amount;
  /** The cents the draw took from the layer. */
  value: Amount;
}

export interface FifoResult {
  draws: LayerDraw[];
  /** Quantity the layers could not cover (stock going negative). */
  shortfall: Amount;
  /** Cost of the draws only; the shortfall is priced by the caller. */
  layered_cost: Amount;
  /** Cents the draws took from the layers; the shortfall takes none (it is not in the valuation). */
  value: Amount;
}

/** The cents a new layer of `quantity` units at `unitCost` is worth. */
export const layerValue = (quantity: AmountLike, unitCost: AmountLike): Amount => round(amount(quantity).times(unitCost), MONEY_SCALE);

/**
 * The cents `taken` units take from a layer of `remaining` units worth `value`: all of it when the
 * draw empties the layer, else the proportional share rounded to the cent (never more than the layer holds).
 */
export function drawValue(layer: { remaining_quantity: AmountLike; remaining_value: AmountLike }, taken: AmountLike): Amount {
  const remaining = amount(layer.remaining_quantity);
  const value = amount(layer.remaining_value);
  if (amount(taken).gte(remaining)) return value;
  return round(value.times(taken).dividedBy(remaining), MONEY_SCALE);
}

/** Draws `quantity` from `layers`, which must be in FIFO order (oldest first). */
export function consumeFifo(layers: readonly CostLayer[], quantity: AmountLike): FifoResult {
  let left = amount(quantity);
  if (left.isNegative()) throw new Error('consumeFifo takes a positive quantity');
  const draws: LayerDraw[] = [];
  let layeredCost = ZERO;
  let value = ZERO;
  for (const layer of layers) {
    if (left.isZero()) break;
    const available = amount(layer.remaining_quantity);
    if (available.lte(0)) continue;
    const taken = available.lt(left) ? available : left;
    const unitCost = amount(layer.unit_cost);
    const cost = taken.times(unitCost);
    const drawn = drawValue(layer, taken);
    draws.push({ layer_id: layer.id, quantity: taken, unit_cost: unitCost, cost, value: drawn });
    layeredCost = layeredCost.plus(cost);
    value = value.plus(drawn);
    left = left.minus(taken);
  }
  return { draws, shortfall: left, layered_cost: layeredCost, value };
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
