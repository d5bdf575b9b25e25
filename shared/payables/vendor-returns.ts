/**
 * Vendor returns: received goods of a purchase order go back to the vendor and earn a vendor
 * credit. The design (docs/decisions.md, "Vendor returns"):
 *
 * - each line takes at most what its purchase order line received less what earlier returns took
 *   (422 vendor_return_exceeds_received); the purchase order row is locked first, so returns (and
 *   receipts) of one order queue and the second sees what the first returned;
 * - the units leave through postMovement as a vendor_return transaction, drawing the location's
 *   FIFO layers: the inventory cost C is the cents those layers gave up (the change of the stock
 *   valuation, so the inventory account keeps tying to it);
 * - the credit A is the purchase order line's unit cost × quantity (what the vendor bills per
 *   unit), issued through createCredit (source_type vendor_return, source_id the return), which
 *   posts debit vendor_returns_receivable A, credit vendor_credits A;
 * - the return's own entry: debit cost_of_goods_sold A, credit inventory C, and A − C to
 *   purchase_price_variance (credit when positive, debit when negative). Applying the credit later
 *   credits cost_of_goods_sold A (credit-postings.ts), so once applied the goods' cost has left
 *   inventory against the payable and only the variance stays in P&L; a voided or expired credit
 *   leaves the whole C expensed (A in cost_of_goods_sold, the rest in the variance).
 *
 * So vendor_returns_receivable and vendor_credits keep equalling Σ remaining_amount.
 */
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { entityFilters } from '../db/sql';
import { formatNumber, nextNumber } from '../db/sequences';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { amount, MONEY_SCALE, QUANTITY_SCALE, round, toJsonNumber, ZERO, type Amount } from '../money';
import { postJournalEntry, type PostingContext, type PostingLine } from '../ledger/post-journal-entry';
import { COST_SCALE } from '../inventory/schemas/inventory';
import { lockBalances, postMovement } from '../inventory/stock-movements';
import { movesStock, pickLines, resolveLocation, stockProductOf } from '../orders/order-goods';
import { archivedError } from '../orders/order-store';
import { fulfilledQuantities, lockPurchaseOrderHead, orderNumbers, purchaseOrderLines, type PurchaseOrderLine } from '../orders/purchase-order-lines';
import { withStockFacts, type StockFacts } from '../catalog/product-facts';
import { createCredit } from './vendor-credits';
import type { VendorReturn, VendorReturnCreate } from './schemas/vendor-return';
import { openOrderQuantitiesSql } from '../orders/open-order-quantities';

type WireReturn = Omit<VendorReturn, 'livemode'>;

interface Actor extends PostingContext {
  userId: string;
}

type ReturnableLine = PurchaseOrderLine & StockFacts & { returned: string };

/** Purchase order line id → the units vendor returns took back from it. */
async function returnedQuantities(db: Db, entityId: string, lineIds: string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ order_line_id: string; returned: string }>(
    `SELECT order_line_id, sum(quantity) AS returned FROM vendor_return_lines WHERE entity_id = $1 AND order_line_id = ANY($2::uuid[]) GROUP BY order_line_id`,
    [entityId, lineIds],
  );
  return new Map(rows.map((row) => [row.order_line_id, row.returned]));
}

const returnable = (line: ReturnableLine): Amount => amount(line.quantity_fulfilled).minus(line.returned);

/**
 * The return's entry: debit cost_of_goods_sold the credit, credit inventory the cents the FIFO draws
 * took from the valuation, the difference to purchase_price_variance. Empty when both are 0.
 */
function returnPostingLines(creditAmount: Amount, inventoryCost: Amount, memo: string): PostingLine[] {
  const credit = round(creditAmount, MONEY_SCALE);
  const cost = inventoryCost;
  const lines: PostingLine[] = [];
  if (credit.gt(0)) lines.push({ system_key: 'cost_of_goods_sold', debit: credit.toString(), memo });
  if (cost.gt(0)) lines.push({ system_key: 'inventory', credit: cost.toString(), memo });
  const variance = credit.minus(cost);
  if (variance.gt(0)) lines.push({ system_key: 'purchase_price_variance', credit: variance.toString(), memo });
  if (variance.lt(0)) lines.push({ system_key: 'purchase_price_variance', debit: variance.negated().toString(), memo });
  return lines;
}

/** Returns received goods of a purchase order to its vendor (POST /v1/orders/{id}/vendor-returns). */
export async function createVendorReturn(db: Db, actor: Actor, orderId: string, input: VendorReturnCreate): Promise<WireReturn> {
  const { entityId } = actor;
  const order = await lockPurchaseOrderHead(db, entityId, orderId, 'id');
  if (order.is_archived) throw archivedError();
  const orderLines = await withStockFacts(db, entityId, await purchaseOrderLines(db, entityId, order.id, { lock: false }));
  const returned = await returnedQuantities(
    db,
    entityId,
    orderLines.map((line) => line.id),
  );
  const rows: ReturnableLine[] = orderLines.map((line) => ({ ...line, returned: returned.get(line.id) ?? '0' }));
  const picked = pickLines(rows, input.lines, {
    unknownHint: 'No such line on this purchase order.',
    refuse: (line, param) => {
      if (line.drop_ship_source_line_id) {
        throw new ApiError('parameter_invalid', {
          param: `${param}.line_id`,
          hint: 'A drop-shipped line never put goods in stock; credit the vendor with POST /v1/vendor-credits instead.',
        });
      }
      if (!movesStock(line)) {
        throw new ApiError('parameter_invalid', { param: `${param}.line_id`, hint: 'Only stocked products are returned to the vendor.' });
      }
    },
    ceiling: returnable,
    exceeded: (param, line, ceiling) =>
      new ApiError('vendor_return_exceeds_received', {
        param,
        hint: `The line received ${amount(line.quantity_fulfilled).toString()} and ${amount(line.returned).toString()} went back already: at most ${ceiling.toString()} can be returned.`,
        details: {
          line_id: line.id,
          quantity_received: toJsonNumber(line.quantity_fulfilled, QUANTITY_SCALE),
          quantity_returned: toJsonNumber(line.returned, QUANTITY_SCALE),
          quantity_requested: toJsonNumber(input.lines[Number(/\d+/.exec(param)![0])].quantity, QUANTITY_SCALE),
          returnable: toJsonNumber(ceiling, QUANTITY_SCALE),
        },
      }),
  });
  const planned = [];
  for (const pick of picked) {
    const locationId = await resolveLocation(
      db,
      entityId,
      pick.request.location_id ?? input.location_id,
      order.location_id,
      'The purchase order has no location; say where the goods leave from.',
    ).catch((error: unknown) => {
      if (error instanceof ApiError) throw new ApiError(error.code, { ...error.options, param: `${pick.param}.location_id` });
      throw error;
    });
    const unitCredit = amount(pick.line.unit_cost ?? pick.line.sell_rate);
    planned.push({ ...pick, locationId, unitCredit, credit: round(pick.quantity.times(unitCredit), MONEY_SCALE) });
  }

  const returnId = newId();
  const returnNumber = formatNumber('VR-', await nextNumber(db, entityId, 'vendor_return'));
  const returnedAt = input.returned_at ? new Date(input.returned_at).toISOString() : new Date().toISOString();
  const balances = await lockBalances(
    db,
    entityId,
    planned.map((plan) => ({ product_id: plan.line.product_id, location_id: plan.locationId })),
  );
  const moved = [];
  for (const plan of planned) {
    const posted = await postMovement(
      db,
      entityId,
      actor.events,
      balances,
      {
        product: stockProductOf(plan.line),
        location_id: plan.locationId,
        transaction_type: 'vendor_return',
        quantity: plan.quantity.negated(),
        param: `${plan.param}.quantity`,
        reference_type: 'vendor_return',
        reference_id: returnId,
        group_id: returnId,
        reason: input.reason ?? null,
        metadata: { order_number: order.order_number, line_id: plan.line.id, return_number: returnNumber },
        occurred_at: returnedAt,
      },
      openOrderQuantitiesSql,
    );
    moved.push({ ...plan, transactionId: posted.transaction.id, cost: posted.value_change.negated() });
  }
  const creditAmount = moved.reduce((sum, plan) => sum.plus(plan.credit), ZERO);
  const inventoryCost = moved.reduce((sum, plan) => sum.plus(plan.cost), ZERO);
  const lines = returnPostingLines(creditAmount, inventoryCost, `${returnNumber} ${order.order_number}`);
  const returnDate = returnedAt.slice(0, 10);
  const entry = lines.length
    ? await postJournalEntry(
        db,
        actor,
        {
          entry_date: returnDate,
          memo: `Vendor return ${returnNumber} of ${order.order_number}`,
          source_type: 'vendor_return',
          source_id: returnId,
          lines,
        },
        { dateParam: 'returned_at' },
      )
    : null;

  await db.query(
    `INSERT INTO vendor_returns (id, entity_id, return_number, order_id, vendor_id, returned_at, credit_amount, inventory_cost, journal_entry_id, reason,
       metadata, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      returnId,
      entityId,
      returnNumber,
      order.id,
      order.vendor_id,
      returnedAt,
      creditAmount.toString(),
      inventoryCost.toString(),
      entry?.id ?? null,
      input.reason ?? null,
      input.metadata ?? {},
      actor.userId,
    ],
  );
  await db.query(
    `INSERT INTO vendor_return_lines (id, entity_id, vendor_return_id, order_line_id, product_id, location_id, quantity, unit_credit, inventory_cost,
       inventory_transaction_id, sort_order)
     SELECT v.id, $1, $2, v.line_id, v.product_id, v.location_id, v.quantity, v.unit_credit, v.cost, v.transaction_id, v.ord
       FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::numeric[], $8::numeric[], $9::numeric[], $10::uuid[]) WITH ORDINALITY
            AS v(id, line_id, product_id, location_id, quantity, unit_credit, cost, transaction_id, ord)`,
    [
      entityId,
      returnId,
      moved.map(() => newId()),
      moved.map((plan) => plan.line.id),
      moved.map((plan) => plan.line.product_id),
      moved.map((plan) => plan.locationId),
      moved.map((plan) => plan.quantity.toString()),
      moved.map((plan) => plan.unitCredit.toString()),
      moved.map((plan) => plan.cost.toString()),
      moved.map((plan) => plan.transactionId),
    ],
  );
  if (creditAmount.gt(0)) {
    const credit = await createCredit(
      db,
      actor,
      {
        vendor_id: order.vendor_id!,
        amount: creditAmount.toFixed(MONEY_SCALE),
        source_id: returnId,
        credit_date: returnDate,
        memo: `Vendor return ${returnNumber} of ${order.order_number}`,
      },
      { sourceType: 'vendor_return' },
    );
    await db.query('UPDATE vendor_returns SET vendor_credit_id = $3 WHERE entity_id = $1 AND id = $2', [entityId, returnId, credit.id]);
  }
  const created = await getVendorReturn(db, entityId, returnId);
  await actor.events.record('vendor_return.created', created);
  return created;
}

interface ReturnRow {
  id: string;
  entity_id: string;
  return_number: string;
  order_id: string;
  vendor_id: string;
  returned_at: Date;
  credit_amount: string;
  inventory_cost: string;
  vendor_credit_id: string | null;
  journal_entry_id: string | null;
  reason: string | null;
  metadata: Record<string, string>;
  created_by_user_id: string | null;
  created_at: Date;
}

interface ReturnLineRow {
  id: string;
  line_id: string;
  product_id: string;
  location_id: string;
  quantity: string;
  quantity_received: string;
  quantity_returned: string;
  unit_credit: string;
  inventory_cost: string;
  inventory_transaction_id: string;
}

/** The vendor returns of these ids (of the entity), in one query each for headers and lines; unknown ids are left out. */
export async function loadVendorReturns(db: Db, entityId: string, ids: string[]): Promise<WireReturn[]> {
  const headers = await db.query<ReturnRow>(
    `SELECT r.id, r.entity_id, r.return_number, r.order_id, r.vendor_id, r.returned_at, r.credit_amount, r.inventory_cost, r.vendor_credit_id,
            r.journal_entry_id, r.reason, r.metadata, r.created_by_user_id, r.created_at
       FROM vendor_returns r
      WHERE r.entity_id = $1 AND r.id = ANY($2::uuid[])`,
    [entityId, ids],
  );
  if (!headers.length) return [];
  const numbers = await orderNumbers(
    db,
    entityId,
    headers.map((header) => header.order_id),
  );
  const stored = await db.query<Omit<ReturnLineRow, 'quantity_received'> & { vendor_return_id: string }>(
    `SELECT rl.id, rl.vendor_return_id, rl.order_line_id AS line_id, rl.product_id, rl.location_id, rl.quantity,
            (SELECT sum(x.quantity) FROM vendor_return_lines x WHERE x.entity_id = rl.entity_id AND x.order_line_id = rl.order_line_id) AS quantity_returned,
            rl.unit_credit, rl.inventory_cost, rl.inventory_transaction_id
       FROM vendor_return_lines rl
      WHERE rl.entity_id = $1 AND rl.vendor_return_id = ANY($2::uuid[])
      ORDER BY rl.vendor_return_id, rl.sort_order`,
    [entityId, headers.map((header) => header.id)],
  );
  const received = await fulfilledQuantities(
    db,
    entityId,
    stored.map((line) => line.line_id),
  );
  const lines = stored.map((line) => ({ ...line, quantity_received: received.get(line.line_id)! }));
  return headers.map((header) => {
    const credit = amount(header.credit_amount);
    const cost = round(amount(header.inventory_cost), MONEY_SCALE);
    return {
      id: header.id,
      object: 'vendor_return' as const,
      entity_id: header.entity_id,
      return_number: header.return_number,
      order_id: header.order_id,
      order_number: numbers.get(header.order_id)!,
      vendor_id: header.vendor_id,
      returned_at: header.returned_at.toISOString(),
      lines: lines
        .filter((line) => line.vendor_return_id === header.id)
        .map((line) => ({
          id: line.id,
          line_id: line.line_id,
          product_id: line.product_id,
          location_id: line.location_id,
          quantity: toJsonNumber(line.quantity, QUANTITY_SCALE),
          quantity_received: toJsonNumber(line.quantity_received, QUANTITY_SCALE),
          quantity_returned: toJsonNumber(line.quantity_returned, QUANTITY_SCALE),
          unit_credit: toJsonNumber(line.unit_credit, COST_SCALE),
          credit_amount: toJsonNumber(round(amount(line.quantity).times(line.unit_credit), MONEY_SCALE)),
          inventory_cost: toJsonNumber(line.inventory_cost, COST_SCALE),
          inventory_transaction_id: line.inventory_transaction_id,
        })),
      credit_amount: toJsonNumber(credit),
      inventory_cost: toJsonNumber(cost),
      purchase_price_variance: toJsonNumber(credit.minus(cost)),
      vendor_credit_id: header.vendor_credit_id,
      journal_entry_id: header.journal_entry_id,
      reason: header.reason,
      metadata: header.metadata,
      created_by_user_id: header.created_by_user_id,
      created_at: header.created_at.toISOString(),
    };
  });
}

export interface VendorReturnFilters {
  vendor_id?: string;
  order_id?: string;
  created_gte?: string;
  created_lte?: string;
}

/** Newest first, cursor-paginated: the page's ids from one keyset query, then the returns with their lines. */
export async function listVendorReturns(db: Db, entityId: string, filters: VendorReturnFilters, page: PageRequest): Promise<Page<WireReturn>> {
  const { where, params, add } = entityFilters('r', entityId);
  add((n) => `r.vendor_id = ${n}`, filters.vendor_id);
  add((n) => `r.order_id = ${n}`, filters.order_id);
  // At the precision the API prints timestamps (milliseconds), so a return's own created_at bounds include it.
  add((n) => `date_trunc('milliseconds', r.created_at) >= ${n}`, filters.created_gte);
  add((n) => `date_trunc('milliseconds', r.created_at) <= ${n}`, filters.created_lte);
  const result = await keysetPage<{ id: string }>(db, { table: 'vendor_returns', alias: 'r', select: 'r.id', where, params }, page);
  const ids = result.data.map((row) => row.id);
  const returns = new Map((await loadVendorReturns(db, entityId, ids)).map((found) => [found.id, found]));
  return { ...result, data: result.data.flatMap((row) => returns.get(row.id) ?? []) };
}

export async function getVendorReturn(db: Db, entityId: string, returnId: string, param = 'id'): Promise<WireReturn> {
  const [found] = await loadVendorReturns(db, entityId, [returnId]);
  if (!found) throw new ApiError('not_found', { param, hint: 'No such vendor return in this entity.' });
  return found;
}
