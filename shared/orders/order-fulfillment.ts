/** Fulfillment: shipping lines of a sales order or a directly created invoice draws stock at FIFO cost and posts COGS. */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { PostingContext } from '../ledger/post-journal-entry';
import { withStockFacts, type StockFacts } from '../catalog/product-facts';
import { QUANTITY_SCALE, toJsonNumber, ZERO } from '../money';
import { lockBalances, postMovement } from '../inventory/stock-movements';
import { postStockValue } from '../inventory/stock-postings';
import {
  effectiveDate,
  movesStock,
  occurredAtOf,
  overRemaining,
  pickLines,
  raiseFulfilled,
  recordFulfillmentProgress,
  resolveLocation,
  setQuantitiesFulfilled,
  stockProductOf,
  unfulfilled,
} from './order-goods';
import type { OrderFulfillment } from './schemas/order-lifecycle';
import { begin, invalidTransition } from './order-state';
import { openOrderQuantitiesSql } from './open-order-quantities';

interface FulfilLine {
  id: string;
  product_id: string;
  kit_parent_line_id: string | null;
  quantity: string;
  quantity_fulfilled: string;
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
  /** The live drop-ship purchase order of the line (not cancelled or deleted): the vendor ships it. */
  drop_ship_po_id: string | null;
  drop_ship_po_number: string | null;
  drop_ship_po_status: string | null;
}

export interface FulfillmentInput {
  lines: { line_id: string; quantity: string }[];
  location_id?: string;
  fulfillment_date?: string;
}

/**
 * Ships lines of a confirmed (or partially fulfilled) sales order or of a directly created
 * invoice. A kit's line is named, never its component lines: the components are what leave the
 * shelf, each drawn (sale_fulfillment, FIFO cost) in proportion to the kits shipped, and both the
 * kit's line and its component lines count the units fulfilled; the kit product itself is not
 * drawn. Simple products (and a kit without component lines, sold from built stock) are drawn
 * themselves; services and bundles draw nothing. COGS (debit cost_of_goods_sold, credit
 * inventory) is posted in the same transaction, dated fulfillment_date (default today), at exactly
 * the cents the FIFO draws took from the stock valuation. A line with a live drop-ship
 * purchase order is refused (422 line_drop_shipped): the vendor ships it.
 */
export async function fulfillOrder(db: Db, ctx: PostingContext, orderId: string, input: FulfillmentInput): Promise<OrderFulfillment> {
  const { entityId } = ctx;
  const { order } = await begin(db, entityId, orderId, 'fulfill');
  if (order.document_type === 'invoice' && order.converted_from_id) {
    throw invalidTransition(order, 'fulfill', 'fulfilled_on_source', 'This invoice bills a sales order: ship the goods on the sales order.');
  }
  const locationId = await resolveLocation(db, entityId, input.location_id, order.location_id, 'The order has no location; say where the goods ship from.');
  const fulfillmentDate = effectiveDate(input.fulfillment_date, order.order_date, 'fulfillment_date');

  const lineRows = await db.query<Omit<FulfilLine, keyof StockFacts>>(
    `SELECT l.id, l.product_id, l.kit_parent_line_id, l.quantity, l.quantity_fulfilled,
       po.id AS drop_ship_po_id, po.order_number AS drop_ship_po_number, po.order_status AS drop_ship_po_status
     FROM order_lines l
     LEFT JOIN orders po ON po.entity_id = l.entity_id AND po.id = l.drop_ship_po_id AND po.order_status <> 'cancelled' AND po.deleted_at IS NULL
     WHERE l.entity_id = $1 AND l.order_id = $2 ORDER BY l.sort_order, l.created_at, l.id FOR UPDATE OF l`,
    [entityId, order.id],
  );
  const rows = await withStockFacts(db, entityId, lineRows);
  const picks = pickLines(rows, input.lines, {
    unknownHint: 'No such line on this order.',
    componentHint: "A kit component line ships with its kit: name the kit's line.",
    refuse: (line, param) => {
      if (!line.drop_ship_po_id) return;
      // The vendor ships a drop-shipped line; receiving its purchase order fulfils it.
      throw new ApiError('line_drop_shipped', {
        param: `${param}.line_id`,
        details: {
          line_id: line.id,
          linked_purchase_order: { id: line.drop_ship_po_id, order_number: line.drop_ship_po_number, order_status: line.drop_ship_po_status },
        },
      });
    },
    ceiling: unfulfilled,
    exceeded: overRemaining('order_over_fulfillment'),
  });
  // New quantity_fulfilled per line (a kit's line and its component lines), and the stock draws.
  const { raised, moves } = raiseFulfilled(rows, picks);
  const draws = moves.filter((move) => movesStock(move.line));

  const balances = await lockBalances(
    db,
    entityId,
    draws.map((draw) => ({ product_id: draw.line.product_id, location_id: locationId })),
  );
  const groupId = newId();
  let valueChange = ZERO;
  const transactionIds: string[] = [];
  for (const draw of draws) {
    const product = stockProductOf(draw.line);
    const posted = await postMovement(
      db,
      entityId,
      ctx.events,
      balances,
      {
        product,
        location_id: locationId,
        transaction_type: 'sale_fulfillment',
        quantity: draw.quantity.negated(),
        param: `${draw.param}.quantity`,
        reference_type: 'order',
        reference_id: order.id,
        group_id: groupId,
        metadata: { order_number: order.order_number, line_id: draw.line.id },
        occurred_at: occurredAtOf(fulfillmentDate),
      },
      openOrderQuantitiesSql,
    );
    valueChange = valueChange.plus(posted.value_change);
    transactionIds.push(posted.transaction.id);
  }
  const journalEntryId = await postStockValue(db, ctx, {
    entry_date: fulfillmentDate,
    date_param: 'fulfillment_date',
    memo: `Cost of goods shipped on ${order.order_number}`,
    source_type: 'order_fulfillment',
    source_id: order.id,
    metadata: { fulfillment_id: groupId },
    value_change: valueChange,
    counterparts: [{ system_key: 'cost_of_goods_sold', debit: valueChange.negated() }],
  });
  await setQuantitiesFulfilled(db, entityId, raised);
  // Shipping never changes balance_due (it depends on the status only through draft, cancelled and voided).
  const progress = await recordFulfillmentProgress(db, entityId, order.id, rows, raised);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    id: groupId,
    object: 'order_fulfillment',
    order_id: order.id,
    order_number: order.order_number,
    order_status: progress.order_status,
    fulfillment_status: progress.fulfillment_status,
    previous_order_status: order.order_status,
    location_id: locationId,
    fulfillment_date: fulfillmentDate,
    lines: [...raised.entries()].map(([lineId, fulfilled]) => {
      const line = byId.get(lineId)!;
      return {
        line_id: lineId,
        product_id: line.product_id,
        kit_parent_line_id: line.kit_parent_line_id,
        quantity: toJsonNumber(fulfilled.minus(line.quantity_fulfilled), QUANTITY_SCALE),
        quantity_fulfilled: toJsonNumber(fulfilled, QUANTITY_SCALE),
      };
    }),
    inventory_transaction_ids: transactionIds,
    cost_total: toJsonNumber(valueChange.negated()),
    journal_entry_id: journalEntryId,
  };
}
