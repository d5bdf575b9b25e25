/**
 * Inventory valuation as of any date, from the FIFO cost layers (their value is kept in cents,
 * remaining_value): per product and location, the quantity on hand and the layers' value as they
 * stood at the end of the date (UTC), and the inventory account's balance then.
 *
 * A movement takes effect on its occurred_at (the date its entry is dated). The value on D is the
 * value of the layers received on or before D today, plus what the movements after D drew from
 * them (draws are kept with their cents); the quantity on hand is today's on_hand less the
 * movements after D. Both start from what is held today and take back only what moved since, so
 * a date a year back reads a year of movements, never the whole history. Every movement posts its
 * value change on its date (stock-postings.ts), so the total equals the inventory account.
 */
import type { Db } from '../db/database';
import { lineProducts } from '../catalog/product-facts';
import { debitBalanceThrough } from '../ledger/ledger-reads';
import { QUANTITY_SCALE, sum, toJsonNumber } from '../money';
import type { InventoryValuation } from './schemas/inventory-valuation';

/** The first moment after the as-of date ($2), in UTC. */
const END_OF_DATE = `(($2::date + 1)::timestamp AT TIME ZONE 'UTC')`;

interface ValuationRow {
  product_id: string;
  location_id: string;
  location_name: string;
  quantity: string;
  value: string;
}

const VALUATION_SQL = `
  WITH moved AS (
    SELECT t.id, t.product_id, t.location_id, t.quantity FROM inventory_transactions t
     WHERE t.entity_id = $1 AND t.occurred_at >= ${END_OF_DATE}
  ), quantities AS (
    SELECT b.product_id, b.location_id, b.on_hand - coalesce(m.quantity, 0) AS quantity
      FROM inventory_balances b
      LEFT JOIN (SELECT product_id, location_id, sum(quantity) AS quantity FROM moved GROUP BY product_id, location_id) m
        ON m.product_id = b.product_id AND m.location_id = b.location_id
     WHERE b.entity_id = $1
  ), layer_values AS (
    SELECT l.product_id, l.location_id, l.remaining_value AS value FROM inventory_cost_layers l
     WHERE l.entity_id = $1 AND l.remaining_quantity > 0 AND l.received_at < ${END_OF_DATE}
    UNION ALL
    SELECT l.product_id, l.location_id, d.value
      FROM moved m
      JOIN inventory_layer_draws d ON d.entity_id = $1 AND d.transaction_id = m.id
      JOIN inventory_cost_layers l ON l.entity_id = $1 AND l.id = d.layer_id
     WHERE l.received_at < ${END_OF_DATE}
  ), stock_values AS (
    SELECT product_id, location_id, sum(value) AS value FROM layer_values GROUP BY product_id, location_id
  )
  SELECT coalesce(q.product_id, v.product_id) AS product_id, coalesce(q.location_id, v.location_id) AS location_id, loc.name AS location_name,
         coalesce(q.quantity, 0) AS quantity, coalesce(v.value, 0) AS value
    FROM quantities q
    FULL JOIN stock_values v ON v.product_id = q.product_id AND v.location_id = q.location_id
    JOIN locations loc ON loc.entity_id = $1 AND loc.id = coalesce(q.location_id, v.location_id)
   WHERE coalesce(q.quantity, 0) <> 0 OR coalesce(v.value, 0) <> 0`;

export async function inventoryValuation(db: Db, entityId: string, asOfDate: string): Promise<Omit<InventoryValuation, 'livemode'>> {
  // A large entity's estimate passes jit_above_cost, and compiling costs more than this query runs.
  await db.query('SET LOCAL jit = off');
  const rows = await db.query<ValuationRow>(VALUATION_SQL, [entityId, asOfDate]);
  const products = new Map((await lineProducts(db, entityId, [...new Set(rows.map((row) => row.product_id))])).map((product) => [product.id, product]));
  const items = rows
    .map((row) => ({ row, product: products.get(row.product_id)! }))
    // By SKU, then location name and id.
    .sort(
      (a, b) =>
        (a.product.sku < b.product.sku ? -1 : a.product.sku > b.product.sku ? 1 : 0) ||
        (a.row.location_name < b.row.location_name ? -1 : a.row.location_name > b.row.location_name ? 1 : 0) ||
        (a.row.location_id < b.row.location_id ? -1 : 1),
    )
    .map(({ row, product }) => ({
      product_id: row.product_id,
      sku: product.sku,
      product_name: product.name,
      location_id: row.location_id,
      location_name: row.location_name,
      quantity_on_hand: toJsonNumber(row.quantity, QUANTITY_SCALE),
      value: toJsonNumber(row.value),
    }));
  return {
    object: 'inventory_valuation',
    as_of_date: asOfDate,
    items,
    totals: {
      quantity_on_hand: toJsonNumber(sum(rows.map((row) => row.quantity)), QUANTITY_SCALE),
      value: toJsonNumber(sum(rows.map((row) => row.value))),
    },
    inventory_account_balance: toJsonNumber(await debitBalanceThrough(db, entityId, 'inventory', asOfDate)),
  };
}
