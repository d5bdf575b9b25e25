/**
 * Vendor bills from purchase orders: the three-way match (order, receipt, bill) and what posting
 * such a bill clears.
 *
 * A purchase order line keeps `billed_quantity`: the units on bills that are not voided (drafts
 * included, so two drafts cannot bill the same received unit). Every change to it happens under
 * the purchase order's row lock, then its lines' (the order receipts take them in), so a bill and
 * a receipt of one order queue. The match: a line is billed at most quantity_fulfilled (units
 * received) − billed_quantity, else 422 bill_quantity_exceeds_received naming the line and the
 * quantities, and nothing is written.
 *
 * Posting clears received_not_billed at the cost the receipts were booked at: the line's pool of
 * received-not-billed cost (received_cost − what posted bills already cleared) in proportion to
 * the units billed out of the units in the pool, rounded half away from zero to the cent; the last
 * units of a pool take what is left, so a line's clearings add up to its received cost. Lines
 * whose receipts posted nothing (services, bundles) have no pool: they post like an item line
 * without a purchase order (cost of goods sold).
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { amount, MONEY_SCALE, QUANTITY_SCALE, round, toJsonNumber, ZERO, type Amount } from '../money';
import { itemLineAmount } from './bill-rules';
import { withStockFacts, type StockFacts } from '../catalog/product-facts';
import { addBilledQuantities, lockPurchaseOrderHead, purchaseOrderLines, type PurchaseOrderHead, type PurchaseOrderLine } from '../orders/purchase-order-lines';

export type PoLineRow = PurchaseOrderLine & StockFacts;

/** The line a bill stores for a purchase order line (the shape vendor-bills.ts inserts). */
export interface PoBillLine {
  type: 'item';
  account_id: null;
  product_id: string;
  quantity: string;
  unit_cost: string;
  amount: string;
  description: string | null;
  po_line_id: string;
}

/** An item line of a request that names a purchase order line; quantity, product and cost are optional. */
export interface PoLineRequest {
  po_line_id: string;
  product_id?: string;
  quantity?: string;
  unit_cost?: string;
  description?: string | null;
}

/** Locks the purchase order row (else 404 on `param`), then its lines, in the order receipts lock them. */
export async function lockPurchaseOrder(db: Db, entityId: string, poId: string, param: string): Promise<{ po: PurchaseOrderHead; lines: PoLineRow[] }> {
  const po = await lockPurchaseOrderHead(db, entityId, poId, param);
  const lines = await withStockFacts(db, entityId, await purchaseOrderLines(db, entityId, poId, { lock: true }));
  return { po, lines };
}

/** 422 purchase_order_vendor_mismatch unless the bill's vendor is the purchase order's. */
export function requireSameVendor(po: PurchaseOrderHead, vendorId: string, param: string): void {
  if (po.vendor_id === vendorId) return;
  throw new ApiError('purchase_order_vendor_mismatch', {
    param,
    hint: `Purchase order ${po.order_number} is from vendor ${po.vendor_id}; bill it to that vendor.`,
    details: { po_id: po.id, po_vendor_id: po.vendor_id },
  });
}

const billable = (line: PoLineRow): Amount => amount(line.quantity_fulfilled).minus(line.billed_quantity);

/** What a bill's unit cost defaults to: the purchase order line's unit cost (its price to the vendor). */
const defaultUnitCost = (line: PoLineRow): string => amount(line.unit_cost ?? line.sell_rate).toString();

function overBilled(line: PoLineRow, requested: Amount, param: string, alreadyBilled: Amount): ApiError {
  const received = amount(line.quantity_fulfilled);
  return new ApiError('bill_quantity_exceeds_received', {
    param,
    hint: `Purchase order line ${line.id} received ${received.toString()} and ${alreadyBilled.toString()} are billed already: at most ${received.minus(alreadyBilled).toString()} more can be billed.`,
    details: {
      po_line_id: line.id,
      received_quantity: toJsonNumber(received, QUANTITY_SCALE),
      billed_quantity: toJsonNumber(alreadyBilled, QUANTITY_SCALE),
      requested_quantity: toJsonNumber(requested, QUANTITY_SCALE),
    },
  });
}

/**
 * Lines of a new bill from every line of the purchase order with received units not billed yet.
 * 422 purchase_order_nothing_to_bill when there are none.
 */
export function linesFromPurchaseOrder(po: PurchaseOrderHead, lines: PoLineRow[]): PoBillLine[] {
  const open = lines.filter((line) => billable(line).gt(0));
  if (open.length === 0) {
    throw new ApiError('purchase_order_nothing_to_bill', {
      param: 'po_id',
      hint: `Purchase order ${po.order_number} has no received units that are not billed yet.`,
      details: { po_id: po.id },
    });
  }
  return open.map((line) => {
    const quantity = billable(line).toString();
    const unitCost = defaultUnitCost(line);
    return {
      type: 'item',
      account_id: null,
      product_id: line.product_id,
      quantity,
      unit_cost: unitCost,
      amount: itemLineAmount(quantity, unitCost),
      description: null,
      po_line_id: line.id,
    };
  });
}

/**
 * Checks requested lines against their purchase order lines (locked by lockPurchaseOrder) and
 * fills in what they leave out. `prefix(i)` names the line in the request. Several requests on
 * one purchase order line add up against its billable units.
 */
export function matchRequestedLines(lines: PoLineRow[], requests: { index: number; request: PoLineRequest; prefix: string }[]): Map<number, PoBillLine> {
  const byId = new Map(lines.map((line) => [line.id, line]));
  const taken = new Map<string, Amount>();
  const result = new Map<number, PoBillLine>();
  for (const { index, request, prefix } of requests) {
    const line = byId.get(request.po_line_id);
    if (!line) throw new ApiError('not_found', { param: `${prefix}po_line_id`, hint: "No such line on the bill's purchase order." });
    if (request.product_id !== undefined && request.product_id !== line.product_id) {
      throw new ApiError('parameter_invalid', {
        param: `${prefix}product_id`,
        hint: `Purchase order line ${line.id} is for product ${line.product_id}; leave product_id out or send that product.`,
      });
    }
    const already = amount(line.billed_quantity).plus(taken.get(line.id) ?? ZERO);
    const left = amount(line.quantity_fulfilled).minus(already);
    const requested = request.quantity === undefined ? left : amount(request.quantity);
    if (requested.lte(0) || requested.gt(left)) throw overBilled(line, requested, `${prefix}quantity`, already);
    taken.set(line.id, (taken.get(line.id) ?? ZERO).plus(requested));
    const unitCost = request.unit_cost ?? defaultUnitCost(line);
    result.set(index, {
      type: 'item',
      account_id: null,
      product_id: line.product_id,
      quantity: requested.toString(),
      unit_cost: unitCost,
      amount: itemLineAmount(requested, unitCost),
      description: request.description ?? null,
      po_line_id: line.id,
    });
  }
  return result;
}

/**
 * Changes the quantity of a bill line that bills a purchase order line from `before` to `after`,
 * checked against received − billed by the other bills (the line's own units count as free).
 */
export async function rebillQuantity(db: Db, entityId: string, billPoId: string, poLineId: string, before: string, after: string): Promise<void> {
  const { lines } = await lockPurchaseOrder(db, entityId, billPoId, 'id');
  const line = lines.find((candidate) => candidate.id === poLineId)!;
  const others = amount(line.billed_quantity).minus(before);
  if (amount(after).gt(amount(line.quantity_fulfilled).minus(others))) throw overBilled(line, amount(after), 'quantity', others);
  await addBilledQuantities(db, entityId, [{ po_line_id: poLineId, quantity: amount(after).minus(before).toString() }]);
}

interface BillPoLine {
  id: string;
  po_line_id: string;
  quantity: string;
}

/**
 * At posting: locks the bill's purchase order and records on each of its purchase-order item
 * lines the received-not-billed amount it clears (receipt_cost; null for lines whose receipts
 * posted nothing). Re-checks the match against the posted bills, in case units went back.
 */
export async function settleReceiptCosts(db: Db, entityId: string, billId: string, poId: string | null): Promise<void> {
  if (!poId) return;
  const billLines = await db.query<BillPoLine>(
    `SELECT id, po_line_id, quantity FROM vendor_bill_lines WHERE entity_id = $1 AND bill_id = $2 AND po_line_id IS NOT NULL ORDER BY sort_order, created_at, id`,
    [entityId, billId],
  );
  if (billLines.length === 0) return;
  const { lines } = await lockPurchaseOrder(db, entityId, poId, 'id');
  const byId = new Map(lines.map((line) => [line.id, line]));
  // What posted bills (not voided) already billed and cleared, per purchase order line.
  const posted = await db.query<{ po_line_id: string; quantity: string; cleared: string }>(
    `SELECT bl.po_line_id, sum(bl.quantity) AS quantity, sum(coalesce(bl.receipt_cost, 0)) AS cleared
       FROM vendor_bill_lines bl JOIN vendor_bills b ON b.entity_id = bl.entity_id AND b.id = bl.bill_id
      WHERE bl.entity_id = $1 AND bl.po_line_id = ANY($2::uuid[]) AND b.journal_entry_id IS NOT NULL AND b.status <> 'voided' AND b.id <> $3
      GROUP BY bl.po_line_id`,
    [entityId, [...new Set(billLines.map((line) => line.po_line_id))], billId],
  );
  const pools = new Map(posted.map((row) => [row.po_line_id, { quantity: amount(row.quantity), cleared: amount(row.cleared) }]));
  const costs: { id: string; cost: string | null }[] = [];
  for (const billLine of billLines) {
    const line = byId.get(billLine.po_line_id)!;
    const pool = pools.get(line.id) ?? { quantity: ZERO, cleared: ZERO };
    const poolQuantity = amount(line.quantity_fulfilled).minus(pool.quantity);
    const quantity = amount(billLine.quantity);
    if (quantity.gt(poolQuantity)) throw overBilled(line, quantity, 'id', pool.quantity);
    const costed = line.drop_ship_source_line_id !== null || line.product_type === 'simple' || line.product_type === 'kit';
    let cost: Amount | null = null;
    if (costed) {
      const poolCost = amount(line.received_cost).minus(pool.cleared);
      cost = round(quantity.eq(poolQuantity) ? poolCost : poolCost.times(quantity).dividedBy(poolQuantity), MONEY_SCALE);
      if (cost.lt(0)) cost = ZERO;
    }
    pools.set(line.id, { quantity: pool.quantity.plus(quantity), cleared: pool.cleared.plus(cost ?? ZERO) });
    costs.push({ id: billLine.id, cost: cost === null ? null : cost.toString() });
  }
  await db.query(
    `UPDATE vendor_bill_lines bl SET receipt_cost = v.cost, updated_at = now()
       FROM unnest($2::uuid[], $3::numeric[]) AS v(id, cost) WHERE bl.entity_id = $1 AND bl.id = v.id`,
    [entityId, costs.map((row) => row.id), costs.map((row) => row.cost)],
  );
}

/** At void: the bill's purchase-order units are billable again. */
export async function releaseBilledQuantities(db: Db, entityId: string, billId: string, poId: string | null): Promise<void> {
  if (!poId) return;
  await lockPurchaseOrder(db, entityId, poId, 'id');
  const lines = await db.query<{ po_line_id: string; quantity: string }>(
    'SELECT po_line_id, quantity FROM vendor_bill_lines WHERE entity_id = $1 AND bill_id = $2 AND po_line_id IS NOT NULL',
    [entityId, billId],
  );
  await addBilledQuantities(
    db,
    entityId,
    lines.map((line) => ({ po_line_id: line.po_line_id, quantity: amount(line.quantity).negated().toString() })),
  );
}
