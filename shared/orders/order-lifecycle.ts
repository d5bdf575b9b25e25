/**
 * The order lifecycle: the shared begin/finish steps, hold, release, cancel and convert. Invoice
 * posting (confirm, void) is in order-posting.ts, fulfillment in order-fulfillment.ts. Every
 * operation locks the order, asks the pure state machine (lifecycle-rules.ts) and refuses before
 * writing anything.
 */
import type { Db } from '../db/database';
import { APPROVAL_HOLD, fulfillmentProgress, type FulfillmentStatus } from './lifecycle-rules';
import { type DocumentType, type OrderStatus } from './totals';
import { settleDocumentMoney } from './document-money';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { amount, toJsonNumber, ZERO, type Amount } from '../money';
import type { Order } from './schemas/order';
import { begin, invalidTransition, type OrderState } from './order-state';
import { getOrder } from './order-reads';
import { nextOrderNumber } from './order-store';
import { recalculateOrder } from './recalculate-order';

export { begin, invalidTransition, type OrderState };

export interface LifecycleResult {
  order: Order;
  previousOrder: Partial<Order>;
}

/**
 * Sets the new status, settles the money figures the status moves (document-money.ts: balance_due
 * is forced to 0 on cancelled and voided invoices, payment_status of a voided document is voided)
 * and answers the order with the header values that changed.
 */
export async function finish(
  db: Db,
  entityId: string,
  before: OrderState,
  set: { order_status: OrderStatus; fulfillment_status?: FulfillmentStatus },
): Promise<LifecycleResult> {
  await db.query(
    `UPDATE orders SET order_status = $3, fulfillment_status = coalesce($4, fulfillment_status), updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [entityId, before.id, set.order_status, set.fulfillment_status ?? null],
  );
  await settleDocumentMoney(db, entityId, [before.id]);
  const order = await getOrder(db, entityId, before.id);
  const previous: Record<string, unknown> = {};
  const after = order as unknown as Record<string, unknown>;
  for (const key of ['order_status', 'payment_status', 'fulfillment_status', 'journal_entry_id', 'invoice_number', 'is_on_hold', 'hold_type'] as const) {
    if (after[key] !== before[key]) previous[key] = before[key];
  }
  if (!amount(order.balance_due).eq(before.balance_due)) previous.balance_due = toJsonNumber(before.balance_due);
  return { order, previousOrder: previous };
}

// ---------------------------------------------------------------------------------------------
// Confirm, hold, release, cancel, void

export async function holdOrder(db: Db, entityId: string, orderId: string, input: { hold_type: string; reason?: string | null }): Promise<LifecycleResult> {
  // Only an approval rule puts an order on an approval hold (confirm routes it; approve or reject lift it).
  if (input.hold_type === APPROVAL_HOLD) {
    throw new ApiError('parameter_invalid', { param: 'hold_type', hint: "hold_type 'approval' is reserved for orders an order approval rule holds." });
  }
  const { order, next } = await begin(db, entityId, orderId, 'hold');
  await db.query(`UPDATE orders SET is_on_hold = true, hold_type = $3, hold_reason = $4 WHERE entity_id = $1 AND id = $2`, [
    entityId,
    order.id,
    input.hold_type,
    input.reason ?? null,
  ]);
  return finish(db, entityId, order, { order_status: next });
}

export async function releaseOrder(db: Db, entityId: string, orderId: string): Promise<LifecycleResult> {
  const { order, next } = await begin(db, entityId, orderId, 'release');
  await db.query(`UPDATE orders SET is_on_hold = false, hold_type = NULL, hold_reason = NULL WHERE entity_id = $1 AND id = $2`, [entityId, order.id]);
  return finish(db, entityId, order, { order_status: next });
}

/** Live documents converted from this one (not cancelled, voided or deleted). */
async function liveConversions(db: Db, entityId: string, orderId: string, documentType: DocumentType): Promise<number> {
  const row = await db.one<{ count: number }>(
    `SELECT count(*)::int AS count FROM orders WHERE entity_id = $1 AND converted_from_id = $2 AND document_type = $3
       AND order_status NOT IN ('cancelled', 'voided') AND deleted_at IS NULL`,
    [entityId, orderId, documentType],
  );
  return row.count;
}

export async function cancelOrder(db: Db, entityId: string, orderId: string): Promise<LifecycleResult> {
  const { order, next } = await begin(db, entityId, orderId, 'cancel');
  if (order.document_type === 'sales_order' && (await liveConversions(db, entityId, order.id, 'invoice')) > 0) {
    throw invalidTransition(order, 'cancel', 'has_invoices', 'This sales order has been invoiced; void its invoices first.');
  }
  await db.query(`UPDATE orders SET is_on_hold = false WHERE entity_id = $1 AND id = $2`, [entityId, order.id]);
  if (order.document_type === 'purchase_order') {
    // A cancelled drop-ship purchase order frees its sales lines: E5 edits them again and a new
    // drop-ship purchase order may be issued for the units not yet received.
    await db.query(`UPDATE order_lines SET drop_ship_po_id = NULL, updated_at = now() WHERE entity_id = $1 AND drop_ship_po_id = $2`, [entityId, order.id]);
  }
  return finish(db, entityId, order, { order_status: next });
}

// ---------------------------------------------------------------------------------------------
// Convert

interface SourceLine {
  id: string;
  kit_parent_line_id: string | null;
  quantity: string;
  quantity_fulfilled: string;
  billed: string;
}

/**
 * quote → sales_order (every line, the order-level adjustments and shipping), or sales_order →
 * invoice for the unbilled quantities (quantity minus what live invoices converted from it
 * already bill). Percentage adjustments go on every invoice; fixed-amount discounts, fees and
 * shipping only on the first live one. The new document is a draft linked by converted_from_id
 * (lines by source_line_id); an invoice's lines carry what its sales order already shipped of
 * them, so the invoice never draws stock again.
 */
export async function convertOrder(db: Db, actor: { entityId: string; userId: string }, orderId: string): Promise<{ order: Order; source: OrderState }> {
  const { entityId } = actor;
  const { order: source } = await begin(db, entityId, orderId, 'convert');
  const target: DocumentType = source.document_type === 'quote' ? 'sales_order' : 'invoice';
  const existing = await liveConversions(db, entityId, source.id, target);
  if (target === 'sales_order' && existing > 0) {
    throw invalidTransition(source, 'convert', 'already_converted', 'This quote already has a sales order; cancel it to convert the quote again.');
  }
  const rows = await db.query<SourceLine>(
    `SELECT l.id, l.kit_parent_line_id, l.quantity, l.quantity_fulfilled,
       coalesce((SELECT sum(i.quantity) FROM order_lines i JOIN orders o ON o.entity_id = i.entity_id AND o.id = i.order_id
         WHERE i.entity_id = l.entity_id AND i.source_line_id = l.id AND o.order_status NOT IN ('cancelled', 'voided') AND o.deleted_at IS NULL), 0) AS billed
     FROM order_lines l WHERE l.entity_id = $1 AND l.order_id = $2 ORDER BY l.sort_order, (l.kit_parent_line_id IS NOT NULL), l.created_at, l.id`,
    [entityId, source.id],
  );
  const quantities = new Map<string, { quantity: Amount; fulfilled: Amount }>();
  for (const line of rows) {
    const open = target === 'sales_order' ? amount(line.quantity) : amount(line.quantity).minus(line.billed);
    if (!open.gt(0)) continue;
    if (line.kit_parent_line_id !== null && !quantities.has(line.kit_parent_line_id)) continue;
    // Shipped but not yet billed units of the line come along as fulfilled.
    const shippedUnbilled = amount(line.quantity_fulfilled).minus(line.billed);
    const fulfilled = target === 'invoice' && shippedUnbilled.gt(0) ? (shippedUnbilled.lt(open) ? shippedUnbilled : open) : ZERO;
    quantities.set(line.id, { quantity: open, fulfilled });
  }
  if (quantities.size === 0) throw invalidTransition(source, 'convert', 'nothing_to_bill', 'Every line of this sales order is already invoiced.');

  const id = newId();
  const number = await nextOrderNumber(db, entityId, target);
  const first = existing === 0;
  await db.query(
    `INSERT INTO orders (id, entity_id, order_number, document_type, customer_account_id, location_id, po_number, due_date, shipping_total, tax_exempt,
       delivery_option, notes, internal_notes, invoice_number, invoice_type, ship_complete, metadata, source_platform, converted_from_id, created_by_user_id,
       sales_channel_id)
     SELECT $3, entity_id, $4, $5, customer_account_id, location_id, po_number, due_date, CASE WHEN $6 THEN shipping_total ELSE 0 END, tax_exempt,
       delivery_option, notes, internal_notes, CASE WHEN $5 = 'invoice' THEN $4 END, CASE WHEN $5 = 'invoice' THEN 'order' END, ship_complete, metadata,
       source_platform, id, $7, sales_channel_id
     FROM orders WHERE entity_id = $1 AND id = $2`,
    [entityId, source.id, id, number, target, first, actor.userId],
  );
  const newIds = new Map([...quantities.keys()].map((lineId) => [lineId, newId()]));
  for (const line of rows) {
    const q = quantities.get(line.id);
    if (!q) continue;
    await db.query(
      `INSERT INTO order_lines (id, entity_id, order_id, product_id, variant_id, product_vendor_id, kit_parent_line_id, source_line_id, sku, title, quantity,
         quantity_fulfilled, list_price, sell_rate, price_overridden, discount_amount, discount_percent, tax_rate_id, tax_rate, is_tax_exempt,
         product_tax_code, unit_cost, weight, notes, sort_order)
       SELECT $3, entity_id, $4, product_id, variant_id, product_vendor_id, $5, id, sku, title, $6, $7, list_price, sell_rate, price_overridden,
         CASE WHEN discount_percent IS NULL AND $6::numeric <> quantity THEN round(discount_amount * $6::numeric / quantity, 2) ELSE discount_amount END,
         discount_percent, tax_rate_id, tax_rate, is_tax_exempt, product_tax_code, unit_cost, weight, notes, sort_order
       FROM order_lines WHERE entity_id = $1 AND id = $2`,
      [
        entityId,
        line.id,
        newIds.get(line.id),
        id,
        line.kit_parent_line_id ? newIds.get(line.kit_parent_line_id) : null,
        q.quantity.toString(),
        q.fulfilled.toString(),
      ],
    );
  }
  const adjustments = await db.query<{ id: string }>(
    `SELECT id FROM order_adjustments WHERE entity_id = $1 AND order_id = $2 AND (discount_type = 'percentage' OR $3) ORDER BY created_at, id`,
    [entityId, source.id, first],
  );
  for (const adjustment of adjustments) {
    await db.query(
      `INSERT INTO order_adjustments (id, entity_id, order_id, name, effect_type, discount_type, value, notes, created_by_user_id, created_at, coupon_id)
       SELECT $3, entity_id, $4, name, effect_type, discount_type, value, notes, created_by_user_id, created_at, coupon_id FROM order_adjustments
       WHERE entity_id = $1 AND id = $2`,
      [entityId, adjustment.id, newId(), id],
    );
  }
  const progress = fulfillmentProgress(
    rows
      .filter((line) => line.kit_parent_line_id === null && quantities.has(line.id))
      .map((line) => ({
        quantity: quantities.get(line.id)!.quantity,
        quantity_fulfilled: quantities.get(line.id)!.fulfilled,
      })),
  );
  await db.query('UPDATE orders SET fulfillment_status = $3 WHERE entity_id = $1 AND id = $2', [entityId, id, progress.fulfillment_status]);
  await recalculateOrder(db, entityId, id);
  return { order: await getOrder(db, entityId, id), source };
}
