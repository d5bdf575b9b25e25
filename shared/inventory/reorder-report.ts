/**
 * The reorder report: stock, demand and the preferred vendor's terms of every stocked product in
 * one aggregate query; the suggestion arithmetic is the pure rule in reorder.ts.
 */
import type { Db } from '../db/database';
import { basisTransactionTypes, runRate, type DemandBasis } from '../catalog/demand';
import { suggestReorder } from './reorder';
import { ApiError } from '../errors';
import { amount, QUANTITY_SCALE, toJsonNumber } from '../money';
import { PRICE_SCALE } from '../catalog/schemas/product';
import type { ReorderRow } from './schemas/reorder-report';
import { openOrderQuantitiesSql } from './open-order-quantities';
import { checkLocation } from './locations';

export interface ReorderReportOptions {
  demand_window: number;
  demand_basis: DemandBasis;
  location_id?: string;
  vendor_id?: string;
  include_all?: boolean;
  limit: number;
  starting_after?: string;
}

interface Row {
  product_id: string;
  sku: string;
  product_name: string;
  reorder_point: string | null;
  on_hand: string;
  committed: string;
  on_order: string;
  demand_units: string;
  preferred_vendor_id: string | null;
  preferred_vendor_name: string | null;
  product_vendor_id: string | null;
  lead_time_days: number | null;
  order_multiple: string | null;
  minimum_order_quantity: string | null;
  vendor_cost: string | null;
}

export async function reorderReport(db: Db, entityId: string, options: ReorderReportOptions) {
  const params: unknown[] = [entityId, basisTransactionTypes(options.demand_basis), options.demand_window];
  let locationFilter = '';
  let locationParam: string | undefined;
  if (options.location_id) {
    await checkLocation(db, entityId, options.location_id);
    params.push(options.location_id);
    locationParam = `$${params.length}`;
    locationFilter = `AND location_id = ${locationParam}`;
  }
  // The page is chosen in SQL so the report costs one aggregate query whatever the catalog size.
  // The "needs stock" predicate is the domain rule's inequality (target_level > inventory position,
  // daily demand rounded half away from zero to 4 decimals, exactly as runRate does) in numeric
  // arithmetic; the numbers of each row are then computed by the domain rule itself.
  const needs = `coalesce(p.reorder_point, 0) + round(coalesce(d.units, 0) / $3::int, 4) * coalesce(pv.lead_time_days, 0)
                 > coalesce(s.on_hand, 0) - coalesce(o.committed, 0) + coalesce(o.on_order, 0)`;
  const where = ['p.entity_id = $1', `p.product_type IN ('simple', 'kit')`, 'p.is_active'];
  if (options.vendor_id) {
    params.push(options.vendor_id);
    where.push(`pv.vendor_id = $${params.length}`);
  }
  if (!options.include_all) where.push(`(${needs})`);
  if (options.starting_after) {
    const cursor = await db.maybeOne('SELECT 1 FROM products WHERE entity_id = $1 AND id = $2', [entityId, options.starting_after]);
    if (!cursor) throw new ApiError('parameter_invalid', { param: 'starting_after', hint: 'The cursor is not a product_id of this report.' });
    params.push(options.starting_after);
    where.push(`(lower(p.sku), p.id) > (SELECT lower(c.sku), c.id FROM products c WHERE c.entity_id = $1 AND c.id = $${params.length})`);
  }
  params.push(options.limit + 1);
  const rows = await db.query<Row>(
    `WITH stock AS (
       SELECT product_id, sum(on_hand) AS on_hand FROM inventory_balances
       WHERE entity_id = $1 ${locationFilter} GROUP BY product_id
     ), open_qty AS MATERIALIZED (
       ${openOrderQuantitiesSql({ perProduct: true, locationId: locationParam })}
     ), demand AS (
       SELECT product_id, sum(-quantity) AS units FROM inventory_transactions
       WHERE entity_id = $1 AND transaction_type = ANY($2::text[]) AND quantity < 0 AND occurred_at > now() - make_interval(days => $3::int) ${locationFilter}
       GROUP BY product_id
     )
     SELECT p.id AS product_id, p.sku, p.name AS product_name, p.reorder_point,
            coalesce(s.on_hand, 0) AS on_hand, coalesce(o.committed, 0) AS committed,
            coalesce(o.on_order, 0) AS on_order, coalesce(d.units, 0) AS demand_units,
            pv.vendor_id AS preferred_vendor_id, v.name AS preferred_vendor_name, pv.id AS product_vendor_id, pv.lead_time_days,
            pv.order_multiple, pv.minimum_order_quantity, pv.vendor_cost
     FROM products p
     LEFT JOIN stock s ON s.product_id = p.id
     LEFT JOIN open_qty o ON o.product_id = p.id
     LEFT JOIN demand d ON d.product_id = p.id
     LEFT JOIN product_vendors pv ON pv.entity_id = p.entity_id AND pv.product_id = p.id AND pv.is_preferred
     LEFT JOIN vendors v ON v.entity_id = pv.entity_id AND v.id = pv.vendor_id
     WHERE ${where.join(' AND ')}
     ORDER BY lower(p.sku), p.id
     LIMIT $${params.length}`,
    params,
  );
  const report: ReorderRow[] = [];
  for (const row of rows.slice(0, options.limit)) {
    const daily = runRate(row.demand_units, options.demand_window);
    const suggestion = suggestReorder({
      on_hand: row.on_hand,
      committed: row.committed,
      on_order: row.on_order,
      reorder_point: row.reorder_point,
      daily_demand: daily,
      lead_time_days: row.lead_time_days,
      order_multiple: row.order_multiple,
      minimum_order_quantity: row.minimum_order_quantity,
    });
    // The SQL predicate and the rule agree; a row the rule says needs nothing is never shown as a need.
    if (!options.include_all && suggestion.net_suggested_qty.lte(0)) continue;
    report.push({
      product_id: row.product_id,
      sku: row.sku,
      product_name: row.product_name,
      on_hand: toJsonNumber(row.on_hand, QUANTITY_SCALE),
      committed: toJsonNumber(row.committed, QUANTITY_SCALE),
      available: toJsonNumber(amount(row.on_hand).minus(row.committed), QUANTITY_SCALE),
      on_order: toJsonNumber(row.on_order, QUANTITY_SCALE),
      reorder_point: row.reorder_point === null ? null : toJsonNumber(row.reorder_point, QUANTITY_SCALE),
      demand_units: toJsonNumber(row.demand_units, QUANTITY_SCALE),
      daily_demand: toJsonNumber(daily, QUANTITY_SCALE),
      lead_time_days: row.lead_time_days,
      suggested_reorder_point: toJsonNumber(suggestion.suggested_reorder_point, QUANTITY_SCALE),
      target_level: toJsonNumber(suggestion.target_level, QUANTITY_SCALE),
      suggested_qty: toJsonNumber(suggestion.suggested_qty, QUANTITY_SCALE),
      net_suggested_qty: toJsonNumber(suggestion.net_suggested_qty, QUANTITY_SCALE),
      order_multiple: row.order_multiple === null ? null : toJsonNumber(row.order_multiple, QUANTITY_SCALE),
      preferred_vendor_id: row.preferred_vendor_id,
      preferred_vendor_name: row.preferred_vendor_name,
      product_vendor_id: row.product_vendor_id,
      vendor_cost: row.vendor_cost === null ? null : toJsonNumber(row.vendor_cost, PRICE_SCALE),
      estimated_cost: row.vendor_cost === null ? null : toJsonNumber(suggestion.net_suggested_qty.times(row.vendor_cost)),
    });
  }
  const hasMore = rows.length > options.limit;
  const data = report.slice(0, options.limit);
  return {
    object: 'reorder_report' as const,
    demand_window: options.demand_window,
    demand_basis: options.demand_basis,
    location_id: options.location_id ?? null,
    generated_at: new Date().toISOString(),
    data,
    has_more: hasMore,
    next_cursor: hasMore ? rows[options.limit - 1].product_id : null,
  };
}
