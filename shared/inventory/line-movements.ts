/**
 * Inventory's named queries about the stock movements of one document line, for the orders
 * capability (a return puts goods back at the cost they left at): the draws of a shipped line and
 * the units returns already put back.
 */
import type { Db } from '../db/database';

export interface SaleDrawRow {
  /** The sale_fulfillment transaction, its (negative) quantity and total cost. */
  id: string;
  quantity: string;
  total_cost: string;
  /** One of its layer draws (null when the transaction drew none). */
  draw_quantity: string | null;
  draw_unit_cost: string | null;
  draw_cost: string | null;
}

/** The sale_fulfillment transactions of a line with their layer draws, in the order the units left. */
export function saleDrawsOfLine(db: Db, entityId: string, lineId: string): Promise<SaleDrawRow[]> {
  return db.query<SaleDrawRow>(
    `SELECT t.id, t.quantity, t.total_cost, d.quantity AS draw_quantity, d.unit_cost AS draw_unit_cost, d.cost AS draw_cost
     FROM inventory_transactions t LEFT JOIN inventory_layer_draws d ON d.entity_id = t.entity_id AND d.transaction_id = t.id
     WHERE t.entity_id = $1 AND t.transaction_type = 'sale_fulfillment' AND t.reference_type = 'order' AND t.metadata->>'line_id' = $2
     ORDER BY t.occurred_at, t.created_at, t.id, d.id`,
    [entityId, lineId],
  );
}

/** The units return transactions have put back for a shipped line. */
export async function returnedUnitsOfLine(db: Db, entityId: string, goodsLineId: string): Promise<string> {
  const row = await db.one<{ quantity: string }>(
    `SELECT coalesce(sum(quantity), 0) AS quantity FROM inventory_transactions
     WHERE entity_id = $1 AND transaction_type = 'return' AND reference_type = 'order' AND metadata->>'goods_line_id' = $2`,
    [entityId, goodsLineId],
  );
  return row.quantity;
}
