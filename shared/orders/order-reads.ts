/** Orders and lines as GET answers them, and the pieces expand and other modules load in bulk. */
import type { Db } from '../db/database';
import type { Page, PageRequest } from '../db/keyset';
import type { Order, OrderAdjustment, OrderLineItem } from './schemas/order';
import type { LockState } from './order-editability';
import { lineRow, lineRows, shareRows, type LineAdjustmentRow, type LineRow } from './order-line-store';
import { toAdjustment, toLine, toOrder } from './order-mapping';
import { adjustmentRows, orderRow, orderRowsPage, type LoadOptions, type OrderFilters } from './order-store';

/** Line items of the given orders (one query for lines, unless given, one for their adjustment shares), by order id. */
export async function linesOf(
  db: Db,
  entityId: string,
  orders: (LockState & { id: string })[],
  rows?: LineRow[],
  knownShares?: LineAdjustmentRow[],
): Promise<Map<string, OrderLineItem[]>> {
  const ids = orders.map((order) => order.id);
  // One connection per transaction: queries run one after the other.
  const lines = rows ?? (await lineRows(db, entityId, ids));
  const shares = knownShares ?? (await shareRows(db, entityId, ids));
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

/** The order as GET returns it: header, lines (with their adjustment shares) and adjustments. */
export async function getOrder(db: Db, entityId: string, orderId: string, options: LoadOptions = {}): Promise<Order> {
  const row = await orderRow(db, entityId, orderId, options);
  const lines = await linesOf(db, entityId, [row]);
  const adjustments = await adjustmentsOf(db, entityId, [row.id]);
  return toOrder(row, lines.get(row.id), adjustments.get(row.id));
}

/** The order's header only, without lines and adjustments. */
export async function getOrderHeader(db: Db, entityId: string, orderId: string, options: LoadOptions = {}): Promise<Order> {
  return toOrder(await orderRow(db, entityId, orderId, options));
}

export async function listOrders(db: Db, entityId: string, filters: OrderFilters, page: PageRequest): Promise<Page<Order>> {
  const result = await orderRowsPage(db, entityId, filters, page);
  return { ...result, data: result.data.map((row) => toOrder(row)) };
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
