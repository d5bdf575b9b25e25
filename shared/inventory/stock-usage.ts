/** Whether stock history uses a product or a unit of measure: what the catalog's deletions ask inventory. */
import type { Db } from '../db/database';

/** The product has an inventory transaction (any type, any location). */
export async function productHasTransactions(db: Db, entityId: string, productId: string): Promise<boolean> {
  const found = await db.maybeOne('SELECT 1 FROM inventory_transactions WHERE entity_id = $1 AND product_id = $2 LIMIT 1', [entityId, productId]);
  return found !== undefined;
}

/** An inventory transaction was recorded in the unit. */
export async function unitHasTransactions(db: Db, entityId: string, uomId: string): Promise<boolean> {
  const found = await db.maybeOne('SELECT 1 FROM inventory_transactions WHERE entity_id = $1 AND uom_id = $2 LIMIT 1', [entityId, uomId]);
  return found !== undefined;
}
