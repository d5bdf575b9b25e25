/**
 * Inventory balances as clients read them: on hand per (product, location) with its stock value,
 * committed and on-order quantities, demand and run rates, each figure loaded for a whole page in
 * one query.
 */
import type { Db } from '../db/database';
import { averageDailyDemand, blendedDaily, basisTransactionTypes, runRate, RUN_RATE_WINDOWS } from '../catalog/demand';
import { stockStatus } from './stock-condition';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import type { OpenOrderQuantitiesSql } from './open-order-quantities';
import { amount, QUANTITY_SCALE, toJsonNumber, type Amount } from '../money';
import type { InventoryBalance } from './schemas/inventory';
import { productLabels } from '../catalog/product-facts';

/** Identifies a (product, location) balance in maps. */
export const balanceKey = (productId: string, locationId: string) => `${productId}:${locationId}`;

const BALANCE_COLUMNS = `b.id, 'inventory_balance' AS object, b.entity_id, b.product_id, b.location_id, b.on_hand, b.is_low, b.is_out, b.first_activity_at, b.created_at, b.updated_at,
  (SELECT coalesce(sum(l.remaining_value), 0) FROM inventory_cost_layers l
    WHERE l.entity_id = b.entity_id AND l.product_id = b.product_id AND l.location_id = b.location_id AND l.remaining_quantity > 0) AS inventory_value`;
/** A balance row, with its product's sku, name and reorder point from the catalog (productLabels). */
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
 * Committed and on-order stock of the balances on a page in one query, by the orders capability's
 * one definition (unshipped sales lines, kit components not kit lines; unreceived purchase order
 * lines), which the caller passes in.
 */
async function openQuantitiesFor(db: Db, entityId: string, rows: BalanceRow[], openQuantities: OpenOrderQuantitiesSql): Promise<Map<string, OpenQuantities>> {
  if (rows.length === 0) return new Map();
  const result = await db.query<{ product_id: string; location_id: string } & OpenQuantities>(
    `SELECT q.product_id, q.location_id, q.committed, q.on_order
     FROM (${openQuantities({ productIds: '$2' })}) q
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
    inventory_value: toJsonNumber(row.inventory_value),
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

/** Balance objects of rows, with their demand and open quantities loaded in one query each. */
async function toBalances(
  db: Db,
  entityId: string,
  stored: Omit<BalanceRow, 'sku' | 'product_name' | 'reorder_point'>[],
  openQuantities: OpenOrderQuantitiesSql,
): Promise<InventoryBalance[]> {
  const labels = await productLabels(
    db,
    entityId,
    stored.map((row) => row.product_id),
  );
  const rows: BalanceRow[] = stored.map((row) => {
    const label = labels.get(row.product_id)!;
    return { ...row, sku: label.sku, product_name: label.name, reorder_point: label.reorder_point };
  });
  const demand = await demandFor(db, entityId, rows);
  const open = await openQuantitiesFor(db, entityId, rows, openQuantities);
  const now = Date.now();
  return rows.map((row) => {
    const key = balanceKey(row.product_id, row.location_id);
    return toBalance(row, demand.get(key), open.get(key), now);
  });
}

export async function getBalance(db: Db, entityId: string, balanceId: string, openQuantities: OpenOrderQuantitiesSql): Promise<InventoryBalance> {
  const row = await db.maybeOne<BalanceRow>(`SELECT ${BALANCE_COLUMNS} FROM inventory_balances b WHERE b.entity_id = $1 AND b.id = $2`, [entityId, balanceId]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such inventory balance in this entity.' });
  return (await toBalances(db, entityId, [row], openQuantities))[0];
}

export interface BalanceFilters {
  product_id?: string;
  location_id?: string;
  stock_status?: 'in_stock' | 'low_stock' | 'out_of_stock';
}

export async function listBalances(
  db: Db,
  entityId: string,
  filters: BalanceFilters,
  page: PageRequest,
  openQuantities: OpenOrderQuantitiesSql,
): Promise<Page<InventoryBalance>> {
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
  const result = await keysetPage<BalanceRow>(db, { table: 'inventory_balances', alias: 'b', select: BALANCE_COLUMNS, where, params }, page);
  return { ...result, data: await toBalances(db, entityId, result.data, openQuantities) };
}

/**
 * On hand minus committed per product (at one location, or summed over all), for kit
 * availability; committed by the same definition as the balances'.
 */
export async function availableByProduct(
  db: Db,
  entityId: string,
  productIds: string[],
  openQuantities: OpenOrderQuantitiesSql,
  locationId?: string,
): Promise<Map<string, Amount>> {
  const params: unknown[] = [entityId, productIds];
  if (locationId) params.push(locationId);
  const atLocation = (alias: string) => (locationId ? `AND ${alias}.location_id = $3` : '');
  const rows = await db.query<{ product_id: string; available: string }>(
    `WITH open_qty AS (${openQuantities({ productIds: '$2' })})
     SELECT p.id AS product_id,
            coalesce((SELECT sum(b.on_hand) FROM inventory_balances b WHERE b.entity_id = $1 AND b.product_id = p.id ${atLocation('b')}), 0)
          - coalesce((SELECT sum(q.committed) FROM open_qty q WHERE q.product_id = p.id ${atLocation('q')}), 0) AS available
     FROM unnest($2::uuid[]) AS p(id)`,
    params,
  );
  return new Map(rows.map((row) => [row.product_id, amount(row.available)]));
}
