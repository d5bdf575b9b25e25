/**
 * Fulfillment progress after an E5 line edit: lowering an open order's line to what was already
 * shipped or received (or deleting its last open line) completes the order, and raising a line
 * reopens the remainder, exactly as a fulfillment or receipt would move it.
 */
import type { Db } from '../db/database';
import { fulfillmentProgress } from './lifecycle-rules';

/** Statuses fulfillmentProgress() governs; held, draft and closed documents keep theirs. */
const PROGRESSING = ['confirmed', 'partially_fulfilled'];

/** Recomputes order_status and fulfillment_status of an open order from its lines (kit component lines excluded). */
export async function refreshFulfillmentProgress(db: Db, entityId: string, order: { id: string; order_status: string }): Promise<void> {
  if (!PROGRESSING.includes(order.order_status)) return;
  const lines = await db.query<{ quantity: string; quantity_fulfilled: string }>(
    'SELECT quantity, quantity_fulfilled FROM order_lines WHERE entity_id = $1 AND order_id = $2 AND kit_parent_line_id IS NULL',
    [entityId, order.id],
  );
  const progress = fulfillmentProgress(lines);
  await db.query(
    `UPDATE orders SET order_status = $3, fulfillment_status = $4 WHERE entity_id = $1 AND id = $2
       AND (order_status IS DISTINCT FROM $3 OR fulfillment_status IS DISTINCT FROM $4)`,
    [entityId, order.id, progress.order_status, progress.fulfillment_status],
  );
}
