/** Rows to wire shapes: numeric text becomes JSON numbers at the schema's scale, timestamps ISO strings. */
import { PRICE_SCALE, QUANTITY_SCALE, toJsonNumber, toNullableJsonNumber } from '../money';
import type { Order, OrderAdjustment, OrderLineItem } from './schemas/order';
import { amountDue } from './totals';
import { lineEditability, type LockState } from './order-editability';
import type { LineAdjustmentRow, LineRow } from './order-line-store';
import { MONEY_FIELDS, type AdjustmentRow, type OrderRow } from './order-store';
import { isoTimestamp } from '../dates';

export function toOrder(row: OrderRow, lines?: OrderLineItem[], adjustments?: OrderAdjustment[]): Order {
  const order: Record<string, unknown> = { ...row };
  for (const field of MONEY_FIELDS) order[field] = toJsonNumber(row[field]);
  order.amount_due = toJsonNumber(amountDue(row.order_total, row.amount_paid));
  order.order_date = isoTimestamp(row.order_date);
  order.due_date = row.due_date === null ? null : isoTimestamp(row.due_date);
  order.archived_at = row.archived_at == null ? null : isoTimestamp(row.archived_at);
  order.expires_at = row.expires_at == null ? null : isoTimestamp(row.expires_at);
  order.sent_at = row.sent_at === null || row.sent_at === undefined ? null : isoTimestamp(row.sent_at);
  order.created_at = isoTimestamp(row.created_at);
  order.updated_at = isoTimestamp(row.updated_at);
  if (lines) order.lines = lines;
  if (adjustments) order.adjustments = adjustments;
  return order as Order;
}

export const toAdjustment = (row: AdjustmentRow): OrderAdjustment => ({
  ...row,
  object: 'order_adjustment',
  value: toJsonNumber(row.value, 4),
  amount: toJsonNumber(row.amount),
  created_at: isoTimestamp(row.created_at),
  updated_at: isoTimestamp(row.updated_at),
});

/** A line with its adjustment shares; its editability depends on the order's state. */
export function toLine(order: LockState, row: LineRow, shares: LineAdjustmentRow[]): OrderLineItem {
  const { price_overridden: _p, tax_rate: _t, ...rest } = row;
  return {
    ...rest,
    object: 'order_line_item',
    quantity: toJsonNumber(row.quantity, QUANTITY_SCALE),
    quantity_fulfilled: toJsonNumber(row.quantity_fulfilled, QUANTITY_SCALE),
    quantity_returned: toJsonNumber(row.quantity_returned, QUANTITY_SCALE),
    received_floor: toJsonNumber(row.received_floor, QUANTITY_SCALE),
    billed_quantity: toJsonNumber(row.billed_quantity, QUANTITY_SCALE),
    line_editability: lineEditability(order, row),
    sell_rate: toJsonNumber(row.sell_rate, PRICE_SCALE),
    unit_price: toJsonNumber(row.sell_rate, PRICE_SCALE),
    list_price: toJsonNumber(row.list_price, PRICE_SCALE),
    pricing_rule_adjustment: toJsonNumber(row.pricing_rule_adjustment, PRICE_SCALE),
    coupon_adjustment: toJsonNumber(row.coupon_adjustment),
    discount_amount: toJsonNumber(row.discount_amount),
    discount_percent: toNullableJsonNumber(row.discount_percent, 4),
    line_subtotal: toJsonNumber(row.line_subtotal),
    tax_amount: toJsonNumber(row.tax_amount),
    line_total: toJsonNumber(row.line_total),
    unit_cost: toNullableJsonNumber(row.unit_cost, PRICE_SCALE),
    weight: toNullableJsonNumber(row.weight, QUANTITY_SCALE),
    adjustments: shares.map((share) => ({
      id: share.id,
      source_type: share.source_type,
      source_id: share.source_id,
      source_label: share.source_label,
      per_unit_amount: toJsonNumber(share.per_unit_amount, PRICE_SCALE),
      quantity: toJsonNumber(share.quantity, QUANTITY_SCALE),
      line_amount: toJsonNumber(share.line_amount),
      proration_ratio: toJsonNumber(share.proration_ratio, 10),
      applied_at: isoTimestamp(share.applied_at),
    })),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}
