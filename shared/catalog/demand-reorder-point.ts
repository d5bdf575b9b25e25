/**
 * reorder_point_mode demand: the product's reorder point follows its demand, as the demand rules
 * move it. The point is the demand expected during the preferred vendor's lead time
 * (demand_avg_per_day × lead_time_days, 4 decimals; 0 without a preferred vendor or lead time),
 * the same figure the reorder report offers as suggested_reorder_point. It is stored on the
 * product, so the stock events, the balances and the reorder report read it as they read a
 * manual one; the server refreshes it on every stock movement of the product (the only moves
 * that change its demand) and when the mode is set. Manual products are never touched.
 */
import type { Db } from '../db/database';
import { amount, QUANTITY_SCALE, round, type Amount, type AmountLike } from '../money';

export const REORDER_POINT_MODES = ['manual', 'demand'] as const;

/** demand × lead time, rounded half away from zero to 4 decimals. */
export function demandReorderPoint(demandAvgPerDay: AmountLike, leadTimeDays: number | null): Amount {
  return round(amount(demandAvgPerDay).times(leadTimeDays ?? 0), QUANTITY_SCALE);
}

/** The reorder point a demand-mode product should have now (its demand and preferred vendor's lead time). */
async function currentDemandReorderPoint(db: Db, entityId: string, productId: string, demandAvgPerDay: AmountLike): Promise<Amount> {
  const vendor = await db.maybeOne<{ lead_time_days: number | null }>(
    'SELECT lead_time_days FROM product_vendors WHERE entity_id = $1 AND product_id = $2 AND is_preferred LIMIT 1',
    [entityId, productId],
  );
  return demandReorderPoint(demandAvgPerDay, vendor?.lead_time_days ?? null);
}

/**
 * Sets a demand-mode product's stored reorder_point to what its demand says; answers the new value
 * when it moved, null when it stood (or the product is manual). Server upkeep, not an edit:
 * updated_at and product.updated are left alone (the stock events carry what it causes).
 * `demandAvgPerDay` is the product's demand now: inventory, which owns the stock movements it is
 * derived from, computes it (productDemand) and hands it in.
 */
export async function syncDemandReorderPoint(db: Db, entityId: string, productId: string, demandAvgPerDay: AmountLike): Promise<string | null> {
  const point = await currentDemandReorderPoint(db, entityId, productId, demandAvgPerDay);
  const moved = await db.maybeOne<{ reorder_point: string }>(
    `UPDATE products SET reorder_point = $3
     WHERE entity_id = $1 AND id = $2 AND reorder_point_mode = 'demand' AND reorder_point IS DISTINCT FROM $3::numeric
     RETURNING reorder_point`,
    [entityId, productId, point.toString()],
  );
  return moved?.reorder_point ?? null;
}
