/**
 * What every movement of an order's goods shares: shipping a sales order (order-fulfillment.ts),
 * receiving a purchase order (purchase-receipts.ts), taking goods back on a return (order-returns.ts)
 * and receiving that return (order-return-receipts.ts). Each reads its request lines the same way
 * (pickLines: which lines, how much, each at most once; resolveLocation: where the goods go or come
 * from); the three that move stock raise quantity_fulfilled of the lines and of their kit's component
 * lines (raiseFulfilled), move the stock, post the change of the stock valuation between inventory
 * and its counterpart (inventory/stock-postings.ts), dated by their effective date (effectiveDate),
 * and record the lines' new quantity_fulfilled.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { checkLocation } from '../inventory/locations';
import { fulfillmentProgress } from './lifecycle-rules';
import { componentFulfilled } from './receipt-postings';
import { amount, QUANTITY_SCALE, toJsonNumber, type Amount, type AmountLike } from '../money';
import type { StockProduct } from '../inventory/stock-movements';
import { isoDateOf, todayUtc } from '../dates';

// ---------------------------------------------------------------------------------------------
// Which lines, how much, where

/** A request line of a goods movement. */
export interface RequestedLine {
  line_id: string;
  quantity: string;
}

/** How one kind of movement reads its request lines; the rest of the checks are shared. */
export interface LineRules<L> {
  /** The not_found hint of an unknown line_id ("No such line on this order."). */
  unknownHint: string;
  /** The parameter_invalid hint when a kit component line is named; absent where documents have none. */
  componentHint?: string;
  /** A further refusal of a line (after the shared checks, before its quantity is weighed). */
  refuse?: (line: L, param: string) => void;
  /** The most of the line this movement may take. */
  ceiling: (line: L) => Amount;
  /** The refusal of a quantity over the ceiling; param is `lines[i].quantity`. */
  exceeded: (param: string, line: L, ceiling: Amount) => ApiError;
}

export interface PickedLine<L, R> {
  line: L;
  quantity: Amount;
  /** `lines[i]`, where the request named it. */
  param: string;
  request: R;
}

/**
 * The order lines the request names, in request order, each with its quantity. Refuses, at the
 * first failing request line: an unknown line (404), a line named twice or a kit component line
 * (its kit's line is named; 400), the movement's own refusal, a quantity over the ceiling.
 */
export function pickLines<L extends { id: string; kit_parent_line_id?: string | null }, R extends RequestedLine>(
  rows: readonly L[],
  requested: readonly R[],
  rules: LineRules<L>,
): PickedLine<L, R>[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const seen = new Set<string>();
  return requested.map((request, index) => {
    const param = `lines[${index}]`;
    const line = byId.get(request.line_id);
    if (!line) throw new ApiError('not_found', { param: `${param}.line_id`, hint: rules.unknownHint });
    if (seen.has(line.id)) throw new ApiError('parameter_invalid', { param: `${param}.line_id`, hint: 'Name each line once.' });
    seen.add(line.id);
    if (rules.componentHint !== undefined && line.kit_parent_line_id) {
      throw new ApiError('parameter_invalid', { param: `${param}.line_id`, hint: rules.componentHint });
    }
    rules.refuse?.(line, param);
    const quantity = amount(request.quantity);
    const ceiling = rules.ceiling(line);
    if (quantity.gt(ceiling)) throw rules.exceeded(`${param}.quantity`, line, ceiling);
    return { line, quantity, param, request };
  });
}

/** What is left to ship or receive of a line. */
export const unfulfilled = (line: { quantity: AmountLike; quantity_fulfilled: AmountLike }): Amount => amount(line.quantity).minus(line.quantity_fulfilled);

/** The refusal of more than is left of a line (details.remaining), under the movement's code. */
export const overRemaining =
  (code: 'order_over_fulfillment' | 'order_over_receipt', hint?: string) =>
  (param: string, line: { id: string }, remaining: Amount): ApiError =>
    new ApiError(code, { param, hint, details: { line_id: line.id, remaining: toJsonNumber(remaining, QUANTITY_SCALE) } });

/**
 * Where the goods go or come from: the requested location (404 when it is not in the entity), else
 * the document's. With `missingHint`, having neither is 400 parameter_missing on location_id.
 */
export async function resolveLocation(db: Db, entityId: string, requested: string | undefined, fallback: string | null): Promise<string | null>;
export async function resolveLocation(db: Db, entityId: string, requested: string | undefined, fallback: string | null, missingHint: string): Promise<string>;
export async function resolveLocation(
  db: Db,
  entityId: string,
  requested: string | undefined,
  fallback: string | null,
  missingHint?: string,
): Promise<string | null> {
  if (requested) await checkLocation(db, entityId, requested);
  const locationId = requested ?? fallback;
  if (!locationId && missingHint !== undefined) throw new ApiError('parameter_missing', { param: 'location_id', hint: missingHint });
  return locationId;
}

/** Simple products and kits without component lines (built stock) move stock; services and bundles do not. */
export const movesStock = (line: { product_type: string }) => line.product_type === 'simple' || line.product_type === 'kit';

interface FulfillableLine {
  id: string;
  kit_parent_line_id?: string | null;
  quantity: AmountLike;
  quantity_fulfilled: AmountLike;
}

/**
 * The new quantity_fulfilled of each picked line and of its kit's component lines, and the units
 * each line moves. A kit's line moves nothing itself: its component lines are what move, each in
 * proportion to the kits (componentFulfilled: the last movement takes whatever is left, so rounding
 * never strands a remainder); any other line moves its quantity.
 */
export function raiseFulfilled<L extends FulfillableLine>(
  rows: readonly L[],
  picks: readonly { line: L; quantity: Amount; param: string }[],
): { raised: Map<string, Amount>; moves: { line: L; quantity: Amount; param: string }[] } {
  const raised = new Map<string, Amount>();
  const moves: { line: L; quantity: Amount; param: string }[] = [];
  for (const { line, quantity, param } of picks) {
    const total = amount(line.quantity_fulfilled).plus(quantity);
    raised.set(line.id, total);
    const components = rows.filter((row) => row.kit_parent_line_id === line.id);
    if (components.length === 0) {
      moves.push({ line, quantity, param });
      continue;
    }
    for (const component of components) {
      const next = componentFulfilled(component, { quantity: line.quantity, fulfilledAfter: total }, quantity);
      const share = next.minus(component.quantity_fulfilled);
      raised.set(component.id, next);
      if (share.gt(0)) moves.push({ line: component, quantity: share, param });
    }
  }
  return { raised, moves };
}

// ---------------------------------------------------------------------------------------------
// Stock, cost and progress

/** The stock view of an order line's product, as postMovement takes it. */
export function stockProductOf(line: {
  product_id: string;
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
}): StockProduct {
  return { id: line.product_id, product_type: line.product_type, uom_id: line.uom_id, cost: line.cost, reorder_point: line.reorder_point };
}

/**
 * The date a shipment or a return receipt takes effect, which dates its journal entry: the
 * requested date, default today (UTC); never before the document's own date (400 on `param`).
 * A date in a closed period is refused when the entry posts (422 period_closed).
 */
export function effectiveDate(requested: string | undefined, documentDate: Date | string, param: string): string {
  const date = requested ?? todayUtc();
  const own = isoDateOf(documentDate);
  if (date < own) throw new ApiError('parameter_invalid', { param, hint: `The date cannot be before the document's own date (${own}).` });
  return date;
}

/**
 * The stock movement's occurred_at for an effective date: now when it is today, else the start of
 * that day (UTC), so demand and run rates count a backdated movement on its own date.
 */
export const occurredAtOf = (date: string): string => (date === todayUtc() ? new Date().toISOString() : `${date}T00:00:00.000Z`);

/** Sets quantity_fulfilled of the given lines (line id → new value) in one statement. */
export async function setQuantitiesFulfilled(db: Db, entityId: string, quantities: Map<string, Amount>): Promise<void> {
  await db.query(
    `UPDATE order_lines l SET quantity_fulfilled = v.q, updated_at = now() FROM unnest($2::uuid[], $3::numeric[]) AS v(id, q)
     WHERE l.entity_id = $1 AND l.id = v.id`,
    [entityId, [...quantities.keys()], [...quantities.values()].map((value) => value.toString())],
  );
}

/**
 * Moves the order's order_status and fulfillment_status by its lines' quantity_fulfilled after
 * `raised` (line id → new value); kit component lines follow their kit's line and do not count.
 */
export async function recordFulfillmentProgress(
  db: Db,
  entityId: string,
  orderId: string,
  rows: readonly { id: string; quantity: AmountLike; quantity_fulfilled: AmountLike; kit_parent_line_id?: string | null }[],
  raised: Map<string, Amount>,
): Promise<ReturnType<typeof fulfillmentProgress>> {
  const progress = fulfillmentProgress(
    rows.filter((row) => !row.kit_parent_line_id).map((row) => ({ quantity: row.quantity, quantity_fulfilled: raised.get(row.id) ?? row.quantity_fulfilled })),
  );
  await db.query(`UPDATE orders SET order_status = $3, fulfillment_status = $4, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
    entityId,
    orderId,
    progress.order_status,
    progress.fulfillment_status,
  ]);
  return progress;
}
