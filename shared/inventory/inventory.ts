/**
 * SQL for inventory: movements, FIFO cost layers and location balances.
 *
 * Every movement runs inside the request's transaction: the (product, location) balance row is
 * locked first (locks are taken in a fixed order when a request moves several balances, so two
 * requests cannot deadlock), then the open cost layers, then the transaction row, layer draws and
 * the new balance are written. Concurrent receipts and draws on one product queue on the balance
 * row, so on_hand always equals the sum of the transactions.
 */
import type { Db } from '../db/database';
import { consumeFifo, receiptLayerQuantity } from './fifo';
import { averageDailyDemand, blendedDaily, basisTransactionTypes, runRate, RUN_RATE_WINDOWS } from '../catalog/demand';
import { crossingEvents, stockCondition, stockStatus } from './stock-condition';
import type { EventRecorder } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { openOrderQuantitiesSql } from './open-order-quantities';
import { newId } from '../ids';
import { amount, QUANTITY_SCALE, round, toJsonNumber, ZERO, type Amount, type AmountLike } from '../money';
import { COST_SCALE } from './cost-scale';
import type {
  AdjustmentCreate,
  InventoryBalance,
  InventoryTransaction,
  KitBuildCreate,
  ReceiptCreate,
  TransactionType,
  TransferCreate,
} from './schemas/inventory';

const TRANSACTION_COLUMNS = `t.id, 'inventory_transaction' AS object, t.entity_id, t.product_id, t.location_id, t.transaction_type, t.quantity, t.unit_cost,
  t.total_cost, t.uom_id, t.reference_type, t.reference_id, t.transaction_id, t.group_id, t.reason, t.notes, t.metadata, t.occurred_at, t.created_at`;

type TransactionRow = Omit<InventoryTransaction, 'quantity' | 'unit_cost' | 'total_cost'> & { quantity: string; unit_cost: string; total_cost: string };

export function toTransaction(row: TransactionRow): InventoryTransaction {
  return {
    ...row,
    quantity: toJsonNumber(row.quantity, QUANTITY_SCALE),
    unit_cost: toJsonNumber(row.unit_cost, COST_SCALE),
    total_cost: toJsonNumber(row.total_cost, COST_SCALE),
  };
}

/** A product as inventory needs it. */
export interface StockProduct {
  id: string;
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
}

export async function getStockProduct(db: Db, entityId: string, productId: string, param = 'product_id'): Promise<StockProduct> {
  const product = await db.maybeOne<StockProduct>('SELECT id, product_type, uom_id, cost, reorder_point FROM products WHERE entity_id = $1 AND id = $2', [
    entityId,
    productId,
  ]);
  if (!product) throw new ApiError('not_found', { param, hint: 'No such product in this entity.' });
  if (product.product_type !== 'simple' && product.product_type !== 'kit') {
    throw new ApiError('product_not_stockable', { param, details: { product_type: product.product_type } });
  }
  return product;
}

export async function checkLocation(db: Db, entityId: string, locationId: string, param = 'location_id'): Promise<void> {
  const found = await db.maybeOne('SELECT 1 FROM locations WHERE entity_id = $1 AND id = $2', [entityId, locationId]);
  if (!found) throw new ApiError('not_found', { param, hint: 'No such location in this entity.' });
}

interface LockedBalance {
  id: string;
  on_hand: Amount;
  is_low: boolean;
  is_out: boolean;
}

const balanceKey = (productId: string, locationId: string) => `${productId}:${locationId}`;

/**
 * Locks the balance rows of every (product, location) pair, creating missing ones, in a fixed order.
 * A new row starts with no stock condition, so its first movement reports a condition it creates.
 */
export async function lockBalances(db: Db, entityId: string, pairs: { product_id: string; location_id: string }[]): Promise<Map<string, LockedBalance>> {
  const unique = [...new Map(pairs.map((pair) => [balanceKey(pair.product_id, pair.location_id), pair])).values()].sort((a, b) =>
    balanceKey(a.product_id, a.location_id).localeCompare(balanceKey(b.product_id, b.location_id)),
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
    locked.set(balanceKey(pair.product_id, pair.location_id), { ...row, on_hand: amount(row.on_hand) });
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
  /** Inflows that carry cost from layers elsewhere (transfers, builds): exact total cost. */
  total_cost?: AmountLike;
  /** Inflows that must keep the source layers' costs (transfers): one layer per entry. */
  layers?: { quantity: Amount; unit_cost: Amount }[];
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
  /** FIFO draws of an outflow, for callers that pass cost on (transfers, builds). */
  draws: { quantity: Amount; unit_cost: Amount; cost: Amount }[];
  total_cost: Amount;
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
 * the balance crosses a condition, and returns the immutable transaction row.
 */
export async function postMovement(
  db: Db,
  entityId: string,
  events: EventRecorder,
  balances: Map<string, LockedBalance>,
  movement: Movement,
): Promise<PostedMovement> {
  const balance = balances.get(balanceKey(movement.product.id, movement.location_id));
  if (!balance) throw new Error('postMovement needs the balance locked first');
  const quantity = amount(movement.quantity);
  const transactionId = newId();
  const occurredAt = movement.occurred_at ?? new Date().toISOString();
  let unitCost: Amount;
  let totalCost: Amount;
  let draws: PostedMovement['draws'] = [];
  let layerDraws: { layer_id: string; quantity: Amount; unit_cost: Amount; cost: Amount }[] = [];
  const newLayers: { quantity: Amount; unit_cost: Amount }[] = [];

  if (quantity.isNegative()) {
    const out = quantity.negated();
    if (balance.on_hand.minus(out).isNegative() && !movement.allow_negative) {
      throw new ApiError('insufficient_stock', {
        param: movement.param ?? 'quantity',
        details: { product_id: movement.product.id, location_id: movement.location_id, on_hand: toJsonNumber(balance.on_hand, QUANTITY_SCALE) },
      });
    }
    const layers = await db.query<{ id: string; remaining_quantity: string; unit_cost: string }>(
      `SELECT id, remaining_quantity, unit_cost FROM inventory_cost_layers
       WHERE entity_id = $1 AND product_id = $2 AND location_id = $3 AND remaining_quantity > 0
       ORDER BY received_at, id FOR UPDATE`,
      [entityId, movement.product.id, movement.location_id],
    );
    const fifo = consumeFifo(layers, out);
    layerDraws = fifo.draws;
    draws = fifo.draws.map(({ quantity: q, unit_cost: c, cost }) => ({ quantity: q, unit_cost: c, cost }));
    totalCost = fifo.layered_cost;
    if (fifo.shortfall.gt(0)) {
      const fallback = await fallbackUnitCost(db, entityId, movement.product, movement.location_id);
      totalCost = totalCost.plus(fifo.shortfall.times(fallback));
      draws.push({ quantity: fifo.shortfall, unit_cost: fallback, cost: fifo.shortfall.times(fallback) });
    }
    unitCost = round(totalCost.dividedBy(out), COST_SCALE);
    totalCost = totalCost.negated();
  } else if (movement.layers) {
    totalCost = movement.layers.reduce((sum, layer) => sum.plus(layer.quantity.times(layer.unit_cost)), ZERO);
    unitCost = round(totalCost.dividedBy(quantity), COST_SCALE);
    // While on hand is negative the first units settle the shortfall; layers take the rest, oldest first.
    let settle = balance.on_hand.isNegative() ? balance.on_hand.negated() : ZERO;
    for (const layer of movement.layers) {
      const settled = settle.lt(layer.quantity) ? settle : layer.quantity;
      settle = settle.minus(settled);
      if (layer.quantity.minus(settled).gt(0)) newLayers.push({ quantity: layer.quantity.minus(settled), unit_cost: layer.unit_cost });
    }
  } else {
    if (movement.total_cost !== undefined) {
      totalCost = amount(movement.total_cost);
      unitCost = round(totalCost.dividedBy(quantity), COST_SCALE);
    } else {
      unitCost = movement.unit_cost !== undefined ? amount(movement.unit_cost) : await fallbackUnitCost(db, entityId, movement.product, movement.location_id);
      totalCost = quantity.times(unitCost);
    }
    const layerQuantity = receiptLayerQuantity(balance.on_hand, quantity);
    if (layerQuantity.gt(0)) newLayers.push({ quantity: layerQuantity, unit_cost: unitCost });
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
    await db.query('UPDATE inventory_cost_layers SET remaining_quantity = remaining_quantity - $3 WHERE entity_id = $1 AND id = $2', [
      entityId,
      draw.layer_id,
      draw.quantity.toString(),
    ]);
    await db.query(
      `INSERT INTO inventory_layer_draws (id, entity_id, transaction_id, layer_id, quantity, unit_cost, cost) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [newId(), entityId, transactionId, draw.layer_id, draw.quantity.toString(), draw.unit_cost.toString(), draw.cost.toString()],
    );
  }
  for (const layer of newLayers) {
    await db.query(
      `INSERT INTO inventory_cost_layers (id, entity_id, product_id, location_id, transaction_id, unit_cost, original_quantity, remaining_quantity, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
      [newId(), entityId, movement.product.id, movement.location_id, transactionId, layer.unit_cost.toString(), layer.quantity.toString(), occurredAt],
    );
  }

  const onHand = balance.on_hand.plus(quantity);
  const before = { low: balance.is_low, out: balance.is_out };
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
  const crossings = crossingEvents(before, after);
  if (crossings.length) {
    const current = await getBalance(db, entityId, balance.id);
    for (const type of crossings) await events.record(type, current);
  }
  return { transaction, draws, total_cost: totalCost };
}

/** After a product's reorder_point changes, every location balance is re-evaluated (and may cross). */
export async function refreshStockConditions(db: Db, entityId: string, productId: string, events: EventRecorder): Promise<void> {
  const rows = await db.query<{ id: string; on_hand: string; is_low: boolean; is_out: boolean; reorder_point: string | null }>(
    `SELECT b.id, b.on_hand, b.is_low, b.is_out, p.reorder_point FROM inventory_balances b
     JOIN products p ON p.entity_id = b.entity_id AND p.id = b.product_id
     WHERE b.entity_id = $1 AND b.product_id = $2 ORDER BY b.location_id FOR UPDATE OF b`,
    [entityId, productId],
  );
  for (const row of rows) {
    const after = stockCondition(row.on_hand, row.reorder_point);
    const crossings = crossingEvents({ low: row.is_low, out: row.is_out }, after);
    if (after.low === row.is_low && after.out === row.is_out) continue;
    await db.query('UPDATE inventory_balances SET is_low = $3, is_out = $4, updated_at = now() WHERE entity_id = $1 AND id = $2', [
      entityId,
      row.id,
      after.low,
      after.out,
    ]);
    if (crossings.length) {
      const current = await getBalance(db, entityId, row.id);
      for (const type of crossings) await events.record(type, current);
    }
  }
}

export async function getTransaction(db: Db, entityId: string, transactionId: string): Promise<InventoryTransaction> {
  const row = await db.maybeOne<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM inventory_transactions t WHERE t.entity_id = $1 AND t.id = $2`, [
    entityId,
    transactionId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such inventory transaction in this entity.' });
  return toTransaction(row);
}

export interface TransactionFilters {
  product_id?: string;
  location_id?: string;
  transaction_type?: TransactionType;
  reference_type?: string;
  reference_id?: string;
  group_id?: string;
}

export async function listTransactions(db: Db, entityId: string, filters: TransactionFilters, page: PageRequest): Promise<Page<InventoryTransaction>> {
  const where = ['t.entity_id = $1'];
  const params: unknown[] = [entityId];
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`t.${column} = $${params.length}`);
  }
  const result = await keysetPage<TransactionRow>(
    db,
    { table: 'inventory_transactions', alias: 't', select: TRANSACTION_COLUMNS, where, params },
    page);
  return { ...result, data: result.data.map(toTransaction) };
}

// ---------------------------------------------------------------------------------------------
// Balances

const BALANCE_COLUMNS = `b.id, 'inventory_balance' AS object, b.entity_id, b.product_id, b.location_id, p.sku, p.name AS product_name, b.on_hand,
  p.reorder_point, b.is_low, b.is_out, b.first_activity_at, b.created_at, b.updated_at,
  (SELECT coalesce(sum(l.remaining_quantity * l.unit_cost), 0) FROM inventory_cost_layers l
    WHERE l.entity_id = b.entity_id AND l.product_id = b.product_id AND l.location_id = b.location_id AND l.remaining_quantity > 0) AS inventory_value`;
const BALANCE_JOIN = 'JOIN products p ON p.entity_id = b.entity_id AND p.id = b.product_id';

interface BalanceRow {
  id: string;
  object: 'inventory_balance';
  entity_id: string;
  product_id: string;
  location_id: string;
  sku: string;
  product_name: string;
  on_hand: string;
  reorder_point: string | null;
  is_low: boolean;
  is_out: boolean;
  first_activity_at: string | Date;
  inventory_value: string;
  created_at: string;
  updated_at: string;
}

interface DemandRow {
  product_id: string;
  location_id: string;
  d30: string;
  d90: string;
  d180: string;
  d365: string;
}

/**
 * Demand of the balances on a page in one query: decrements by fulfilled sales and build_consume
 * draws (each physical decrement once, for the product it drew) per window.
 */
async function demandFor(db: Db, entityId: string, rows: BalanceRow[]): Promise<Map<string, DemandRow>> {
  if (rows.length === 0) return new Map();
  const windows = RUN_RATE_WINDOWS.map((days) => `coalesce(sum(-t.quantity) FILTER (WHERE t.occurred_at > now() - interval '${days} days'), 0) AS d${days}`);
  const result = await db.query<DemandRow>(
    `SELECT t.product_id, t.location_id, ${windows.join(', ')}
     FROM inventory_transactions t
     JOIN unnest($2::uuid[], $3::uuid[]) AS k(product_id, location_id) ON k.product_id = t.product_id AND k.location_id = t.location_id
     WHERE t.entity_id = $1 AND t.transaction_type = ANY($4::text[]) AND t.quantity < 0 AND t.occurred_at > now() - interval '365 days'
     GROUP BY t.product_id, t.location_id`,
    [entityId, rows.map((r) => r.product_id), rows.map((r) => r.location_id), basisTransactionTypes('sales_and_builds')],
  );
  return new Map(result.map((row) => [balanceKey(row.product_id, row.location_id), row]));
}

interface OpenQuantities {
  committed: string;
  on_order: string;
}

/**
 * Committed and on-order stock of the balances on a page in one query, by the one definition in
 * open-order-quantities.ts (unshipped sales lines, kit components not kit lines; unreceived
 * purchase order lines).
 */
async function openQuantitiesFor(db: Db, entityId: string, rows: BalanceRow[]): Promise<Map<string, OpenQuantities>> {
  if (rows.length === 0) return new Map();
  const result = await db.query<{ product_id: string; location_id: string } & OpenQuantities>(
    `SELECT q.product_id, q.location_id, q.committed, q.on_order
     FROM (${openOrderQuantitiesSql({ productIds: '$2' })}) q
     JOIN unnest($2::uuid[], $3::uuid[]) AS k(product_id, location_id) ON k.product_id = q.product_id AND k.location_id = q.location_id`,
    [entityId, rows.map((r) => r.product_id), rows.map((r) => r.location_id)],
  );
  return new Map(result.map((row) => [balanceKey(row.product_id, row.location_id), row]));
}

function toBalance(row: BalanceRow, demand: DemandRow | undefined, open: OpenQuantities | undefined, now: number): InventoryBalance {
  const units = { 30: demand?.d30 ?? '0', 90: demand?.d90 ?? '0', 180: demand?.d180 ?? '0', 365: demand?.d365 ?? '0' };
  const rates = { 30: runRate(units[30], 30), 90: runRate(units[90], 90), 180: runRate(units[180], 180), 365: runRate(units[365], 365) };
  const daysActive = (now - new Date(row.first_activity_at).getTime()) / 86_400_000;
  const committed = amount(open?.committed ?? '0');
  return {
    id: row.id,
    object: 'inventory_balance',
    entity_id: row.entity_id,
    product_id: row.product_id,
    location_id: row.location_id,
    sku: row.sku,
    product_name: row.product_name,
    on_hand: toJsonNumber(row.on_hand, QUANTITY_SCALE),
    committed: toJsonNumber(committed, QUANTITY_SCALE),
    available: toJsonNumber(amount(row.on_hand).minus(committed), QUANTITY_SCALE),
    on_order: toJsonNumber(open?.on_order ?? '0', QUANTITY_SCALE),
    reorder_point: row.reorder_point === null ? null : toJsonNumber(row.reorder_point, QUANTITY_SCALE),
    stock_status: stockStatus({ low: row.is_low, out: row.is_out }),
    inventory_value: toJsonNumber(row.inventory_value, COST_SCALE),
    demand_avg_per_day: toJsonNumber(averageDailyDemand(units[365], daysActive), QUANTITY_SCALE),
    // Versioning 3: committed-but-unshipped customer demand, the same units as committed.
    current_demand_units: toJsonNumber(committed, QUANTITY_SCALE),
    run_rate_30: toJsonNumber(rates[30], QUANTITY_SCALE),
    run_rate_90: toJsonNumber(rates[90], QUANTITY_SCALE),
    run_rate_180: toJsonNumber(rates[180], QUANTITY_SCALE),
    run_rate_365: toJsonNumber(rates[365], QUANTITY_SCALE),
    blended_daily: toJsonNumber(blendedDaily(rates), QUANTITY_SCALE),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function getBalance(db: Db, entityId: string, balanceId: string): Promise<InventoryBalance> {
  const row = await db.maybeOne<BalanceRow>(`SELECT ${BALANCE_COLUMNS} FROM inventory_balances b ${BALANCE_JOIN} WHERE b.entity_id = $1 AND b.id = $2`, [
    entityId,
    balanceId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such inventory balance in this entity.' });
  const demand = await demandFor(db, entityId, [row]);
  const open = await openQuantitiesFor(db, entityId, [row]);
  const key = balanceKey(row.product_id, row.location_id);
  return toBalance(row, demand.get(key), open.get(key), Date.now());
}

export interface BalanceFilters {
  product_id?: string;
  location_id?: string;
  stock_status?: 'in_stock' | 'low_stock' | 'out_of_stock';
}

export async function listBalances(db: Db, entityId: string, filters: BalanceFilters, page: PageRequest): Promise<Page<InventoryBalance>> {
  const where = ['b.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.product_id !== undefined) {
    params.push(filters.product_id);
    where.push(`b.product_id = $${params.length}`);
  }
  if (filters.location_id !== undefined) {
    params.push(filters.location_id);
    where.push(`b.location_id = $${params.length}`);
  }
  if (filters.stock_status === 'out_of_stock') where.push('b.is_out');
  if (filters.stock_status === 'low_stock') where.push('b.is_low AND NOT b.is_out');
  if (filters.stock_status === 'in_stock') where.push('NOT b.is_low AND NOT b.is_out');
  const result = await keysetPage<BalanceRow>(
    db,
    { table: 'inventory_balances', alias: 'b', joins: BALANCE_JOIN, select: BALANCE_COLUMNS, where, params },
    page);
  const demand = await demandFor(db, entityId, result.data);
  const open = await openQuantitiesFor(db, entityId, result.data);
  const now = Date.now();
  return {
    ...result,
    data: result.data.map((row) => {
      const key = balanceKey(row.product_id, row.location_id);
      return toBalance(row, demand.get(key), open.get(key), now);
    }),
  };
}

/**
 * On hand minus committed per product (at one location, or summed over all), for kit
 * availability; committed by the same definition as the balances'.
 */
export async function availableByProduct(db: Db, entityId: string, productIds: string[], locationId?: string): Promise<Map<string, Amount>> {
  const params: unknown[] = [entityId, productIds];
  if (locationId) params.push(locationId);
  const atLocation = (alias: string) => (locationId ? `AND ${alias}.location_id = $3` : '');
  const rows = await db.query<{ product_id: string; available: string }>(
    `WITH open_qty AS (${openOrderQuantitiesSql({ productIds: '$2' })})
     SELECT p.id AS product_id,
            coalesce((SELECT sum(b.on_hand) FROM inventory_balances b WHERE b.entity_id = $1 AND b.product_id = p.id ${atLocation('b')}), 0)
          - coalesce((SELECT sum(q.committed) FROM open_qty q WHERE q.product_id = p.id ${atLocation('q')}), 0) AS available
     FROM unnest($2::uuid[]) AS p(id)`,
    params,
  );
  return new Map(rows.map((row) => [row.product_id, amount(row.available)]));
}

// ---------------------------------------------------------------------------------------------
// Operations behind the inventory endpoints

function referenceOf(input: { reference_type?: string; reference_id?: string; source_migration?: boolean }) {
  if (input.source_migration) {
    if (input.reference_type !== undefined && input.reference_type !== 'source_migration') {
      throw new ApiError('parameter_invalid', { param: 'reference_type', hint: 'A migrated row (source_migration true) has reference_type source_migration.' });
    }
    return { reference_type: 'source_migration', reference_id: input.reference_id ?? null };
  }
  if (input.reference_id !== undefined && input.reference_type === undefined) {
    throw new ApiError('parameter_missing', { param: 'reference_type', hint: 'Say what reference_id points at.' });
  }
  return { reference_type: input.reference_type ?? null, reference_id: input.reference_id ?? null };
}

export async function receiveStock(db: Db, entityId: string, events: EventRecorder, input: ReceiptCreate): Promise<InventoryTransaction> {
  const product = await getStockProduct(db, entityId, input.product_id);
  await checkLocation(db, entityId, input.location_id);
  const unitCost = input.unit_cost ?? product.cost;
  if (unitCost === null || unitCost === undefined) {
    throw new ApiError('parameter_missing', { param: 'unit_cost', hint: 'The product has no cost; state the cost per unit received.' });
  }
  const balances = await lockBalances(db, entityId, [{ product_id: product.id, location_id: input.location_id }]);
  const posted = await postMovement(db, entityId, events, balances, {
    product,
    location_id: input.location_id,
    transaction_type: 'receive',
    quantity: input.quantity,
    unit_cost: unitCost,
    ...referenceOf(input),
    transaction_id: input.transaction_id,
    notes: input.notes,
    metadata: input.metadata,
    occurred_at: input.occurred_at,
  });
  return posted.transaction;
}

export async function adjustStock(db: Db, entityId: string, events: EventRecorder, input: AdjustmentCreate): Promise<InventoryTransaction> {
  const product = await getStockProduct(db, entityId, input.product_id);
  await checkLocation(db, entityId, input.location_id);
  if (input.unit_cost !== undefined && amount(input.quantity).isNegative()) {
    throw new ApiError('parameter_invalid', { param: 'unit_cost', hint: 'Stock removed is costed by FIFO; unit_cost applies to positive adjustments only.' });
  }
  const balances = await lockBalances(db, entityId, [{ product_id: product.id, location_id: input.location_id }]);
  const posted = await postMovement(db, entityId, events, balances, {
    product,
    location_id: input.location_id,
    transaction_type: 'adjust',
    quantity: input.quantity,
    unit_cost: input.unit_cost,
    allow_negative: input.allow_negative,
    ...referenceOf(input),
    transaction_id: input.transaction_id,
    reason: input.reason,
    notes: input.notes,
    metadata: input.metadata,
    occurred_at: input.occurred_at,
  });
  return posted.transaction;
}

export async function transferStock(db: Db, entityId: string, events: EventRecorder, input: TransferCreate) {
  if (input.from_location_id === input.to_location_id) {
    throw new ApiError('parameter_invalid', { param: 'to_location_id', hint: 'A transfer moves stock between two different locations.' });
  }
  const product = await getStockProduct(db, entityId, input.product_id);
  await checkLocation(db, entityId, input.from_location_id, 'from_location_id');
  await checkLocation(db, entityId, input.to_location_id, 'to_location_id');
  const groupId = newId();
  const balances = await lockBalances(db, entityId, [
    { product_id: product.id, location_id: input.from_location_id },
    { product_id: product.id, location_id: input.to_location_id },
  ]);
  const common = {
    product,
    transaction_type: 'transfer' as const,
    group_id: groupId,
    reference_type: 'transfer',
    reference_id: groupId,
    notes: input.notes,
    metadata: input.metadata,
  };
  const out = await postMovement(db, entityId, events, balances, {
    ...common,
    location_id: input.from_location_id,
    quantity: amount(input.quantity).negated(),
  });
  // The destination receives the very layers that left, so FIFO cost survives the move.
  const into = await postMovement(db, entityId, events, balances, {
    ...common,
    location_id: input.to_location_id,
    quantity: input.quantity,
    layers: out.draws.map((draw) => ({ quantity: draw.quantity, unit_cost: draw.unit_cost })),
  });
  return {
    id: groupId,
    object: 'inventory_transfer' as const,
    product_id: product.id,
    from_location_id: input.from_location_id,
    to_location_id: input.to_location_id,
    quantity: toJsonNumber(input.quantity, QUANTITY_SCALE),
    total_cost: toJsonNumber(out.total_cost.negated(), COST_SCALE),
    transactions: [out.transaction, into.transaction],
  };
}

export interface KitComponentStock {
  component_product_id: string;
  quantity_per_kit: string;
}

export async function buildKits(db: Db, entityId: string, events: EventRecorder, kitId: string, input: KitBuildCreate) {
  const kit = await db.maybeOne<StockProduct>(
    `SELECT id, product_type, uom_id, cost, reorder_point FROM products WHERE entity_id = $1 AND id = $2 AND product_type IN ('kit', 'bundle')`,
    [entityId, kitId],
  );
  if (!kit) throw new ApiError('not_found', { param: 'id', hint: 'No such kit in this entity.' });
  if (kit.product_type === 'bundle') {
    throw new ApiError('product_not_stockable', { param: 'id', hint: 'A bundle is never built: selling it draws its components.' });
  }
  await checkLocation(db, entityId, input.location_id);
  const components = await db.query<KitComponentStock & StockProduct>(
    `SELECT c.component_product_id, c.quantity_per_kit, p.id, p.product_type, p.uom_id, p.cost, p.reorder_point
     FROM kit_components c JOIN products p ON p.entity_id = c.entity_id AND p.id = c.component_product_id
     WHERE c.entity_id = $1 AND c.parent_product_id = $2 ORDER BY c.sequence, c.id`,
    [entityId, kitId],
  );
  const groupId = newId();
  const balances = await lockBalances(db, entityId, [
    ...components.map((c) => ({ product_id: c.component_product_id, location_id: input.location_id })),
    { product_id: kit.id, location_id: input.location_id },
  ]);
  const common = { group_id: groupId, reference_type: 'kit_build', reference_id: groupId, notes: input.notes, metadata: input.metadata };
  const transactions: InventoryTransaction[] = [];
  let cost = ZERO;
  for (const component of components) {
    const drawn = await postMovement(db, entityId, events, balances, {
      ...common,
      product: component,
      location_id: input.location_id,
      transaction_type: 'build_consume',
      quantity: amount(component.quantity_per_kit).times(input.quantity).negated(),
    });
    transactions.push(drawn.transaction);
    cost = cost.plus(drawn.total_cost.negated());
  }
  const produced = await postMovement(db, entityId, events, balances, {
    ...common,
    product: kit,
    location_id: input.location_id,
    transaction_type: 'build_produce',
    quantity: input.quantity,
    total_cost: cost,
  });
  transactions.push(produced.transaction);
  return {
    id: groupId,
    object: 'kit_build' as const,
    kit_product_id: kit.id,
    location_id: input.location_id,
    quantity: toJsonNumber(input.quantity, QUANTITY_SCALE),
    total_cost: toJsonNumber(cost, COST_SCALE),
    unit_cost: produced.transaction.unit_cost,
    transactions,
  };
}
