/**
 * Recalculation: the one place totals are written. Every change of an order ends with
 * recalculateOrder() in the same transaction, so stored totals always equal what the pure engine
 * (totals.ts) computes from the lines and adjustments; the money figures (payment_status,
 * balance_due) then follow the new order_total through the one money writer (document-money.ts).
 */
import type { Db } from '../db/database';
import { newId } from '../ids';
import type { Order } from './schemas/order';
import { computeTotals } from './totals';
import { insertedDocumentMoneyAssignments, readDocumentFacts, settleDocumentMoney, type DocumentFacts } from './document-money';
import { LINE_COLUMNS, lineRows, type LineAdjustmentRow, type LineRow } from './order-line-store';
import { toAdjustment, toOrder } from './order-mapping';
import { linesOf } from './order-reads';
import { adjustmentRows, CURRENT_ORDER_COLUMNS, ORDER_COLUMNS, orderRow, type AdjustmentRow, type CurrentOrderRow, type OrderRow } from './order-store';

// The line columns the totals engine derives, in the order of the UPDATE's arrays below.
const DERIVED = ['pricing_rule_adjustment', 'line_subtotal', 'discount_amount', 'coupon_adjustment', 'tax_amount', 'line_total'] as const;

/**
 * An order inserted in this transaction, as its statements returned it: the header with its facts
 * (INSERTED_FACTS_COLUMNS) and its lines in the display order. It has no adjustments and no shares yet.
 */
export interface InsertedOrder {
  order: CurrentOrderRow & DocumentFacts;
  lines: LineRow[];
}

/**
 * Recalculates and stores the order's totals (lines, their adjustment shares, adjustments, header);
 * returns them as stored (header, lines, adjustments, and the shares when it knows them without
 * reading: none). Reads the header with its money facts, the lines and the adjustments (an order
 * inserted in this transaction is not read: its inserts returned it), writes everything the totals
 * decide with one statement, then settles the money figures from the facts it read (only
 * order_total changed among them). A new order whose lines went in with their derived values has
 * only its header to write: its totals and money figures (document-money.ts's assignments) go in
 * one UPDATE.
 */
export async function recalculateOrder(
  db: Db,
  entityId: string,
  orderId: string,
  inserted?: InsertedOrder,
): Promise<{ order: OrderRow; lines: LineRow[]; adjustments: AdjustmentRow[]; shares: LineAdjustmentRow[] | undefined }> {
  const [order] = inserted
    ? [{ ...inserted.order, has_adjustments: false }]
    : await readDocumentFacts<CurrentOrderRow & { has_adjustments: boolean }>(
        db,
        entityId,
        [orderId],
        `${CURRENT_ORDER_COLUMNS}, EXISTS (SELECT 1 FROM order_adjustments a WHERE a.entity_id = o.entity_id AND a.order_id = o.id) AS has_adjustments`,
      );
  if (!order) throw new Error(`recalculating order ${orderId}, which does not exist`);
  // In the display order (it decides where a proration's remainder cent goes); whole, as the answer shows them.
  const lines = inserted?.lines ?? (await lineRows(db, entityId, [orderId]));
  // Most orders have none: the header read says so, and they are read only when there are some.
  const adjustments = order.has_adjustments ? await adjustmentRows(db, entityId, [orderId]) : [];
  const kitLineIds = new Set(lines.map((line) => line.kit_parent_line_id).filter((id) => id !== null));
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
      is_kit: kitLineIds.has(line.id),
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
  const params: unknown[] = [entityId, orderId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const writes: string[] = [];
  // Line derived columns, of the lines whose values change (a one-line edit of a long order rewrites one row).
  const changed = lines.flatMap((line, index) => (DERIVED.some((field) => !totals.lines[index][field].eq(line[field])) ? [index] : []));
  if (changed.length) {
    const [ids, ...derived] = [
      changed.map((index) => lines[index].id),
      ...DERIVED.map((field) => changed.map((index) => totals.lines[index][field].toString())),
    ];
    writes.push(`changed_lines AS (UPDATE order_lines l SET pricing_rule_adjustment = v.pra, line_subtotal = v.sub, discount_amount = v.disc,
         coupon_adjustment = v.coupon, tax_amount = v.tax, line_total = v.total,
         updated_at = CASE WHEN (l.pricing_rule_adjustment, l.line_subtotal, l.discount_amount, l.tax_amount, l.line_total)
           IS DISTINCT FROM (v.pra, v.sub, v.disc, v.tax, v.total) THEN now() ELSE l.updated_at END
       FROM unnest(${param(ids)}::uuid[], ${derived.map((values) => `${param(values)}::numeric[]`).join(', ')}) AS v(id, pra, sub, disc, coupon, tax, total)
       WHERE l.entity_id = $1 AND l.id = v.id
       RETURNING ${LINE_COLUMNS})`);
  }
  // The line shares of order-level discounts are rebuilt from scratch: they follow the lines. New
  // shares take the keys (line, source) of old ones, so the old go first, by a statement of their own.
  const dropShares = `DELETE FROM line_adjustments WHERE entity_id = $1 AND order_id = $2 AND source_type IN ('order_adjustment', 'coupon')`;
  const shares = totals.lines.flatMap((t, index) => t.shares.map((share) => ({ share, line: lines[index] })));
  // A new order's lines have no shares to drop.
  if (!shares.length) {
    if (!inserted) writes.push(`dropped_shares AS (${dropShares})`);
  } else {
    await db.query(dropShares, [entityId, orderId]);
    const appliedAt = new Map(adjustments.map((a) => [a.id, a.created_at]));
    writes.push(`new_shares AS (INSERT INTO line_adjustments (id, entity_id, order_id, line_id, source_type, source_id, source_label, per_unit_amount,
         quantity, line_amount, proration_ratio, applied_at)
       SELECT v.id, $1, $2, v.line_id, v.source_type, v.source_id, v.label, v.per_unit, v.qty, v.amount, v.ratio, v.applied_at
       FROM unnest(${param(shares.map(() => newId()))}::uuid[], ${param(shares.map(({ line }) => line.id))}::uuid[],
         ${param(shares.map(({ share }) => share.coupon_id ?? share.adjustment_id))}::uuid[], ${param(shares.map(({ share }) => share.source_label))}::text[],
         ${param(shares.map(({ share }) => share.per_unit_amount.toString()))}::numeric[], ${param(shares.map(({ line }) => line.quantity))}::numeric[],
         ${param(shares.map(({ share }) => share.line_amount.toString()))}::numeric[], ${param(shares.map(({ share }) => share.proration_ratio.toString()))}::numeric[],
         ${param(shares.map(({ share }) => appliedAt.get(share.adjustment_id)))}::timestamptz[],
         ${param(shares.map(({ share }) => (share.coupon_id ? 'coupon' : 'order_adjustment')))}::text[])
         AS v(id, line_id, source_id, label, per_unit, qty, amount, ratio, applied_at, source_type))`);
  }
  if (adjustments.length) {
    writes.push(`adjusted AS (UPDATE order_adjustments a SET amount = v.amount
       FROM unnest(${param(totals.adjustments.map((a) => a.id))}::uuid[], ${param(totals.adjustments.map((a) => a.amount.toString()))}::numeric[])
         AS v(id, amount) WHERE a.entity_id = $1 AND a.id = v.id)`);
  }
  const header = `subtotal = ${param(totals.subtotal.toString())}, discount_total = ${param(totals.discount_total.toString())},
       shipping_total = ${param(totals.shipping_total.toString())}, tax_total = ${param(totals.tax_total.toString())},
       fee_total = ${param(totals.fee_total.toString())}, order_total = ${param(totals.order_total.toString())},
       list_price_total = ${param(totals.list_price_total.toString())}, pricing_savings = ${param(totals.pricing_savings.toString())}`;
  // The new order_total moves payment_status and balance_due (a discount below what was paid makes it overpaid).
  const facts = { ...order, order_total: totals.order_total.toString() };
  if (inserted && !writes.length) {
    // A new order whose lines went in as the totals derive them: its header takes the totals and the money figures with one statement.
    const [row] = await db.query<OrderRow & { live: boolean }>(
      `UPDATE orders o SET ${header}, ${insertedDocumentMoneyAssignments(facts, param)} WHERE o.entity_id = $1 AND o.id = $2
       RETURNING o.deleted_at IS NULL AS live, ${ORDER_COLUMNS}`,
      params,
    );
    return { order: withoutLive(row), lines, adjustments: [], shares: [] };
  }
  // The statement's parts touch different rows, so the order they run in does not matter. It answers the changed lines as stored.
  const rewritten = await db.query<LineRow>(
    `WITH ${writes.map((write) => `${write},`).join('\n')}
     header AS (UPDATE orders o SET ${header} WHERE o.entity_id = $1 AND o.id = $2)
     ${changed.length ? 'SELECT * FROM changed_lines' : 'SELECT NULL WHERE false'}`,
    params,
  );
  const stored = new Map(rewritten.map((line) => [line.id, line]));
  const settled = (await settleDocumentMoney(db, entityId, [orderId], undefined, [facts])).get(orderId);
  return {
    // The wire columns only: the stored payment figures behind amount_paid are not on the Order. A deleted order is not found.
    order: settled?.live ? withoutLive(settled) : await orderRow(db, entityId, orderId),
    lines: lines.map((line) => stored.get(line.id) ?? line),
    // The amounts written are cents, as stored.
    adjustments: adjustments.map((row, index) => ({ ...row, amount: totals.adjustments[index].amount.toString() })),
    // Every share of the order is an order-level discount's: none written is none there.
    shares: shares.length ? undefined : [],
  };
}

const withoutLive = ({ live: _live, ...row }: OrderRow & { live: boolean }): OrderRow => row;

/** recalculateOrder, then the order as GET returns it. */
export async function recalculatedOrder(db: Db, entityId: string, orderId: string, inserted?: InsertedOrder): Promise<Order> {
  const { order, lines, adjustments, shares } = await recalculateOrder(db, entityId, orderId, inserted);
  const items = await linesOf(db, entityId, [order], lines, shares);
  return toOrder(order, items.get(orderId), adjustments.map(toAdjustment));
}
