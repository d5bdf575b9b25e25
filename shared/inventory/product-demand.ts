/**
 * demand_avg_per_day of product and kit objects (2026-09-22 semantics), for a whole page of
 * products in one query.
 *
 * The product's value is the sum of its location balances' demand_avg_per_day: each balance is
 * computed by the same pure rule as on GET /v1/inventory/balances (averageDailyDemand: fulfilled
 * sales plus posted build_consume draws of the last 365 days, over the days since that balance's
 * first movement, at most 365 and at least 1), so a product always equals the sum of the balances
 * a client can list, and a location opened last month is not diluted by the year before it.
 * Demand is counted for the product that physically left stock: a kit sold from stock counts for
 * the kit, the components a build draws count for the components, never for their parent kit.
 */
import type { Db } from '../db/database';
import { averageDailyDemand, basisTransactionTypes } from '../catalog/demand';
import { sum, ZERO, type Amount } from '../money';

/** The balance window of demand_avg_per_day, in days (the same as the balance object's). */
const PRODUCT_DEMAND_WINDOW_DAYS = 365;

interface BalanceDemandRow {
  product_id: string;
  first_activity_at: string | Date;
  units: string;
}

/** Product id → demand_avg_per_day (4 decimals); products without stock history are 0. One query. */
export async function productDemand(db: Db, entityId: string, productIds: readonly string[], now = Date.now()): Promise<Map<string, Amount>> {
  const demand = new Map<string, Amount>(productIds.map((id) => [id, ZERO]));
  if (productIds.length === 0) return demand;
  const rows = await db.query<BalanceDemandRow>(
    `SELECT b.product_id, b.first_activity_at, coalesce(sum(-t.quantity), 0) AS units
     FROM inventory_balances b
     LEFT JOIN inventory_transactions t ON t.entity_id = b.entity_id AND t.product_id = b.product_id AND t.location_id = b.location_id
       AND t.transaction_type = ANY($3::text[]) AND t.quantity < 0 AND t.occurred_at > now() - make_interval(days => $4::int)
     WHERE b.entity_id = $1 AND b.product_id = ANY($2::uuid[])
     GROUP BY b.id, b.product_id, b.first_activity_at`,
    [entityId, [...new Set(productIds)], basisTransactionTypes('sales_and_builds'), PRODUCT_DEMAND_WINDOW_DAYS],
  );
  const perBalance = new Map<string, Amount[]>();
  for (const row of rows) {
    const daysActive = (now - new Date(row.first_activity_at).getTime()) / 86_400_000;
    const list = perBalance.get(row.product_id) ?? [];
    list.push(averageDailyDemand(row.units, daysActive));
    perBalance.set(row.product_id, list);
  }
  for (const [productId, rates] of perBalance) demand.set(productId, sum(rates));
  return demand;
}
