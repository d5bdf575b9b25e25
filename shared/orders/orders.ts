/**
 * SQL for sales and purchase documents: orders, their lines, order-level adjustments and the
 * line shares of those adjustments. Every change of an order ends with recalculateOrder() in the
 * same transaction, so stored totals always equal what the pure engine computes from the lines.
 */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { formatNumber, nextNumber } from '../db/sequences';
import { balanceDue, computeTotals, amountDue, type DocumentType, type OrderStatus, type PaymentStatus } from './totals';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { amount, QUANTITY_SCALE, round, toJsonNumber } from '../money';
import type { Order, OrderAdjustment, OrderLineItem } from './schemas/order';
import type { ManualAdjustment, OrderCreate, OrderLineCreate, OrderLineUpdate, OrderUpdate } from './schemas/order-requests';
import { UNIT_PRICE_SCALE } from './schemas/order';
import { requirePermission } from '../auth/permissions';
import {
  catalogPrices,
  checkedTaxRate,
  checkVendor,
  insertLines,
  productsById,
  resolveSellRate,
  taxRatesById,
  vendorIds,
  type OrderHeader,
} from './order-line-insert';
import { setLineUnitOfMeasure } from './order-line-uom';
import { refreshFulfillmentProgress } from './order-progress';

export const ORDER_NUMBER_PREFIXES: Record<DocumentType, string> = {
  quote: 'QT-',
  sales_order: 'SO-',
  invoice: 'INV-',
  return: 'RMA-',
  purchase_order: 'PO-',
};
export const REVISION_OVERRIDE_PERMISSION = 'orders.revision_override';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// Rows and mapping

const ORDER_COLUMNS = `o.id, 'order' AS object, o.entity_id, o.order_number, o.document_type, o.order_status, o.payment_status, o.fulfillment_status,
  coalesce(o.customer_account_id, o.vendor_id) AS account_id, o.location_id, o.po_number, o.order_date, o.due_date, o.subtotal, o.discount_total,
  o.shipping_total, o.tax_total, o.fee_total, o.order_total, o.list_price_total, o.pricing_savings, o.amount_paid, o.balance_due, o.tax_exempt,
  o.delivery_option, o.notes, o.internal_notes, o.invoice_number, o.invoice_type, o.is_on_hold, o.hold_type, o.ship_complete, o.source_platform,
  o.external_order_id, o.external_order_number, o.metadata, o.revision_count, o.duplicated_from_id, o.created_by_user_id, o.created_at, o.updated_at,
  o.converted_from_id, o.journal_entry_id, o.hold_reason, o.sent_at, o.sent_to, o.sales_channel_id, o.approval_rule_id, o.approver_user_id,
  o.approval_requested_at, o.approved_by, o.approved_at, o.rejected_by, o.rejected_at, o.rejection_reason, o.source_order_id, o.amount_credited`;

const MONEY_FIELDS = [
  'subtotal',
  'discount_total',
  'shipping_total',
  'tax_total',
  'fee_total',
  'order_total',
  'list_price_total',
  'pricing_savings',
  'amount_paid',
  'balance_due',
  'amount_credited',
] as const;

type OrderRow = Omit<Order, (typeof MONEY_FIELDS)[number] | 'amount_due' | 'order_date' | 'due_date' | 'created_at' | 'updated_at'> &
  Record<(typeof MONEY_FIELDS)[number], string> & {
    order_date: Date | string;
    due_date: Date | string | null;
    created_at: Date | string;
    updated_at: Date | string;
  };

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

function toOrder(row: OrderRow, lines?: OrderLineItem[], adjustments?: OrderAdjustment[]): Order {
  const order: Record<string, unknown> = { ...row };
  for (const field of MONEY_FIELDS) order[field] = toJsonNumber(row[field]);
  order.amount_due = toJsonNumber(amountDue(row.order_total, row.amount_paid));
  order.order_date = iso(row.order_date);
  order.due_date = row.due_date === null ? null : iso(row.due_date);
  order.sent_at = row.sent_at === null || row.sent_at === undefined ? null : iso(row.sent_at);
  order.created_at = iso(row.created_at);
  order.updated_at = iso(row.updated_at);
  if (lines) order.lines = lines;
  if (adjustments) order.adjustments = adjustments;
  return order as Order;
}

const LINE_COLUMNS = `l.id, 'order_line_item' AS object, l.entity_id, l.order_id, l.product_id, l.variant_id, l.product_vendor_id, l.kit_parent_line_id,
  l.sku, l.title, l.quantity, l.quantity_fulfilled, l.quantity_returned, l.received_floor, l.sell_rate, l.list_price, l.pricing_rule_adjustment,
  l.coupon_adjustment, l.discount_amount, l.discount_percent, l.line_subtotal, l.tax_rate_id, l.tax_rate, l.tax_amount, l.line_total, l.unit_cost,
  l.weight, l.is_tax_exempt, l.product_tax_code, l.is_drop_ship, l.drop_ship_vendor_id, l.drop_ship_po_id, l.notes, l.sort_order,
  l.price_overridden, l.unit_of_measure_id, l.created_at, l.updated_at`;

interface LineRow {
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

interface LineAdjustmentRow {
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

interface AdjustmentRow {
  id: string;
  entity_id: string;
  order_id: string;
  name: string;
  effect_type: 'discount' | 'fee';
  discount_type: 'percentage' | 'fixed_amount';
  value: string;
  amount: string;
  notes: string | null;
  created_by_user_id: string;
  coupon_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const ADJUSTMENT_COLUMNS = `a.id, a.entity_id, a.order_id, a.name, a.effect_type, a.discount_type, a.value, a.amount, a.notes, a.created_by_user_id,
  a.coupon_id, a.created_at, a.updated_at`;

const toAdjustment = (row: AdjustmentRow): OrderAdjustment => ({
  ...row,
  object: 'order_adjustment',
  value: toJsonNumber(row.value, 4),
  amount: toJsonNumber(row.amount),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const nullableNumber = (value: string | null, scale: number) => (value === null ? null : toJsonNumber(value, scale));

// ---------------------------------------------------------------------------------------------
// What may change: the closed-document rules of the states table

export interface DocumentLock {
  reason: 'document_cancelled' | 'document_voided' | 'document_fulfilled' | 'document_posted' | 'document_paid';
  suggested_action: 'duplicate_order' | 'create_return' | 'revise_order';
  /** Only a paid document may be edited with override true (and orders.revision_override). */
  overridable: boolean;
}

type LockState = { document_type: string; order_status: string; payment_status: string };

export function documentLock(order: LockState): DocumentLock | null {
  if (order.order_status === 'cancelled') return { reason: 'document_cancelled', suggested_action: 'duplicate_order', overridable: false };
  if (order.order_status === 'voided' || order.payment_status === 'voided') {
    return { reason: 'document_voided', suggested_action: 'duplicate_order', overridable: false };
  }
  if (order.order_status === 'fulfilled') return { reason: 'document_fulfilled', suggested_action: 'create_return', overridable: false };
  // A confirmed return is posted too: its credit memo and receipts follow its lines.
  if ((order.document_type === 'invoice' || order.document_type === 'return') && order.order_status !== 'draft') {
    return { reason: 'document_posted', suggested_action: 'create_return', overridable: false };
  }
  if (order.payment_status === 'paid' || order.payment_status === 'overpaid') {
    return { reason: 'document_paid', suggested_action: 'revise_order', overridable: true };
  }
  return null;
}

function lineFloor(line: LineRow) {
  // received_floor first: on a purchase order line it equals quantity_fulfilled (units received), and the tie names it.
  const candidates = [
    { value: amount(line.received_floor), reason: 'quantity_received' },
    { value: amount(line.quantity_fulfilled), reason: 'quantity_fulfilled' },
    { value: amount(line.quantity_returned), reason: 'quantity_returned' },
  ];
  return candidates.reduce((best, next) => (next.value.gt(best.value) ? next : best));
}

function lineEditability(order: LockState, line: LineRow): OrderLineItem['line_editability'] {
  const lock = documentLock(order);
  const floor = lineFloor(line);
  const component = line.kit_parent_line_id !== null;
  const qtyReason = lock?.reason ?? (line.drop_ship_po_id ? 'dropship_po_issued' : component ? 'kit_component' : null);
  const deleteReason = qtyReason ?? (floor.value.gt(0) ? floor.reason : null);
  const received = amount(line.received_floor);
  return {
    qty: { allowed: qtyReason === null, reason: qtyReason, floor: toJsonNumber(floor.value, QUANTITY_SCALE) },
    unit_cost: {
      allowed: lock === null && !component,
      reason: lock?.reason ?? (component ? 'kit_component' : null),
      warn_received_qty: received.gt(0) ? toJsonNumber(received, QUANTITY_SCALE) : null,
    },
    delete: { allowed: deleteReason === null, reason: deleteReason },
    notes: { allowed: lock === null, reason: lock?.reason ?? null },
  };
}

function toLine(order: LockState, row: LineRow, shares: LineAdjustmentRow[]): OrderLineItem {
  const { price_overridden: _p, tax_rate: _t, ...rest } = row;
  return {
    ...rest,
    object: 'order_line_item',
    quantity: toJsonNumber(row.quantity, QUANTITY_SCALE),
    quantity_fulfilled: toJsonNumber(row.quantity_fulfilled, QUANTITY_SCALE),
    quantity_returned: toJsonNumber(row.quantity_returned, QUANTITY_SCALE),
    received_floor: toJsonNumber(row.received_floor, QUANTITY_SCALE),
    line_editability: lineEditability(order, row),
    sell_rate: toJsonNumber(row.sell_rate, UNIT_PRICE_SCALE),
    unit_price: toJsonNumber(row.sell_rate, UNIT_PRICE_SCALE),
    list_price: toJsonNumber(row.list_price, UNIT_PRICE_SCALE),
    pricing_rule_adjustment: toJsonNumber(row.pricing_rule_adjustment, UNIT_PRICE_SCALE),
    coupon_adjustment: toJsonNumber(row.coupon_adjustment),
    discount_amount: toJsonNumber(row.discount_amount),
    discount_percent: nullableNumber(row.discount_percent, 4),
    line_subtotal: toJsonNumber(row.line_subtotal),
    tax_amount: toJsonNumber(row.tax_amount),
    line_total: toJsonNumber(row.line_total),
    unit_cost: nullableNumber(row.unit_cost, UNIT_PRICE_SCALE),
    weight: nullableNumber(row.weight, QUANTITY_SCALE),
    adjustments: shares.map((share) => ({
      id: share.id,
      source_type: share.source_type,
      source_id: share.source_id,
      source_label: share.source_label,
      per_unit_amount: toJsonNumber(share.per_unit_amount, UNIT_PRICE_SCALE),
      quantity: toJsonNumber(share.quantity, QUANTITY_SCALE),
      line_amount: toJsonNumber(share.line_amount),
      proration_ratio: toJsonNumber(share.proration_ratio, 10),
      applied_at: iso(share.applied_at),
    })),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

// ---------------------------------------------------------------------------------------------
// Loading

async function lineRows(db: Db, entityId: string, orderIds: string[]): Promise<LineRow[]> {
  return db.query<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM order_lines l WHERE l.entity_id = $1 AND l.order_id = ANY($2::uuid[])
     ORDER BY l.order_id, l.sort_order, (l.kit_parent_line_id IS NOT NULL), l.created_at, l.id`,
    [entityId, orderIds],
  );
}

async function shareRows(db: Db, entityId: string, orderIds: string[]): Promise<LineAdjustmentRow[]> {
  return db.query<LineAdjustmentRow>(
    `SELECT s.id, s.line_id, s.source_type, s.source_id, s.source_label, s.per_unit_amount, s.quantity, s.line_amount, s.proration_ratio, s.applied_at
     FROM line_adjustments s WHERE s.entity_id = $1 AND s.order_id = ANY($2::uuid[]) ORDER BY s.applied_at, s.id`,
    [entityId, orderIds],
  );
}

async function adjustmentRows(db: Db, entityId: string, orderIds: string[]): Promise<AdjustmentRow[]> {
  return db.query<AdjustmentRow>(
    `SELECT ${ADJUSTMENT_COLUMNS} FROM order_adjustments a WHERE a.entity_id = $1 AND a.order_id = ANY($2::uuid[]) ORDER BY a.created_at, a.id`,
    [entityId, orderIds],
  );
}

/** Line items of the given orders (one query for lines, unless given, one for their adjustment shares), by order id. */
export async function linesOf(db: Db, entityId: string, orders: (LockState & { id: string })[], rows?: LineRow[]): Promise<Map<string, OrderLineItem[]>> {
  const ids = orders.map((order) => order.id);
  // One connection per transaction: queries run one after the other.
  const lines = rows ?? (await lineRows(db, entityId, ids));
  const shares = await shareRows(db, entityId, ids);
  const sharesByLine = new Map<string, LineAdjustmentRow[]>();
  for (const share of shares) sharesByLine.set(share.line_id, [...(sharesByLine.get(share.line_id) ?? []), share]);
  const orderById = new Map(orders.map((order) => [order.id, order]));
  const result = new Map<string, OrderLineItem[]>(ids.map((id) => [id, []]));
  for (const line of lines) result.get(line.order_id)!.push(toLine(orderById.get(line.order_id)!, line, sharesByLine.get(line.id) ?? []));
  return result;
}

export async function adjustmentsOf(db: Db, entityId: string, orderIds: string[]): Promise<Map<string, OrderAdjustment[]>> {
  const result = new Map<string, OrderAdjustment[]>(orderIds.map((id) => [id, []]));
  for (const row of await adjustmentRows(db, entityId, orderIds)) result.get(row.order_id)!.push(toAdjustment(row));
  return result;
}

interface LoadOptions {
  lock?: boolean;
  param?: string;
  code?: 'not_found' | 'order_not_found';
}

async function orderRow(db: Db, entityId: string, orderId: string, options: LoadOptions = {}): Promise<OrderRow> {
  const row = UUID.test(orderId)
    ? await db.maybeOne<OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.entity_id = $1 AND o.id = $2 AND o.deleted_at IS NULL ${options.lock ? 'FOR UPDATE' : ''}`,
        [entityId, orderId],
      )
    : null;
  if (!row) throw new ApiError(options.code ?? 'not_found', { param: options.param ?? 'id', hint: 'No such order in this entity.' });
  return row;
}

/** The order as GET returns it: header, lines (with their adjustment shares) and adjustments. */
export async function getOrder(db: Db, entityId: string, orderId: string, options: LoadOptions = {}): Promise<Order> {
  const row = await orderRow(db, entityId, orderId, options);
  const lines = await linesOf(db, entityId, [row]);
  const adjustments = await adjustmentsOf(db, entityId, [row.id]);
  return toOrder(row, lines.get(row.id), adjustments.get(row.id));
}

/** E17: the order by uuid or by order_number, within the entity. */
export async function findOrderIdByReference(db: Db, entityId: string, reference: string): Promise<string> {
  if (UUID.test(reference)) return reference;
  const row = await db.maybeOne<{ id: string }>('SELECT id FROM orders WHERE entity_id = $1 AND upper(order_number) = upper($2) AND deleted_at IS NULL', [
    entityId,
    reference,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such order in this entity.' });
  return row.id;
}

export async function loadOrders(db: Db, entityId: string, ids: string[]): Promise<Order[]> {
  const rows = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.entity_id = $1 AND o.id = ANY($2::uuid[]) AND o.deleted_at IS NULL`, [
    entityId,
    ids,
  ]);
  return rows.map((row) => toOrder(row));
}

// ---------------------------------------------------------------------------------------------
// Recalculation: the one place totals are written

// The line columns the totals engine derives, in the order of the UPDATE's arrays below.
const DERIVED = ['pricing_rule_adjustment', 'line_subtotal', 'discount_amount', 'coupon_adjustment', 'tax_amount', 'line_total'] as const;

/** Recalculates and stores the order's totals; returns the stored header and lines (in lineRows order). */
/** What recalculation reads of each line: its inputs and its derived values (not the display columns). */
type PricedLine = Pick<
  LineRow,
  'id' | 'quantity' | 'list_price' | 'sell_rate' | 'discount_amount' | 'discount_percent' | 'tax_rate_id' | 'tax_rate' | 'is_tax_exempt' | 'kit_parent_line_id'
> &
  Pick<LineRow, (typeof DERIVED)[number]>;

export async function recalculateOrder(db: Db, entityId: string, orderId: string): Promise<{ order: OrderRow }> {
  const order = await db.one<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.entity_id = $1 AND o.id = $2`, [entityId, orderId]);
  // Only what the totals need, in the display order (it decides where a proration's remainder cent goes).
  const lines = await db.query<PricedLine>(
    `SELECT l.id, l.quantity, l.list_price, l.sell_rate, l.discount_amount, l.discount_percent, l.tax_rate_id, l.tax_rate, l.is_tax_exempt,
       l.kit_parent_line_id, l.pricing_rule_adjustment, l.line_subtotal, l.coupon_adjustment, l.tax_amount, l.line_total
     FROM order_lines l WHERE l.entity_id = $1 AND l.order_id = $2
     ORDER BY l.sort_order, (l.kit_parent_line_id IS NOT NULL), l.created_at, l.id`,
    [entityId, orderId],
  );
  const adjustments = await adjustmentRows(db, entityId, [orderId]);
  const totals = computeTotals({
    lines: lines.map((line) => ({
      quantity: line.quantity,
      list_price: line.list_price,
      sell_rate: line.sell_rate,
      // coupon_adjustment is derived from the coupon adjustments below, never fed back in.
      discount_amount: line.discount_amount,
      discount_percent: line.discount_percent,
      tax_rate: line.tax_rate_id ? line.tax_rate : null,
      is_tax_exempt: line.is_tax_exempt,
      is_kit_component: line.kit_parent_line_id !== null,
    })),
    adjustments: adjustments.map((a) => ({
      id: a.id,
      name: a.name,
      effect_type: a.effect_type,
      discount_type: a.discount_type,
      value: a.value,
      coupon_id: a.coupon_id,
    })),
    shipping_total: order.shipping_total,
    tax_exempt: order.tax_exempt,
  });
  // Line derived columns, in one statement, of the lines whose values change (a one-line edit of a long order rewrites one row).
  const changed = lines.flatMap((line, index) => (DERIVED.some((field) => !totals.lines[index][field].eq(line[field])) ? [index] : []));
  if (changed.length) {
    await db.query(
      `UPDATE order_lines l SET pricing_rule_adjustment = v.pra, line_subtotal = v.sub, discount_amount = v.disc, coupon_adjustment = v.coupon,
         tax_amount = v.tax, line_total = v.total, updated_at = CASE WHEN (l.pricing_rule_adjustment, l.line_subtotal, l.discount_amount, l.tax_amount, l.line_total)
           IS DISTINCT FROM (v.pra, v.sub, v.disc, v.tax, v.total) THEN now() ELSE l.updated_at END
       FROM unnest($2::uuid[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[])
         AS v(id, pra, sub, disc, coupon, tax, total)
       WHERE l.entity_id = $1 AND l.id = v.id`,
      [entityId, changed.map((index) => lines[index].id), ...DERIVED.map((field) => changed.map((index) => totals.lines[index][field].toString()))],
    );
  }
  // The line shares of order-level discounts are rebuilt from scratch: they follow the lines.
  await db.query(`DELETE FROM line_adjustments WHERE entity_id = $1 AND order_id = $2 AND source_type IN ('order_adjustment', 'coupon')`, [
    entityId,
    orderId,
  ]);
  const shares = totals.lines.flatMap((t, index) => t.shares.map((share) => ({ share, line: lines[index] })));
  if (shares.length) {
    const appliedAt = new Map(adjustments.map((a) => [a.id, a.created_at]));
    await db.query(
      `INSERT INTO line_adjustments (id, entity_id, order_id, line_id, source_type, source_id, source_label, per_unit_amount, quantity, line_amount,
         proration_ratio, applied_at)
       SELECT v.id, $1, $2, v.line_id, v.source_type, v.source_id, v.label, v.per_unit, v.qty, v.amount, v.ratio, v.applied_at
       FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[], $10::numeric[], $11::timestamptz[],
         $12::text[]) AS v(id, line_id, source_id, label, per_unit, qty, amount, ratio, applied_at, source_type)`,
      [
        entityId,
        orderId,
        shares.map(() => newId()),
        shares.map(({ line }) => line.id),
        // A coupon's share names the coupon (source_type coupon), any other the adjustment.
        shares.map(({ share }) => share.coupon_id ?? share.adjustment_id),
        shares.map(({ share }) => share.source_label),
        shares.map(({ share }) => share.per_unit_amount.toString()),
        shares.map(({ line }) => line.quantity),
        shares.map(({ share }) => share.line_amount.toString()),
        shares.map(({ share }) => share.proration_ratio.toString()),
        shares.map(({ share }) => appliedAt.get(share.adjustment_id)),
        shares.map(({ share }) => (share.coupon_id ? 'coupon' : 'order_adjustment')),
      ],
    );
  }
  if (adjustments.length) {
    await db.query(
      `UPDATE order_adjustments a SET amount = v.amount FROM unnest($2::uuid[], $3::numeric[]) AS v(id, amount) WHERE a.entity_id = $1 AND a.id = v.id`,
      [entityId, totals.adjustments.map((a) => a.id), totals.adjustments.map((a) => a.amount.toString())],
    );
  }
  const balance = balanceDue({
    document_type: order.document_type as DocumentType,
    order_status: order.order_status as OrderStatus,
    payment_status: order.payment_status as PaymentStatus,
    order_total: totals.order_total,
    amount_paid: order.amount_paid,
  });
  const stored = await db.one<OrderRow>(
    `UPDATE orders o SET subtotal = $3, discount_total = $4, shipping_total = $5, tax_total = $6, fee_total = $7, order_total = $8,
       list_price_total = $9, pricing_savings = $10, balance_due = $11
     WHERE o.entity_id = $1 AND o.id = $2
     RETURNING ${ORDER_COLUMNS}`,
    [
      entityId,
      orderId,
      totals.subtotal.toString(),
      totals.discount_total.toString(),
      totals.shipping_total.toString(),
      totals.tax_total.toString(),
      totals.fee_total.toString(),
      totals.order_total.toString(),
      totals.list_price_total.toString(),
      totals.pricing_savings.toString(),
      balance.toString(),
    ],
  );
  return { order: stored };
}

/** recalculateOrder, then the order as GET returns it. */
export async function recalculatedOrder(db: Db, entityId: string, orderId: string): Promise<Order> {
  const { order } = await recalculateOrder(db, entityId, orderId);
  const items = await linesOf(db, entityId, [order]);
  const adjustments = await adjustmentsOf(db, entityId, [orderId]);
  return toOrder(order, items.get(orderId), adjustments.get(orderId));
}

// ---------------------------------------------------------------------------------------------
// References and pricing

type PartyTable = 'accounts' | 'vendors';
const partyTable = (documentType: string): PartyTable => (documentType === 'purchase_order' ? 'vendors' : 'accounts');

async function checkParty(db: Db, entityId: string, documentType: string, partyId: string): Promise<{ tax_exempt: boolean }> {
  const table = partyTable(documentType);
  const party = await db.maybeOne<{ tax_exempt: boolean; is_archived: boolean }>(
    `SELECT tax_exempt, is_archived FROM ${table} WHERE entity_id = $1 AND id = $2 FOR KEY SHARE`,
    [entityId, partyId],
  );
  if (!party) {
    throw new ApiError('not_found', {
      param: 'account_id',
      hint: table === 'vendors' ? 'No such vendor in this entity (purchase orders name a vendor).' : 'No such customer account in this entity.',
    });
  }
  if (party.is_archived) throw new ApiError('party_archived', { param: 'account_id' });
  return party;
}

async function checkLocation(db: Db, entityId: string, locationId: string): Promise<void> {
  const found = await db.maybeOne('SELECT 1 FROM locations WHERE entity_id = $1 AND id = $2 FOR KEY SHARE', [entityId, locationId]);
  if (!found) throw new ApiError('not_found', { param: 'location_id', hint: 'No such location in this entity.' });
}

async function defaultLocation(db: Db, entityId: string): Promise<string | null> {
  const row = await db.maybeOne<{ id: string }>('SELECT id FROM locations WHERE entity_id = $1 AND is_default', [entityId]);
  return row?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// Orders

function externalTaken(error: unknown): never {
  if (isUniqueViolation(error, 'orders_external_unique')) {
    throw new ApiError('external_id_taken', {
      param: 'external_order_id',
      hint: 'Another live order of this document type already has this source_platform and external_order_id.',
    });
  }
  throw error;
}

export async function createOrder(db: Db, actor: { entityId: string; userId: string }, input: OrderCreate): Promise<Order> {
  const { entityId } = actor;
  const party = await checkParty(db, entityId, input.document_type, input.account_id);
  if (input.invoice_type !== undefined && input.document_type !== 'invoice') {
    throw new ApiError('parameter_invalid', { param: 'invoice_type', hint: 'invoice_type applies to invoices only.' });
  }
  if (input.location_id) await checkLocation(db, entityId, input.location_id);
  const locationId = input.location_id === undefined ? await defaultLocation(db, entityId) : input.location_id;
  const id = newId();
  const isPurchase = input.document_type === 'purchase_order';
  const header: OrderHeader = { id, document_type: input.document_type, order_status: 'draft', payment_status: 'unpaid', account_id: input.account_id };
  // Numbered inside the transaction: a refusal rolls the counter back too, so numbers stay gap-free.
  const number = formatNumber(ORDER_NUMBER_PREFIXES[input.document_type], await nextNumber(db, entityId, `order:${input.document_type}`));
  try {
    await db.query(
      `INSERT INTO orders (id, entity_id, order_number, document_type, customer_account_id, vendor_id, location_id, po_number, order_date, due_date,
         shipping_total, tax_exempt, delivery_option, notes, internal_notes, invoice_number, invoice_type, ship_complete, source_platform,
         external_order_id, external_order_number, metadata, created_by_user_id, sales_channel_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::timestamptz, now()), $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
      [
        id,
        entityId,
        number,
        input.document_type,
        isPurchase ? null : input.account_id,
        isPurchase ? input.account_id : null,
        locationId,
        input.po_number ?? null,
        input.order_date ?? null,
        input.due_date ?? null,
        input.shipping_total ?? '0',
        input.tax_exempt ?? party.tax_exempt,
        input.delivery_option ?? null,
        input.notes ?? null,
        input.internal_notes ?? null,
        input.document_type === 'invoice' ? number : null,
        input.document_type === 'invoice' ? (input.invoice_type ?? 'manual') : null,
        input.ship_complete ?? false,
        input.source_platform ?? null,
        input.external_order_id ?? null,
        input.external_order_number ?? null,
        input.metadata ?? {},
        actor.userId,
        input.sales_channel_id ?? null,
      ],
    );
  } catch (error) {
    externalTaken(error);
  }
  await insertLines(db, entityId, header, input.lines ?? [], (index) => `lines[${index}].`);
  return recalculatedOrder(db, entityId, id);
}

export interface OrderFilters {
  document_type: DocumentType;
  order_status?: string;
  payment_status?: string;
  account_id?: string;
  external_order_id?: string;
  sales_channel_id?: string;
  created_gte?: string;
  created_lte?: string;
  order_date_gte?: string;
  order_date_lte?: string;
}

export async function listOrders(db: Db, entityId: string, filters: OrderFilters, page: PageRequest): Promise<Page<Order>> {
  const where = ['o.entity_id = $1', 'o.deleted_at IS NULL'];
  const params: unknown[] = [entityId];
  const add = (sql: (n: string) => string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  add((n) => `o.document_type = ${n}`, filters.document_type);
  add((n) => `o.order_status = ${n}`, filters.order_status);
  add((n) => `o.payment_status = ${n}`, filters.payment_status);
  add((n) => `coalesce(o.customer_account_id, o.vendor_id) = ${n}`, filters.account_id);
  add((n) => `o.external_order_id = ${n}`, filters.external_order_id);
  add((n) => `o.sales_channel_id = ${n}`, filters.sales_channel_id);
  add((n) => `o.created_at >= ${n}`, filters.created_gte);
  add((n) => `o.created_at <= ${n}`, filters.created_lte);
  add((n) => `o.order_date >= ${n}`, filters.order_date_gte);
  add((n) => `o.order_date <= ${n}`, filters.order_date_lte);
  const result = await keysetPage<OrderRow & { id: string }>(db, { table: 'orders', alias: 'o', select: ORDER_COLUMNS, where, params }, page);
  return { ...result, data: result.data.map((row) => toOrder(row)) };
}

const HEADER_COLUMNS = [
  'location_id',
  'po_number',
  'order_date',
  'due_date',
  'shipping_total',
  'tax_exempt',
  'delivery_option',
  'notes',
  'internal_notes',
  'ship_complete',
  'source_platform',
  'external_order_id',
  'external_order_number',
  'metadata',
  'sales_channel_id',
] as const;
/** Fields a closed document still accepts: they change no amount and no obligation. */
const ALWAYS_EDITABLE = new Set(['notes', 'internal_notes', 'metadata']);

function lockedError(order: LockState & { id: string }, lock: DocumentLock, hint?: string): ApiError {
  return new ApiError('order_locked', {
    param: 'id',
    hint,
    details: {
      current_status: order.order_status,
      payment_status: order.payment_status,
      reason: lock.reason,
      suggested_action: lock.suggested_action,
      overridable: lock.overridable,
    },
  });
}

export async function updateOrder(db: Db, entityId: string, orderId: string, patch: OrderUpdate): Promise<{ order: Order; previous: Partial<Order> }> {
  const before = await getOrder(db, entityId, orderId, { lock: true });
  const lock = documentLock(before);
  const changing = Object.keys(patch).filter((key) => patch[key as keyof OrderUpdate] !== undefined);
  if (lock && changing.some((key) => !ALWAYS_EDITABLE.has(key))) {
    throw lockedError(before, lock, 'A closed document accepts changes to notes, internal_notes and metadata only.');
  }
  const params: unknown[] = [entityId, orderId];
  const assignments: string[] = [];
  if (patch.account_id !== undefined && patch.account_id !== before.account_id) {
    await checkParty(db, entityId, before.document_type, patch.account_id);
    params.push(patch.account_id);
    assignments.push(`${before.document_type === 'purchase_order' ? 'vendor_id' : 'customer_account_id'} = $${params.length}`);
  }
  if (patch.location_id) await checkLocation(db, entityId, patch.location_id);
  for (const column of HEADER_COLUMNS) {
    if (patch[column] === undefined) continue;
    params.push(patch[column]);
    assignments.push(`${column} = $${params.length}`);
  }
  if (assignments.length === 0) return { order: before, previous: {} };
  try {
    await db.query(`UPDATE orders SET ${assignments.join(', ')}, updated_at = now() WHERE entity_id = $1 AND id = $2`, params);
  } catch (error) {
    externalTaken(error);
  }
  const order = await recalculatedOrder(db, entityId, orderId);
  const { lines: _l, adjustments: _a, ...beforeHeader } = before;
  const { lines: _l2, adjustments: _a2, ...afterHeader } = order;
  return { order, previous: previousAttributes(beforeHeader, afterHeader) as Partial<Order> };
}

/** Adding or deleting lines follows the line rules: a closed document refuses them (no override). */
function requireOpen(order: LockState & { id: string }): void {
  const lock = documentLock(order);
  if (lock) throw lockedError(order, lock);
}

export async function addLine(db: Db, entityId: string, orderId: string, input: OrderLineCreate): Promise<Order> {
  const order = toOrder(await orderRow(db, entityId, orderId, { lock: true }));
  requireOpen(order);
  const { last } = await db.one<{ last: number | null }>('SELECT max(sort_order) AS last FROM order_lines WHERE entity_id = $1 AND order_id = $2', [
    entityId,
    orderId,
  ]);
  await insertLines(db, entityId, order, [input], () => '', last);
  return recalculatedOrder(db, entityId, orderId);
}

async function lineRow(db: Db, entityId: string, orderId: string, itemId: string, lock = true): Promise<LineRow> {
  const row = UUID.test(itemId)
    ? await db.maybeOne<LineRow>(
        `SELECT ${LINE_COLUMNS} FROM order_lines l WHERE l.entity_id = $1 AND l.order_id = $2 AND l.id = $3 ${lock ? 'FOR UPDATE' : ''}`,
        [entityId, orderId, itemId],
      )
    : null;
  if (!row) throw new ApiError('not_found', { param: 'item_id', hint: 'No such line item on this order.' });
  return row;
}

export async function getLine(db: Db, entityId: string, orderId: string, itemId: string, options: { lock?: boolean } = {}): Promise<OrderLineItem> {
  const order = await orderRow(db, entityId, orderId, options);
  // The one line (and its shares), not the whole order.
  const row = await lineRow(db, entityId, order.id, itemId, !!options.lock);
  const shares = await shareRows(db, entityId, [order.id]);
  return toLine(
    order,
    row,
    shares.filter((share) => share.line_id === row.id),
  );
}

export interface LineUpdateResult {
  line: OrderLineItem;
  order: Order;
  previousOrder: Partial<Order>;
  overridden: boolean;
}

/** E5: edits one line and recalculates the order, under the closed-document and drop-ship rules. */
export async function updateLine(
  db: Db,
  actor: { entityId: string; userId: string; keyId: string },
  orderId: string,
  itemId: string,
  patch: OrderLineUpdate,
): Promise<LineUpdateResult> {
  const { entityId } = actor;
  // The header only: the lines are read (once) by the recalculation.
  const order = toOrder(await orderRow(db, entityId, orderId, { lock: true }));
  const line = await lineRow(db, entityId, orderId, itemId);

  const quantityChanges = patch.quantity !== undefined && !amount(patch.quantity).eq(line.quantity);
  const dropShipChanges =
    quantityChanges ||
    (patch.is_drop_ship !== undefined && patch.is_drop_ship !== line.is_drop_ship) ||
    (patch.drop_ship_vendor_id !== undefined && patch.drop_ship_vendor_id !== line.drop_ship_vendor_id);
  if (line.drop_ship_po_id && dropShipChanges) {
    const po = await db.maybeOne<{ id: string; order_number: string; order_status: string }>(
      'SELECT id, order_number, order_status FROM orders WHERE entity_id = $1 AND id = $2',
      [entityId, line.drop_ship_po_id],
    );
    throw new ApiError('dropship_po_issued_blocks_line_edit', {
      param: patch.quantity !== undefined ? 'quantity' : patch.is_drop_ship !== undefined ? 'is_drop_ship' : 'drop_ship_vendor_id',
      details: { linked_purchase_order: po ?? { id: line.drop_ship_po_id } },
    });
  }
  if (line.kit_parent_line_id !== null && Object.keys(patch).some((key) => key !== 'notes' && key !== 'override' && key !== 'override_reason')) {
    throw new ApiError('line_not_editable', {
      param: 'item_id',
      hint: "A kit component line follows its kit's line: change the kit's line instead.",
      details: { reason: 'kit_component', kit_parent_line_id: line.kit_parent_line_id },
    });
  }
  const lock = documentLock(order);
  let overridden = false;
  if (lock) {
    if (!patch.override || !lock.overridable) {
      throw lockedError(
        order,
        lock,
        lock.overridable ? 'This document is paid: revise the order, or send override true (needs the orders.revision_override permission).' : undefined,
      );
    }
    await requirePermission(db, { entityId, userId: actor.userId }, REVISION_OVERRIDE_PERMISSION, {
      param: 'override',
      hint: `Editing a paid document needs the ${REVISION_OVERRIDE_PERMISSION} permission.`,
    });
    overridden = true;
  }

  const newQuantity = patch.quantity ?? line.quantity;
  const floor = lineFloor(line);
  if (amount(newQuantity).lt(floor.value)) {
    throw new ApiError('line_quantity_below_floor', {
      param: 'quantity',
      details: { floor: toJsonNumber(floor.value, QUANTITY_SCALE), reason: floor.reason },
    });
  }
  if (patch.discount_amount !== undefined && patch.discount_percent !== undefined && patch.discount_percent !== null) {
    throw new ApiError('parameter_invalid', { param: 'discount_percent', hint: 'Send discount_amount or discount_percent, not both.' });
  }
  const override = resolveSellRate(patch, (name) => name);
  let sellRate = override ?? line.sell_rate;
  let listPrice = line.list_price;
  if (override === undefined && quantityChanges && !line.price_overridden) {
    // The line's product exists (a foreign key).
    const product = (await productsById(db, entityId, [line.product_id])).get(line.product_id)!;
    const [price] = await catalogPrices(db, entityId, order.document_type, order.account_id, [{ product, quantity: newQuantity }]);
    sellRate = price.sell_rate;
    listPrice = price.list_price;
  }
  const lineSubtotal = round(amount(sellRate).times(newQuantity));
  const discountAmount = patch.discount_amount ?? (patch.discount_percent !== undefined ? '0' : line.discount_amount);
  const discountPercent = patch.discount_amount !== undefined ? null : patch.discount_percent !== undefined ? patch.discount_percent : line.discount_percent;
  if (discountPercent === null && amount(discountAmount).gt(lineSubtotal)) {
    throw new ApiError('parameter_invalid', { param: 'discount_amount', hint: 'A line discount cannot exceed the line subtotal.' });
  }
  let taxRateId = line.tax_rate_id;
  let rate = line.tax_rate;
  if (patch.tax_rate_id !== undefined) {
    taxRateId = patch.tax_rate_id;
    rate = taxRateId ? checkedTaxRate(await taxRatesById(db, entityId, [taxRateId]), taxRateId, 'tax_rate_id') : null;
  }
  if (patch.drop_ship_vendor_id) checkVendor(await vendorIds(db, entityId, [patch.drop_ship_vendor_id]), patch.drop_ship_vendor_id, 'drop_ship_vendor_id');

  await db.query(
    `UPDATE order_lines SET quantity = $3, sell_rate = $4, list_price = $5, price_overridden = price_overridden OR $6, discount_amount = $7,
       discount_percent = $8, tax_rate_id = $9, tax_rate = $10, notes = $11, is_drop_ship = $12, drop_ship_vendor_id = $13,
       unit_cost = CASE WHEN $14 THEN $4::numeric ELSE unit_cost END, updated_at = now()
     WHERE entity_id = $1 AND id = $2`,
    [
      entityId,
      line.id,
      newQuantity,
      sellRate,
      listPrice,
      override !== undefined,
      discountPercent === null ? discountAmount : '0',
      discountPercent,
      taxRateId,
      rate,
      patch.notes !== undefined ? patch.notes : line.notes,
      patch.is_drop_ship ?? line.is_drop_ship,
      patch.drop_ship_vendor_id !== undefined ? patch.drop_ship_vendor_id : line.drop_ship_vendor_id,
      order.document_type === 'purchase_order',
    ],
  );
  await setLineUnitOfMeasure(db, entityId, order.document_type, line.id, patch.unit_of_measure_id, 'unit_of_measure_id');
  if (quantityChanges) {
    // A kit's component lines follow its quantity.
    await db.query(
      `UPDATE order_lines c SET quantity = round(k.quantity_per_kit * $3::numeric, 4), updated_at = now()
       FROM order_lines parent JOIN kit_components k ON k.entity_id = parent.entity_id AND k.parent_product_id = parent.product_id
       WHERE c.entity_id = $1 AND c.kit_parent_line_id = $2 AND parent.entity_id = $1 AND parent.id = $2 AND k.component_product_id = c.product_id`,
      [entityId, line.id, newQuantity],
    );
  }
  if (overridden) {
    const changes = Object.fromEntries(Object.entries(patch).filter(([key]) => key !== 'override' && key !== 'override_reason'));
    const { revision_count } = await db.one<{ revision_count: number }>(
      'UPDATE orders SET revision_count = revision_count + 1, updated_at = now() WHERE entity_id = $1 AND id = $2 RETURNING revision_count',
      [entityId, orderId],
    );
    await db.query(
      `INSERT INTO order_revisions (id, entity_id, order_id, line_id, user_id, api_key_id, reason, lock_reason, changes, revision_number)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [newId(), entityId, orderId, line.id, actor.userId, actor.keyId, patch.override_reason ?? null, lock!.reason, changes, revision_count],
    );
  } else {
    await db.query('UPDATE orders SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, orderId]);
  }
  if (quantityChanges) await refreshFulfillmentProgress(db, entityId, order);
  // The answer is the line, and the event carries the order's header (events leave lines out), so
  // only this line is rendered: a one-line edit of a 500-line order does not build 500 lines.
  const recalculated = await recalculateOrder(db, entityId, orderId);
  const edited = (await linesOf(db, entityId, [recalculated.order], [await lineRow(db, entityId, orderId, line.id, false)])).get(orderId)!;
  const after = toOrder(recalculated.order);
  const { lines: _l, adjustments: _a, ...beforeHeader } = order;
  const { lines: _l2, adjustments: _a2, ...afterHeader } = after;
  return {
    line: edited[0],
    order: after,
    previousOrder: previousAttributes(beforeHeader, afterHeader) as Partial<Order>,
    overridden,
  };
}

export async function deleteLine(db: Db, entityId: string, orderId: string, itemId: string): Promise<{ line: OrderLineItem; order: Order }> {
  const order = await getOrder(db, entityId, orderId, { lock: true });
  const row = await lineRow(db, entityId, orderId, itemId);
  const line = order.lines!.find((item) => item.id === row.id)!;
  const lock = documentLock(order);
  if (lock) throw lockedError(order, lock);
  if (!line.line_editability.delete.allowed) {
    if (row.drop_ship_po_id) {
      const po = await db.maybeOne('SELECT id, order_number, order_status FROM orders WHERE entity_id = $1 AND id = $2', [entityId, row.drop_ship_po_id]);
      throw new ApiError('dropship_po_issued_blocks_line_edit', { param: 'item_id', details: { linked_purchase_order: po } });
    }
    throw new ApiError('line_not_editable', {
      param: 'item_id',
      hint: 'This line cannot be deleted: it is a kit component, or part of it was fulfilled, returned or received.',
      details: { reason: line.line_editability.delete.reason },
    });
  }
  await db.query('DELETE FROM order_lines WHERE entity_id = $1 AND id = $2', [entityId, row.id]);
  await db.query('UPDATE orders SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, orderId]);
  await refreshFulfillmentProgress(db, entityId, order);
  return { line, order: await recalculatedOrder(db, entityId, orderId) };
}

/**
 * E17: soft delete of a draft or a quote without payments; anything else (confirmed, invoiced,
 * with payments) is 409 order_not_deletable: cancel it instead.
 */
export async function deleteOrder(db: Db, entityId: string, orderId: string): Promise<Order> {
  const order = await getOrder(db, entityId, orderId, { lock: true });
  const deletable = (order.order_status === 'draft' || order.document_type === 'quote') && order.amount_paid === 0 && order.payment_status === 'unpaid';
  if (!deletable) {
    throw new ApiError('order_not_deletable', {
      param: 'id',
      details: { current_status: order.order_status, payment_status: order.payment_status, document_type: order.document_type },
    });
  }
  await db.query('UPDATE orders SET deleted_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, order.id]);
  return order;
}

/**
 * E15: a new draft of the same document type with a fresh number and created_at, the same account,
 * location, metadata and lines (prices as on the source); no payment, fulfillment or drop-ship
 * history, no order-level adjustments, no provenance ids.
 */
export async function duplicateOrder(db: Db, actor: { entityId: string; userId: string }, orderId: string): Promise<Order> {
  const { entityId } = actor;
  const source = await getOrder(db, entityId, orderId, { lock: true });
  const id = newId();
  const number = formatNumber(ORDER_NUMBER_PREFIXES[source.document_type], await nextNumber(db, entityId, `order:${source.document_type}`));
  await db.query(
    `INSERT INTO orders (id, entity_id, order_number, document_type, customer_account_id, vendor_id, location_id, po_number, tax_exempt,
       delivery_option, notes, internal_notes, invoice_number, invoice_type, ship_complete, metadata, duplicated_from_id, created_by_user_id, sales_channel_id)
     SELECT $3, entity_id, $4, document_type, customer_account_id, vendor_id, location_id, po_number, tax_exempt, delivery_option, notes, internal_notes,
       CASE WHEN document_type = 'invoice' THEN $4 END, invoice_type, ship_complete, metadata, id, $5, sales_channel_id
     FROM orders WHERE entity_id = $1 AND id = $2`,
    [entityId, source.id, id, number, actor.userId],
  );
  const lines = await lineRows(db, entityId, [source.id]);
  const newIds = new Map(lines.map((line) => [line.id, newId()]));
  if (lines.length) {
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
        id,
        lines.map((line) => line.id),
        lines.map((line) => newIds.get(line.id)),
        lines.map((line) => (line.kit_parent_line_id ? newIds.get(line.kit_parent_line_id) : null)),
      ],
    );
  }
  return recalculatedOrder(db, entityId, id);
}

const ADJUSTABLE: readonly string[] = ['draft', 'confirmed'];

/** The acting user of an adjustment: created_by_user_id (an active user of the entity) or the key's user. */
export async function actingUserId(db: Db, actor: { entityId: string; userId: string }, createdByUserId: string | undefined): Promise<string> {
  if (!createdByUserId) return actor.userId;
  const user = await db.maybeOne<{ is_active: boolean }>('SELECT is_active FROM users WHERE entity_id = $1 AND id = $2', [actor.entityId, createdByUserId]);
  if (!user || !user.is_active) throw new ApiError('not_found', { param: 'created_by_user_id', hint: 'No such active user in this entity.' });
  return createdByUserId;
}

/**
 * The order-state rule of E2, shared by manual adjustments and coupons: the order is locked, found in
 * the entity (else 404 order_not_found, before anything else) and draft or open (confirmed); any
 * other status, and a posted invoice, is 422 order_not_adjustable with current_status.
 */
export async function lockAdjustableOrder(db: Db, entityId: string, orderId: string): Promise<Order> {
  const before = await getOrder(db, entityId, orderId, { lock: true, code: 'order_not_found' });
  const postedInvoice = before.document_type === 'invoice' && before.order_status !== 'draft';
  if (!ADJUSTABLE.includes(before.order_status) || postedInvoice) {
    throw new ApiError('order_not_adjustable', {
      param: 'id',
      hint: postedInvoice
        ? 'A posted invoice takes no adjustments; issue a credit or a correction instead.'
        : `Adjustments apply to draft or open (confirmed) orders; this order is ${before.order_status}.`,
      details: { current_status: before.order_status, document_type: before.document_type },
    });
  }
  return before;
}

/** E2: an order-level discount or fee on a draft or open (confirmed) order; totals follow at once. */
export async function createAdjustment(
  db: Db,
  actor: { entityId: string; userId: string },
  orderId: string,
  input: ManualAdjustment,
): Promise<{ adjustment: OrderAdjustment; order: Order; previousOrder: Partial<Order> }> {
  const { entityId } = actor;
  const before = await lockAdjustableOrder(db, entityId, orderId);
  if (input.discount_type === 'percentage' && amount(input.value).gt(100)) {
    throw new ApiError('parameter_invalid', { param: 'value', hint: 'A percentage is 0 to 100.' });
  }
  if (input.discount_type === 'fixed_amount' && amount(input.value).decimalPlaces() > 2) {
    throw new ApiError('parameter_invalid', { param: 'value', hint: 'A fixed amount has at most 2 decimal places.' });
  }
  const userId = await actingUserId(db, actor, input.created_by_user_id);
  const id = newId();
  await db.query(
    `INSERT INTO order_adjustments (id, entity_id, order_id, name, effect_type, discount_type, value, notes, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, entityId, before.id, input.name, input.effect_type, input.discount_type, input.value, input.notes ?? null, userId],
  );
  await db.query('UPDATE orders SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, before.id]);
  const order = await recalculatedOrder(db, entityId, before.id);
  const { lines: _l, adjustments: _a, ...beforeHeader } = before;
  const { lines: _l2, adjustments: _a2, ...afterHeader } = order;
  return {
    adjustment: order.adjustments!.find((a) => a.id === id)!,
    order,
    previousOrder: previousAttributes(beforeHeader, afterHeader) as Partial<Order>,
  };
}
