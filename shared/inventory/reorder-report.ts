/**
 * The reorder report: stock, demand and the preferred vendor's terms of a page of stocked products
 * in one query; the suggestion arithmetic is the pure rule in reorder.ts.
 */
import type { Db } from '../db/database';
import { basisTransactionTypes, runRate, type DemandBasis } from '../catalog/demand';
import { suggestReorder } from './reorder';
import { ApiError } from '../errors';
import { amount, PRICE_SCALE, QUANTITY_SCALE, toJsonNumber } from '../money';
import type { ReorderRow } from './schemas/reorder-report';
import type { OpenOrderQuantitiesSql } from './open-order-quantities';
import { checkLocation } from './locations';
import { productLabels, productSkuKeySql, PRODUCTS_WITH_PREFERRED_VENDOR_SQL } from '../catalog/product-facts';
import { vendorNameSql } from '../parties/parties';

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

export async function reorderReport(db: Db, entityId: string, options: ReorderReportOptions, openQuantities: OpenOrderQuantitiesSql) {
  const params: unknown[] = [entityId, basisTransactionTypes(options.demand_basis), options.demand_window];
  let locationParam: string | undefined;
  if (options.location_id) {
    await checkLocation(db, entityId, options.location_id);
    params.push(options.location_id);
    locationParam = `$${params.length}`;
  }
  const atLocation = (alias: string) => (locationParam ? `AND ${alias}.location_id = ${locationParam}` : '');
  // A page walks the products in SKU order from its cursor (products_sku_unique on sku_key, the
  // stored lower(sku): a condition on lower() itself could not enter the index ahead of the tenant
  // policy, lower() not being leakproof, and every page would read from the first SKU) and computes
  // each one's stock, demand and open quantities with index lookups of that product only (LATERAL):
  // a page costs its own products, not the whole catalog, and reading every page costs about one
  // report plus a request's fixed cost per page. Demand reads only the window's transactions
  // (inventory_transactions_demand: entity, product, occurred_at, an index-only scan); nothing is
  // sorted or hashed in bulk, so it stays in memory at the default work_mem.
  // The "needs stock" predicate is the domain rule's inequality (target_level > inventory position,
  // daily demand rounded half away from zero to 4 decimals, exactly as runRate does) in numeric
  // arithmetic; the numbers of each row are then computed by the domain rule itself.
  const needs = `coalesce(p.reorder_point, 0) + round(d.units / $3::int, 4) * coalesce(pv.lead_time_days, 0)
                 > s.on_hand - coalesce(o.committed, 0) + coalesce(o.on_order, 0)`;
  const where = ['p.entity_id = $1', `p.product_type IN ('simple', 'kit')`, 'p.is_active'];
  if (options.vendor_id) {
    params.push(options.vendor_id);
    where.push(`pv.vendor_id = $${params.length}`);
  }
  if (!options.include_all) where.push(`(${needs})`);
  if (options.starting_after) {
    params.push(options.starting_after);
    // sku_key is unique per entity (products_sku_unique): the cursor's SKU alone places the page.
    // An unknown cursor selects nothing (NULL), and is told apart from a last page below.
    where.push(`p.sku_key > ${productSkuKeySql(`$${params.length}`)}`);
  }
  params.push(options.limit + 1);
  const rows = await db.query<Row>(
    `SELECT p.id AS product_id, p.sku, p.name AS product_name, p.reorder_point,
            s.on_hand, coalesce(o.committed, 0) AS committed,
            coalesce(o.on_order, 0) AS on_order, d.units AS demand_units,
            pv.vendor_id AS preferred_vendor_id, ${vendorNameSql('pv.vendor_id')} AS preferred_vendor_name, pv.id AS product_vendor_id, pv.lead_time_days,
            pv.order_multiple, pv.minimum_order_quantity, pv.vendor_cost
     FROM ${PRODUCTS_WITH_PREFERRED_VENDOR_SQL}
     CROSS JOIN LATERAL (
       SELECT coalesce(sum(b.on_hand), 0) AS on_hand FROM inventory_balances b
       WHERE b.entity_id = $1 AND b.product_id = p.id ${atLocation('b')}
     ) s
     CROSS JOIN LATERAL (
       SELECT coalesce(sum(-t.quantity), 0) AS units FROM inventory_transactions t
       WHERE t.entity_id = $1 AND t.product_id = p.id AND t.occurred_at > now() - make_interval(days => $3::int)
         AND t.transaction_type = ANY($2::text[]) AND t.quantity < 0 ${atLocation('t')}
     ) d
     LEFT JOIN LATERAL (
       ${openQuantities({ perProduct: true, productColumn: 'p.id', locationId: locationParam })}
     ) o ON true
     WHERE ${where.join(' AND ')}
     ORDER BY p.sku_key
     LIMIT $${params.length}`,
    params,
  );
  // Checked only when nothing came back: a page of rows proves the cursor (one round trip less per page).
  if (options.starting_after && rows.length === 0) {
    const cursor = await productLabels(db, entityId, [options.starting_after]);
    if (cursor.size === 0) throw new ApiError('parameter_invalid', { param: 'starting_after', hint: 'The cursor is not a product_id of this report.' });
  }
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
