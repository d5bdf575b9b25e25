/**
 * SQL of order lines and their adjustment shares (line_adjustments): reads and writes that return
 * rows (the wire shapes are built in order-mapping.ts). New lines are inserted by order-line-insert.ts.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { newId, UUID_PATTERN } from '../ids';
import { kitComponentsOf } from '../catalog/product-facts';

/** A line's columns as the answer shows them (alias l). */
export const LINE_COLUMNS = `l.id, 'order_line_item' AS object, l.entity_id, l.order_id, l.product_id, l.variant_id, l.product_vendor_id, l.kit_parent_line_id,
  l.sku, l.title, l.quantity, l.quantity_fulfilled, l.quantity_returned, l.received_floor, l.billed_quantity, l.sell_rate, l.list_price, l.pricing_rule_adjustment,
  l.coupon_adjustment, l.discount_amount, l.discount_percent, l.line_subtotal, l.tax_rate_id, l.tax_rate, l.tax_amount, l.line_total, l.unit_cost,
  l.weight, l.is_tax_exempt, l.product_tax_code, l.is_drop_ship, l.drop_ship_vendor_id, l.drop_ship_po_id, l.notes, l.sort_order,
  l.price_overridden, l.unit_of_measure_id, l.created_at, l.updated_at`;

export interface LineRow {
  id: string;
  entity_id: string;
  order_id: string;
  product_id: string;
  variant_id: string | null;
  product_vendor_id: string | null;
  kit_parent_line_id: string | null;
  sku: string;
  title: string;
  quantity: string;
  quantity_fulfilled: string;
  quantity_returned: string;
  received_floor: string;
  billed_quantity: string;
  sell_rate: string;
  list_price: string;
  pricing_rule_adjustment: string;
  coupon_adjustment: string;
  discount_amount: string;
  discount_percent: string | null;
  line_subtotal: string;
  tax_rate_id: string | null;
  tax_rate: string | null;
  tax_amount: string;
  line_total: string;
  unit_cost: string | null;
  weight: string | null;
  is_tax_exempt: boolean;
  product_tax_code: string | null;
  is_drop_ship: boolean;
  drop_ship_vendor_id: string | null;
  drop_ship_po_id: string | null;
  notes: string | null;
  sort_order: number;
  price_overridden: boolean;
  unit_of_measure_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A line's share of an order-level adjustment or coupon. */
export interface LineAdjustmentRow {
  id: string;
  line_id: string;
  source_type: string;
  source_id: string;
  source_label: string;
  per_unit_amount: string;
  quantity: string;
  line_amount: string;
  proration_ratio: string;
  applied_at: Date | string;
}

// ---------------------------------------------------------------------------------------------
// Reads

/** The lines of the orders in display order: kit component lines right after their kit's line. */
export async function lineRows(db: Db, entityId: string, orderIds: string[]): Promise<LineRow[]> {
  return db.query<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM order_lines l WHERE l.entity_id = $1 AND l.order_id = ANY($2::uuid[])
     ORDER BY l.order_id, l.sort_order, (l.kit_parent_line_id IS NOT NULL), l.created_at, l.id`,
    [entityId, orderIds],
  );
}

/**
 * lineRows' order among lines that one statement inserted without kit components (they share
 * created_at, the transaction's start): sort_order, then id.
 */
export const byInsertedDisplayOrder = (a: LineRow, b: LineRow): number => a.sort_order - b.sort_order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** One line of the order (FOR UPDATE by default); a malformed or unknown id is 404 on item_id. */
export async function lineRow(db: Db, entityId: string, orderId: string, itemId: string, lock = true): Promise<LineRow> {
  const row = UUID_PATTERN.test(itemId)
    ? await db.maybeOne<LineRow>(
        `SELECT ${LINE_COLUMNS} FROM order_lines l WHERE l.entity_id = $1 AND l.order_id = $2 AND l.id = $3 ${lock ? 'FOR UPDATE' : ''}`,
        [entityId, orderId, itemId],
      )
    : null;
  if (!row) throw new ApiError('not_found', { param: 'item_id', hint: 'No such line item on this order.' });
  return row;
}

export async function shareRows(db: Db, entityId: string, orderIds: string[]): Promise<LineAdjustmentRow[]> {
  return db.query<LineAdjustmentRow>(
    `SELECT s.id, s.line_id, s.source_type, s.source_id, s.source_label, s.per_unit_amount, s.quantity, s.line_amount, s.proration_ratio, s.applied_at
     FROM line_adjustments s WHERE s.entity_id = $1 AND s.order_id = ANY($2::uuid[]) ORDER BY s.applied_at, s.id`,
    [entityId, orderIds],
  );
}

/** The highest sort_order of the order's lines (null without lines): a new line goes after it. */
export async function lastSortOrder(db: Db, entityId: string, orderId: string): Promise<number | null> {
  const { last } = await db.one<{ last: number | null }>('SELECT max(sort_order) AS last FROM order_lines WHERE entity_id = $1 AND order_id = $2', [
    entityId,
    orderId,
  ]);
  return last;
}

// ---------------------------------------------------------------------------------------------
// Writes

/** What an E5 edit writes on the line; the totals engine derives the rest. */
export interface LineChange {
  quantity: string;
  sell_rate: string;
  list_price: string;
  /** Sets price_overridden (it is never cleared). */
  price_overridden: boolean;
  discount_amount: string;
  discount_percent: string | null;
  tax_rate_id: string | null;
  tax_rate: string | null;
  notes: string | null;
  is_drop_ship: boolean;
  drop_ship_vendor_id: string | null;
  /** unit_cost follows sell_rate (a purchase order line's price is its cost). */
  cost_follows_price: boolean;
}

export async function updateLineRow(db: Db, entityId: string, lineId: string, change: LineChange): Promise<void> {
  await db.query(
    `UPDATE order_lines SET quantity = $3, sell_rate = $4, list_price = $5, price_overridden = price_overridden OR $6, discount_amount = $7,
       discount_percent = $8, tax_rate_id = $9, tax_rate = $10, notes = $11, is_drop_ship = $12, drop_ship_vendor_id = $13,
       unit_cost = CASE WHEN $14 THEN $4::numeric ELSE unit_cost END, updated_at = now()
     WHERE entity_id = $1 AND id = $2`,
    [
      entityId,
      lineId,
      change.quantity,
      change.sell_rate,
      change.list_price,
      change.price_overridden,
      change.discount_amount,
      change.discount_percent,
      change.tax_rate_id,
      change.tax_rate,
      change.notes,
      change.is_drop_ship,
      change.drop_ship_vendor_id,
      change.cost_follows_price,
    ],
  );
}

/** A kit's component lines follow its quantity: quantity per kit × kits, to 4 decimals. */
export async function followKitQuantity(db: Db, entityId: string, kitLineId: string, quantity: string): Promise<void> {
  const kit = await db.one<{ product_id: string }>('SELECT product_id FROM order_lines WHERE entity_id = $1 AND id = $2', [entityId, kitLineId]);
  const components = await kitComponentsOf(db, entityId, [kit.product_id]);
  if (components.length === 0) return;
  await db.query(
    `UPDATE order_lines c SET quantity = round(k.quantity_per_kit * $3::numeric, 4), updated_at = now()
     FROM unnest($4::uuid[], $5::numeric[]) AS k(product_id, quantity_per_kit)
     WHERE c.entity_id = $1 AND c.kit_parent_line_id = $2 AND k.product_id = c.product_id`,
    [entityId, kitLineId, quantity, components.map((component) => component.component_product_id), components.map((component) => component.quantity_per_kit)],
  );
}

export async function deleteLineRow(db: Db, entityId: string, lineId: string): Promise<void> {
  await db.query('DELETE FROM order_lines WHERE entity_id = $1 AND id = $2', [entityId, lineId]);
}

/**
 * Copies the lines onto another order (E15): new ids, kit component lines pointing at the copy of
 * their kit's line, prices as on the source; no fulfilment, return or drop-ship history.
 */
export async function copyLines(db: Db, entityId: string, orderId: string, lines: readonly Pick<LineRow, 'id' | 'kit_parent_line_id'>[]): Promise<void> {
  if (!lines.length) return;
  const newIds = new Map(lines.map((line) => [line.id, newId()]));
  await db.query(
    `INSERT INTO order_lines (id, entity_id, order_id, product_id, variant_id, product_vendor_id, kit_parent_line_id, sku, title, quantity, list_price,
       sell_rate, price_overridden, discount_amount, discount_percent, tax_rate_id, tax_rate, is_tax_exempt, product_tax_code, unit_cost, weight,
       is_drop_ship, drop_ship_vendor_id, notes, sort_order, unit_of_measure_id)
     SELECT new_id, entity_id, $2, product_id, variant_id, product_vendor_id, parent_id, sku, title, quantity, list_price, sell_rate, price_overridden,
       discount_amount, discount_percent, tax_rate_id, tax_rate, is_tax_exempt, product_tax_code, unit_cost, weight, is_drop_ship, drop_ship_vendor_id,
       notes, sort_order, unit_of_measure_id
     FROM unnest($3::uuid[], $4::uuid[], $5::uuid[]) AS v(old_id, new_id, parent_id) JOIN order_lines ON entity_id = $1 AND id = old_id`,
    [
      entityId,
      orderId,
      lines.map((line) => line.id),
      lines.map((line) => newIds.get(line.id)),
      lines.map((line) => (line.kit_parent_line_id ? newIds.get(line.kit_parent_line_id) : null)),
    ],
  );
}
