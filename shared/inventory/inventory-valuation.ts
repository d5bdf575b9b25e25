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
 *
 * The items come in pages on the keyset (product_id, location_id), the valued rows' own key, so a
 * page is cut in SQL without reading the catalog; the totals are summed in the same statement over
 * every row, so each page carries the whole date's totals. A cursor names its entity and mode
 * beside the key, and is opaque to clients (base64url).
 */
import * as z from 'zod/mini';
import type { KeyMode } from '../auth/api-key-format';
import type { Db } from '../db/database';
import { lineProducts } from '../catalog/product-facts';
import { ApiError } from '../errors';
import { debitBalanceThrough } from '../ledger/ledger-reads';
import { QUANTITY_SCALE, toJsonNumber } from '../money';
import type { InventoryValuation } from './schemas/inventory-valuation';

/** The first moment after the as-of date ($2), in UTC. */
const END_OF_DATE = `(($2::date + 1)::timestamp AT TIME ZONE 'UTC')`;

export interface InventoryValuationRequest {
  as_of_date: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

interface ValuationRow {
  product_id: string | null;
  location_id: string | null;
  location_name: string | null;
  quantity: string | null;
  value: string | null;
  total_quantity: string;
  total_value: string;
}

/**
 * Every (product, location) with stock or value on the date ($2) is `valued`; the page is cut from
 * it after ($3, $4) (or before, paging backwards), and the totals sum all of it. One row per page
 * item, each carrying the totals, or a single row of totals alone when the page is empty.
 */
const valuationSql = (backwards: boolean) => `
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
  ), valued AS MATERIALIZED (
    SELECT coalesce(q.product_id, v.product_id) AS product_id, coalesce(q.location_id, v.location_id) AS location_id,
           coalesce(q.quantity, 0) AS quantity, coalesce(v.value, 0) AS value
      FROM quantities q
      FULL JOIN stock_values v ON v.product_id = q.product_id AND v.location_id = q.location_id
     WHERE coalesce(q.quantity, 0) <> 0 OR coalesce(v.value, 0) <> 0
  ), totals AS (
    SELECT coalesce(sum(quantity), 0) AS quantity, coalesce(sum(value), 0) AS value FROM valued
  ), page AS (
    SELECT * FROM valued
     WHERE $3::uuid IS NULL OR (product_id, location_id) ${backwards ? '<' : '>'} ($3::uuid, $4::uuid)
     ORDER BY product_id ${backwards ? 'DESC' : 'ASC'}, location_id ${backwards ? 'DESC' : 'ASC'}
     LIMIT $5
  )
  SELECT p.product_id, p.location_id, loc.name AS location_name, p.quantity, p.value, t.quantity AS total_quantity, t.value AS total_value
    FROM totals t
    LEFT JOIN page p ON true
    LEFT JOIN locations loc ON loc.entity_id = $1 AND loc.id = p.location_id
   ORDER BY p.product_id, p.location_id`;

/** The cursor's content: whose report it pages, and the key of the row it follows (or precedes). */
const Cursor = z.tuple([z.string(), z.string(), z.uuid(), z.uuid()]);

function encodeCursor(entityId: string, mode: KeyMode, row: { product_id: string; location_id: string }): string {
  return Buffer.from(JSON.stringify([entityId, mode, row.product_id, row.location_id])).toString('base64url');
}

/** The cursor's (product_id, location_id), if it is a cursor of this entity's valuation in this mode; else a 400 on `param`. */
function decodeCursor(cursor: string, entityId: string, mode: KeyMode, param: string): { productId: string; locationId: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const key = Cursor.safeParse(parsed);
  if (!key.success || key.data[0] !== entityId || key.data[1] !== mode) {
    throw new ApiError('parameter_invalid', { param, hint: "The cursor is not a next_cursor of this entity's inventory valuation." });
  }
  return { productId: key.data[2].toLowerCase(), locationId: key.data[3].toLowerCase() };
}

export async function inventoryValuation(
  db: Db,
  caller: { entityId: string; mode: KeyMode },
  request: InventoryValuationRequest,
): Promise<Omit<InventoryValuation, 'livemode'>> {
  const { entityId, mode } = caller;
  if (request.starting_after && request.ending_before) {
    throw new ApiError('parameter_invalid', { param: 'ending_before', hint: 'Pass starting_after or ending_before, not both.' });
  }
  const backwards = request.ending_before !== undefined;
  const cursor =
    request.ending_before !== undefined
      ? decodeCursor(request.ending_before, entityId, mode, 'ending_before')
      : request.starting_after !== undefined
        ? decodeCursor(request.starting_after, entityId, mode, 'starting_after')
        : null;
  // A large entity's estimate passes jit_above_cost, and compiling costs more than this query runs.
  await db.query('SET LOCAL jit = off');
  const rows = await db.query<ValuationRow>(valuationSql(backwards), [
    entityId,
    request.as_of_date,
    cursor?.productId ?? null,
    cursor?.locationId ?? null,
    request.limit + 1,
  ]);
  const totals = rows[0];
  const valued = rows.filter((row): row is ValuationRow & { product_id: string; location_id: string } => row.product_id !== null);
  const hasMore = valued.length > request.limit;
  // Rows come in key order; paging backwards, the extra row is the first one.
  const page = hasMore ? (backwards ? valued.slice(1) : valued.slice(0, request.limit)) : valued;
  const products = new Map((await lineProducts(db, entityId, [...new Set(page.map((row) => row.product_id))])).map((product) => [product.id, product]));
  const items = page.map((row) => {
    const product = products.get(row.product_id)!;
    return {
      product_id: row.product_id,
      sku: product.sku,
      product_name: product.name,
      location_id: row.location_id,
      location_name: row.location_name!,
      quantity_on_hand: toJsonNumber(row.quantity!, QUANTITY_SCALE),
      value: toJsonNumber(row.value!),
    };
  });
  const edge = backwards ? page[0] : page.at(-1);
  return {
    object: 'inventory_valuation',
    as_of_date: request.as_of_date,
    items,
    has_more: hasMore,
    next_cursor: hasMore && edge ? encodeCursor(entityId, mode, edge) : null,
    totals: {
      quantity_on_hand: toJsonNumber(totals.total_quantity, QUANTITY_SCALE),
      value: toJsonNumber(totals.total_value),
    },
    inventory_account_balance: toJsonNumber(await debitBalanceThrough(db, entityId, 'inventory', request.as_of_date)),
  };
}
