/**
 * Stock movements: every change of on hand goes through postMovement, which writes the transaction
 * row, its FIFO cost layers and layer draws, and the new balance, and tells the caller the change of
 * the balance's valuation in cents (value_change) that the caller posts to the inventory account.
 *
 * Every movement runs inside the request's transaction: the (product, location) balance row is
 * locked first (locks are taken in a fixed order when a request moves several balances, so two
 * requests cannot deadlock), then the open cost layers, then the transaction row, layer draws and
 * the new balance are written. Concurrent receipts and draws on one product queue on the balance
 * row, so on_hand always equals the sum of the transactions.
 */
import type { Db } from '../db/database';
import { consumeFifo, drawValue, layerValue, receiptLayerQuantity } from './fifo';
import { crossingEvents, stockCondition, type StockEvent } from './stock-condition';
import type { EventRecorder } from '../events/outbox';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { amount, QUANTITY_SCALE, round, toJsonNumber, ZERO, type Amount, type AmountLike } from '../money';
import { COST_SCALE, type InventoryTransaction, type TransactionType } from './schemas/inventory';
import { TRANSACTION_COLUMNS, toTransaction, type TransactionRow } from './inventory-transactions';
import { balanceKey, getBalance } from './inventory-balances';
import { syncDemandReorderPoint } from '../catalog/demand-reorder-point';
import { productDemand } from './product-demand';
import type { OpenOrderQuantitiesSql } from './open-order-quantities';
import { lockDemandModeProducts, stockFactsByProduct } from '../catalog/product-facts';

/** A product as inventory needs it. */
export interface StockProduct {
  id: string;
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
}

export async function getStockProduct(db: Db, entityId: string, productId: string, param = 'product_id'): Promise<StockProduct> {
  const facts = (await stockFactsByProduct(db, entityId, [productId])).get(productId.toLowerCase());
  const product: StockProduct | undefined = facts && { id: productId.toLowerCase(), ...facts };
  if (!product) throw new ApiError('not_found', { param, hint: 'No such product in this entity.' });
  if (product.product_type !== 'simple' && product.product_type !== 'kit') {
    throw new ApiError('product_not_stockable', { param, details: { product_type: product.product_type } });
  }
  return product;
}

interface LockedBalance {
  id: string;
  on_hand: Amount;
  is_low: boolean;
  is_out: boolean;
  /** The product's reorder_point_mode is demand: a movement refreshes its reorder point. */
  demand_mode: boolean;
}

/**
 * Locks the balance rows of every (product, location) pair, creating missing ones, in a fixed order.
 * A new row starts with no stock condition, so its first movement reports a condition it creates.
 */
export async function lockBalances(db: Db, entityId: string, pairs: { product_id: string; location_id: string }[]): Promise<Map<string, LockedBalance>> {
  const unique = [...new Map(pairs.map((pair) => [balanceKey(pair.product_id, pair.location_id), pair])).values()].sort((a, b) =>
    balanceKey(a.product_id, a.location_id).localeCompare(balanceKey(b.product_id, b.location_id)),
  );
  // Products whose reorder point follows demand are locked first, in id order: a movement rewrites
  // their reorder_point and re-evaluates their other balances, so they are taken before any balance.
  const demandProducts = new Set(
    await lockDemandModeProducts(
      db,
      entityId,
      unique.map((pair) => pair.product_id),
    ),
  );
  const locked = new Map<string, LockedBalance>();
  for (const pair of unique) {
    await db.query(
      `INSERT INTO inventory_balances (id, entity_id, product_id, location_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity_id, product_id, location_id) DO NOTHING`,
      [newId(), entityId, pair.product_id, pair.location_id],
    );
    const row = await db.one<{ id: string; on_hand: string; is_low: boolean; is_out: boolean }>(
      'SELECT id, on_hand, is_low, is_out FROM inventory_balances WHERE entity_id = $1 AND product_id = $2 AND location_id = $3 FOR UPDATE',
      [entityId, pair.product_id, pair.location_id],
    );
    locked.set(balanceKey(pair.product_id, pair.location_id), { ...row, on_hand: amount(row.on_hand), demand_mode: demandProducts.has(pair.product_id) });
  }
  return locked;
}

export interface Movement {
  product: StockProduct;
  location_id: string;
  transaction_type: TransactionType;
  /** Signed. */
  quantity: AmountLike;
  /** Inflows: cost per unit. Outflows ignore it (FIFO decides). */
  unit_cost?: AmountLike;
  /** Inflows that carry cost from layers elsewhere (builds): exact total cost ... */
  total_cost?: AmountLike;
  /** ... and the cents the drawn layers were worth, which the new layer carries. */
  total_value?: AmountLike;
  /**
   * Inflows that must keep the source layers' costs (transfers, returns): one layer per entry, worth
   * `value` cents when given (a transfer carries the cents that left), else quantity × unit cost in cents.
   */
  layers?: { quantity: Amount; unit_cost: Amount; value?: Amount }[];
  allow_negative?: boolean;
  param?: string;
  reference_type?: string | null;
  reference_id?: string | null;
  transaction_id?: string | null;
  group_id?: string | null;
  reason?: string | null;
  notes?: string | null;
  metadata?: Record<string, string>;
  occurred_at?: string;
}

export interface PostedMovement {
  transaction: InventoryTransaction;
  /** FIFO draws of an outflow, for callers that pass cost on (transfers, builds); units beyond the layers are worth 0 cents. */
  draws: { quantity: Amount; unit_cost: Amount; cost: Amount; value: Amount }[];
  total_cost: Amount;
  /**
   * The change of the balance's inventory_value (cents, signed): what the caller posts to the
   * inventory account. Units beyond the layers (negative stock) are worth nothing, so a draw beyond
   * the layers and a receipt that settles it change the value only by the layers they touch.
   */
  value_change: Amount;
}

interface NewLayer {
  quantity: Amount;
  unit_cost: Amount;
  value: Amount;
}

/** The part of an incoming layer left after `settle` of its units settle negative stock (they take their share of its cents). */
function unsettledPart(layer: NewLayer, settle: Amount): NewLayer | null {
  const settled = settle.lt(layer.quantity) ? settle : layer.quantity;
  if (!layer.quantity.minus(settled).gt(0)) return null;
  const settledValue = drawValue({ remaining_quantity: layer.quantity, remaining_value: layer.value }, settled);
  return { quantity: layer.quantity.minus(settled), unit_cost: layer.unit_cost, value: layer.value.minus(settledValue) };
}

/** The cost units leaving beyond the layers (negative stock), or entering without a stated cost. */
async function fallbackUnitCost(db: Db, entityId: string, product: StockProduct, locationId: string): Promise<Amount> {
  if (product.cost !== null) return amount(product.cost);
  const last = await db.maybeOne<{ unit_cost: string }>(
    `SELECT unit_cost FROM inventory_cost_layers WHERE entity_id = $1 AND product_id = $2 AND location_id = $3 ORDER BY received_at DESC, id DESC LIMIT 1`,
    [entityId, product.id, locationId],
  );
  return last ? amount(last.unit_cost) : ZERO;
}

/**
 * Posts one movement against a balance already locked by lockBalances, records stock events when
 * the balance crosses a condition, and returns the immutable transaction row. The events carry the
 * balance object, whose committed and on_order figures `openQuantities` (the orders capability's
 * query, from the caller) answers.
 */
export async function postMovement(
  db: Db,
  entityId: string,
  events: EventRecorder,
  balances: Map<string, LockedBalance>,
  movement: Movement,
  openQuantities: OpenOrderQuantitiesSql,
): Promise<PostedMovement> {
  const balance = balances.get(balanceKey(movement.product.id, movement.location_id));
  if (!balance) throw new Error('postMovement needs the balance locked first');
  const quantity = amount(movement.quantity);
  const transactionId = newId();
  const occurredAt = movement.occurred_at ?? new Date().toISOString();
  let unitCost: Amount;
  let totalCost: Amount;
  let draws: PostedMovement['draws'] = [];
  let layerDraws: { layer_id: string; quantity: Amount; unit_cost: Amount; cost: Amount; value: Amount }[] = [];
  const newLayers: NewLayer[] = [];
  let valueChange: Amount;

  if (quantity.isNegative()) {
    const out = quantity.negated();
    if (balance.on_hand.minus(out).isNegative() && !movement.allow_negative) {
      throw new ApiError('insufficient_stock', {
        param: movement.param ?? 'quantity',
        details: { product_id: movement.product.id, location_id: movement.location_id, on_hand: toJsonNumber(balance.on_hand, QUANTITY_SCALE) },
      });
    }
    const layers = await db.query<{ id: string; remaining_quantity: string; unit_cost: string; remaining_value: string }>(
      `SELECT id, remaining_quantity, unit_cost, remaining_value FROM inventory_cost_layers
       WHERE entity_id = $1 AND product_id = $2 AND location_id = $3 AND remaining_quantity > 0
       ORDER BY received_at, id FOR UPDATE`,
      [entityId, movement.product.id, movement.location_id],
    );
    const fifo = consumeFifo(layers, out);
    layerDraws = fifo.draws;
    draws = fifo.draws.map(({ quantity: q, unit_cost: c, cost, value }) => ({ quantity: q, unit_cost: c, cost, value }));
    totalCost = fifo.layered_cost;
    if (fifo.shortfall.gt(0)) {
      const fallback = await fallbackUnitCost(db, entityId, movement.product, movement.location_id);
      totalCost = totalCost.plus(fifo.shortfall.times(fallback));
      draws.push({ quantity: fifo.shortfall, unit_cost: fallback, cost: fifo.shortfall.times(fallback), value: ZERO });
    }
    unitCost = round(totalCost.dividedBy(out), COST_SCALE);
    totalCost = totalCost.negated();
    valueChange = fifo.value.negated();
  } else {
    // While on hand is negative the first units settle the shortfall; layers take the rest, oldest first.
    let settle = balance.on_hand.isNegative() ? balance.on_hand.negated() : ZERO;
    let incoming: NewLayer[];
    if (movement.layers) {
      totalCost = movement.layers.reduce((sum, layer) => sum.plus(layer.quantity.times(layer.unit_cost)), ZERO);
      unitCost = round(totalCost.dividedBy(quantity), COST_SCALE);
      incoming = movement.layers.map((layer) => ({ ...layer, value: layer.value ?? layerValue(layer.quantity, layer.unit_cost) }));
    } else if (movement.total_cost !== undefined) {
      totalCost = amount(movement.total_cost);
      unitCost = round(totalCost.dividedBy(quantity), COST_SCALE);
      incoming = [{ quantity, unit_cost: unitCost, value: movement.total_value !== undefined ? amount(movement.total_value) : layerValue(quantity, unitCost) }];
    } else {
      unitCost = movement.unit_cost !== undefined ? amount(movement.unit_cost) : await fallbackUnitCost(db, entityId, movement.product, movement.location_id);
      totalCost = quantity.times(unitCost);
      // The settled units are left out before rounding, so the layer is worth its own quantity × unit cost.
      const layerQuantity = receiptLayerQuantity(balance.on_hand, quantity);
      settle = ZERO;
      incoming = layerQuantity.gt(0) ? [{ quantity: layerQuantity, unit_cost: unitCost, value: layerValue(layerQuantity, unitCost) }] : [];
    }
    for (const layer of incoming) {
      const rest = unsettledPart(layer, settle);
      settle = settle.minus(layer.quantity.minus(rest?.quantity ?? ZERO));
      if (rest) newLayers.push(rest);
    }
    valueChange = newLayers.reduce((sum, layer) => sum.plus(layer.value), ZERO);
  }

  const row = await db.one<TransactionRow>(
    `INSERT INTO inventory_transactions AS t (id, entity_id, product_id, location_id, transaction_type, quantity, unit_cost, total_cost, uom_id,
       reference_type, reference_id, transaction_id, group_id, reason, notes, metadata, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING ${TRANSACTION_COLUMNS}`,
    [
      transactionId,
      entityId,
      movement.product.id,
      movement.location_id,
      movement.transaction_type,
      quantity.toString(),
      unitCost.toString(),
      totalCost.toString(),
      movement.product.uom_id,
      movement.reference_type ?? null,
      movement.reference_id ?? null,
      movement.transaction_id ?? null,
      movement.group_id ?? null,
      movement.reason ?? null,
      movement.notes ?? null,
      movement.metadata ?? {},
      occurredAt,
    ],
  );
  for (const draw of layerDraws) {
    await db.query(
      'UPDATE inventory_cost_layers SET remaining_quantity = remaining_quantity - $3, remaining_value = remaining_value - $4 WHERE entity_id = $1 AND id = $2',
      [entityId, draw.layer_id, draw.quantity.toString(), draw.value.toString()],
    );
    await db.query(
      `INSERT INTO inventory_layer_draws (id, entity_id, transaction_id, layer_id, quantity, unit_cost, cost, value) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [newId(), entityId, transactionId, draw.layer_id, draw.quantity.toString(), draw.unit_cost.toString(), draw.cost.toString(), draw.value.toString()],
    );
  }
  for (const layer of newLayers) {
    await db.query(
      `INSERT INTO inventory_cost_layers (id, entity_id, product_id, location_id, transaction_id, unit_cost, original_quantity, remaining_quantity,
         remaining_value, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9)`,
      [
        newId(),
        entityId,
        movement.product.id,
        movement.location_id,
        transactionId,
        layer.unit_cost.toString(),
        layer.quantity.toString(),
        layer.value.toString(),
        occurredAt,
      ],
    );
  }

  const onHand = balance.on_hand.plus(quantity);
  const before = { low: balance.is_low, out: balance.is_out };
  // reorder_point_mode demand: the movement changed the product's demand, so its reorder point
  // follows before the condition is read (the balance's first movement dates its demand first).
  let pointMoved = false;
  if (balance.demand_mode) {
    await db.query('UPDATE inventory_balances SET first_activity_at = LEAST(first_activity_at, $3) WHERE entity_id = $1 AND id = $2', [
      entityId,
      balance.id,
      occurredAt,
    ]);
    const demand = await productDemand(db, entityId, [movement.product.id]);
    const moved = await syncDemandReorderPoint(db, entityId, movement.product.id, demand.get(movement.product.id)!);
    if (moved !== null) {
      movement.product.reorder_point = moved;
      pointMoved = true;
    }
  }
  const after = stockCondition(onHand, movement.product.reorder_point);
  await db.query(
    `UPDATE inventory_balances SET on_hand = $3, is_low = $4, is_out = $5, first_activity_at = LEAST(first_activity_at, $6), updated_at = now()
     WHERE entity_id = $1 AND id = $2`,
    [entityId, balance.id, onHand.toString(), after.low, after.out, occurredAt],
  );
  balance.on_hand = onHand;
  balance.is_low = after.low;
  balance.is_out = after.out;
  const transaction = toTransaction(row);
  await events.record('inventory_transaction.created', transaction);
  await recordCrossings(db, entityId, events, balance.id, crossingEvents(before, after, movement.product.reorder_point !== null), openQuantities);
  // The product's other locations are read against the moved point too (their balances follow the product lock).
  if (pointMoved) await refreshStockConditions(db, entityId, movement.product.id, events, openQuantities);
  return { transaction, draws, total_cost: totalCost, value_change: valueChange };
}

/** Records the events of a balance that crossed a stock condition, with the balance as it is now. */
async function recordCrossings(
  db: Db,
  entityId: string,
  events: EventRecorder,
  balanceId: string,
  crossings: StockEvent[],
  openQuantities: OpenOrderQuantitiesSql,
): Promise<void> {
  if (!crossings.length) return;
  const current = await getBalance(db, entityId, balanceId, openQuantities);
  for (const type of crossings) await events.record(type, current);
}

/** After a product's reorder_point changes, every location balance is re-evaluated (and may cross). */
export async function refreshStockConditions(
  db: Db,
  entityId: string,
  productId: string,
  events: EventRecorder,
  openQuantities: OpenOrderQuantitiesSql,
): Promise<void> {
  const balances = await db.query<{ id: string; on_hand: string; is_low: boolean; is_out: boolean }>(
    `SELECT b.id, b.on_hand, b.is_low, b.is_out FROM inventory_balances b
     WHERE b.entity_id = $1 AND b.product_id = $2 ORDER BY b.location_id FOR UPDATE OF b`,
    [entityId, productId],
  );
  const reorderPoint = balances.length ? (await stockFactsByProduct(db, entityId, [productId])).get(productId.toLowerCase())!.reorder_point : null;
  for (const row of balances.map((balance) => ({ ...balance, reorder_point: reorderPoint }))) {
    const after = stockCondition(row.on_hand, row.reorder_point);
    const crossings = crossingEvents({ low: row.is_low, out: row.is_out }, after, row.reorder_point !== null);
    if (after.low === row.is_low && after.out === row.is_out) continue;
    await db.query('UPDATE inventory_balances SET is_low = $3, is_out = $4, updated_at = now() WHERE entity_id = $1 AND id = $2', [
      entityId,
      row.id,
      after.low,
      after.out,
    ]);
    await recordCrossings(db, entityId, events, row.id, crossings, openQuantities);
  }
}
