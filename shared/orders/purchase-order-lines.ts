/**
 * The orders capability's named queries and writes for payables: a purchase order and its lines as
 * bills and vendor returns need them, and the billed quantity of its lines. Payables reaches the
 * orders tables only through these (docs/architecture.md, "Who owns a table").
 *
 * Locks follow the order every purchase order operation takes them in (receipts included): the
 * order row first, then its lines in their sort order.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';

export interface PurchaseOrderHead {
  id: string;
  vendor_id: string | null;
  order_number: string;
  location_id: string | null;
  is_archived: boolean;
}

export interface PurchaseOrderLine {
  id: string;
  order_id: string;
  product_id: string;
  quantity_fulfilled: string;
  billed_quantity: string;
  unit_cost: string | null;
  sell_rate: string;
  received_cost: string;
  drop_ship_source_line_id: string | null;
}

/** The live purchase order, locked FOR UPDATE (else 404 on `param`). */
export async function lockPurchaseOrderHead(db: Db, entityId: string, poId: string, param: string): Promise<PurchaseOrderHead> {
  const po = await db.maybeOne<PurchaseOrderHead>(
    `SELECT id, vendor_id, order_number, location_id, is_archived FROM orders
      WHERE entity_id = $1 AND id = $2 AND document_type = 'purchase_order' AND deleted_at IS NULL FOR UPDATE`,
    [entityId, poId],
  );
  if (!po) throw new ApiError('not_found', { param, hint: 'No such purchase order in this entity.' });
  return po;
}

/** The lines of a purchase order in their sort order; `lock` takes them FOR UPDATE (after the order row). */
export function purchaseOrderLines(db: Db, entityId: string, poId: string, options: { lock: boolean }): Promise<PurchaseOrderLine[]> {
  return db.query<PurchaseOrderLine>(
    `SELECT l.id, l.order_id, l.product_id, l.quantity_fulfilled, l.billed_quantity, l.unit_cost, l.sell_rate, l.received_cost, l.drop_ship_source_line_id
       FROM order_lines l
      WHERE l.entity_id = $1 AND l.order_id = $2 ORDER BY l.sort_order, l.created_at, l.id ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, poId],
  );
}

/** The purchase order a line belongs to (404 on `param` when the line is no purchase order line of the entity). */
export async function purchaseOrderOfLine(db: Db, entityId: string, poLineId: string, param: string): Promise<string> {
  const row = await db.maybeOne<{ order_id: string }>(
    `SELECT l.order_id FROM order_lines l JOIN orders o ON o.entity_id = l.entity_id AND o.id = l.order_id
      WHERE l.entity_id = $1 AND l.id = $2 AND o.document_type = 'purchase_order' AND o.deleted_at IS NULL`,
    [entityId, poLineId],
  );
  if (!row) throw new ApiError('not_found', { param, hint: 'No such purchase order line in this entity.' });
  return row.order_id;
}

/** Adds `delta` units (negative to give them back) to purchase order lines' billed_quantity. */
export async function addBilledQuantities(db: Db, entityId: string, deltas: { po_line_id: string; quantity: string }[]): Promise<void> {
  if (deltas.length === 0) return;
  await db.query(
    `UPDATE order_lines l SET billed_quantity = l.billed_quantity + v.q, updated_at = now()
       FROM (SELECT id, sum(q) AS q FROM unnest($2::uuid[], $3::numeric[]) AS u(id, q) GROUP BY id) v
      WHERE l.entity_id = $1 AND l.id = v.id`,
    [entityId, deltas.map((delta) => delta.po_line_id), deltas.map((delta) => delta.quantity)],
  );
}

/** Order id → order_number, for orders of the entity among `orderIds` (deleted ones too). */
export async function orderNumbers(db: Db, entityId: string, orderIds: readonly string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.query<{ id: string; order_number: string }>('SELECT id, order_number FROM orders WHERE entity_id = $1 AND id = ANY($2::uuid[])', [
    entityId,
    [...new Set(orderIds)],
  ]);
  return new Map(rows.map((row) => [row.id, row.order_number]));
}

/** Line id → quantity_fulfilled (on a purchase order line: the units received). */
export async function fulfilledQuantities(db: Db, entityId: string, lineIds: readonly string[]): Promise<Map<string, string>> {
  if (lineIds.length === 0) return new Map();
  const rows = await db.query<{ id: string; quantity_fulfilled: string }>(
    'SELECT id, quantity_fulfilled FROM order_lines WHERE entity_id = $1 AND id = ANY($2::uuid[])',
    [entityId, [...new Set(lineIds)]],
  );
  return new Map(rows.map((row) => [row.id, row.quantity_fulfilled]));
}
