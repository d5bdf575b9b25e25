/**
 * The orders capability's part in the migration tools. Rolling back an import batch
 * (shared/migration/batch-rollback.ts): the batch's orders, their removal, and the orders-table
 * references that keep a record (a reference query selects (target, by_id) for the entity $1 and
 * the target ids $2). Relinking migrated stock movements (shared/migration/relink-sources.ts): which
 * sources are live orders.
 */
import type { Db } from '../db/database';

/** The number of orders an import batch holds, for each batch id `b.id` of the outer query (entity $1). */
export const IMPORTED_ORDERS_COUNT = 'SELECT count(*)::int FROM orders t WHERE t.entity_id = $1 AND t.migration_batch_id = b.id';

export const ORDER_REFERENCES = {
  /** An order of the batch that left draft. */
  notDraft: `SELECT id AS target, NULL::uuid AS by_id FROM orders WHERE entity_id = $1 AND id = ANY($2) AND order_status <> 'draft'`,
  /** Another document made from the order (converted, duplicated, returned); one of the batch goes with it. */
  madeFrom: `SELECT t.target, o.id AS by_id FROM orders o, LATERAL (VALUES (o.converted_from_id), (o.duplicated_from_id), (o.source_order_id)) AS t(target)
            WHERE o.entity_id = $1 AND t.target = ANY($2) AND NOT (o.id = ANY($2))`,
  /** Order lines of the product. */
  linesOfProducts: 'SELECT product_id AS target, order_id AS by_id FROM order_lines WHERE entity_id = $1 AND product_id = ANY($2)',
  /** Orders of the customer account. */
  ofAccounts: 'SELECT customer_account_id AS target, id AS by_id FROM orders WHERE entity_id = $1 AND customer_account_id = ANY($2)',
  /** Orders of the vendor. */
  ofVendors: 'SELECT vendor_id AS target, id AS by_id FROM orders WHERE entity_id = $1 AND vendor_id = ANY($2)',
  /** Order lines drop-shipped by the vendor. */
  dropShippedByVendors: 'SELECT drop_ship_vendor_id AS target, order_id AS by_id FROM order_lines WHERE entity_id = $1 AND drop_ship_vendor_id = ANY($2)',
} as const;

/** The batch's orders, locked, oldest first. */
export async function lockOrdersOfImportBatch(db: Db, entityId: string, batchId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM orders WHERE entity_id = $1 AND migration_batch_id = $2 ORDER BY created_at, id FOR UPDATE', [
    entityId,
    batchId,
  ]);
  return rows.map((row) => row.id);
}

/** Deletes imported orders (their lines go with them); a foreign key still pointing at one fails the statement. */
export async function deleteImportedOrders(db: Db, entityId: string, ids: string[]): Promise<void> {
  await db.query('DELETE FROM orders WHERE entity_id = $1 AND id = ANY($2)', [entityId, ids]);
}

/** Those of the ids that are live (not deleted) orders of the entity. */
export async function liveOrderIds(db: Db, entityId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>('SELECT id FROM orders WHERE entity_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL', [
    entityId,
    [...new Set(ids)],
  ]);
  return new Set(rows.map((row) => row.id));
}
