/**
 * Receiving a return: goods back on the shelf at the FIFO cost they left at. The return and its
 * source are made and confirmed in order-returns.ts.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { PostingContext } from '../ledger/post-journal-entry';
import { withStockFacts, type StockFacts } from '../catalog/product-facts';
import { amount, QUANTITY_SCALE, toJsonNumber, ZERO, type Amount } from '../money';
import type { OrderReturnReceipt, OrderReturnReceiptCreate } from './schemas/order-returns';
import { lockBalances, postMovement, type StockProduct } from '../inventory/stock-movements';
import { returnedUnitsOfLine, saleDrawsOfLine } from '../inventory/line-movements';
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
import { begin, invalidTransition } from './order-state';
import { openOrderQuantitiesSql } from './open-order-quantities';

interface ReturnLine {
  id: string;
  product_id: string;
  kit_parent_line_id: string | null;
  source_line_id: string | null;
  quantity: string;
  quantity_fulfilled: string;
  restock: boolean;
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
}

async function returnLines(db: Db, entityId: string, returnId: string): Promise<ReturnLine[]> {
  const lines = await db.query<Omit<ReturnLine, keyof StockFacts>>(
    `SELECT l.id, l.product_id, l.kit_parent_line_id, l.source_line_id, l.quantity, l.quantity_fulfilled, l.restock
     FROM order_lines l
     WHERE l.entity_id = $1 AND l.order_id = $2 ORDER BY l.sort_order, l.created_at, l.id FOR UPDATE OF l`,
    [entityId, returnId],
  );
  return withStockFacts(db, entityId, lines);
}

interface Draw {
  quantity: Amount;
  unit_cost: Amount;
}

/**
 * The units a shipped line drew, in the order they left (each sale_fulfillment transaction's
 * layer draws, then any part costed beyond the layers at that transaction's cost), after skipping
 * those earlier returns already put back: the next `quantity` units come back at exactly those
 * layers' costs. Units beyond every recorded draw (none expected) come back at the product cost.
 */
async function costLayersFor(db: Db, entityId: string, goodsLineId: string, quantity: Amount, product: StockProduct): Promise<Draw[]> {
  const rows = await saleDrawsOfLine(db, entityId, goodsLineId);
  const draws: Draw[] = [];
  const byTransaction = new Map<string, typeof rows>();
  for (const row of rows) byTransaction.set(row.id, [...(byTransaction.get(row.id) ?? []), row]);
  for (const group of byTransaction.values()) {
    let units = ZERO;
    let cost = ZERO;
    for (const row of group) {
      if (row.draw_quantity === null) continue;
      draws.push({ quantity: amount(row.draw_quantity), unit_cost: amount(row.draw_unit_cost!) });
      units = units.plus(row.draw_quantity);
      cost = cost.plus(row.draw_cost!);
    }
    const out = amount(group[0].quantity).negated();
    if (out.gt(units)) {
      const rest = out.minus(units);
      draws.push({ quantity: rest, unit_cost: amount(group[0].total_cost).negated().minus(cost).dividedBy(rest) });
    }
  }
  let skip = amount(await returnedUnitsOfLine(db, entityId, goodsLineId));
  let want = quantity;
  const layers: Draw[] = [];
  for (const draw of draws) {
    if (!want.gt(0)) break;
    let available = draw.quantity;
    if (skip.gt(0)) {
      const skipped = skip.lt(available) ? skip : available;
      skip = skip.minus(skipped);
      available = available.minus(skipped);
    }
    if (!available.gt(0)) continue;
    const take = available.lt(want) ? available : want;
    layers.push({ quantity: take, unit_cost: draw.unit_cost });
    want = want.minus(take);
  }
  if (want.gt(0)) layers.push({ quantity: want, unit_cost: amount(product.cost ?? 0) });
  return layers;
}

/**
 * POST /v1/orders/{id}/receive-return: the goods of a confirmed return come back. Each received
 * unit raises the return line's quantity_fulfilled and the source line's quantity_returned; a
 * restocked line writes a `return` movement into location_id at the cost the units left at (the
 * layers of the original sale_fulfillment draws; a plain return's lines at the product cost) and
 * the ledger gets debit inventory, credit cost_of_goods_sold, with exactly the cents the new layers
 * add to the stock valuation, dated received_date (default today); a line with restock false (damaged)
 * moves no stock and its cost stays in COGS. A kit's line is named; its component lines come back
 * in proportion.
 */
export async function receiveReturn(db: Db, ctx: PostingContext, returnId: string, input: OrderReturnReceiptCreate): Promise<OrderReturnReceipt> {
  const { entityId } = ctx;
  const { order } = await begin(db, entityId, returnId, 'receive');
  const locationId = await resolveLocation(db, entityId, input.location_id, order.location_id);
  const receivedDate = effectiveDate(input.received_date, order.order_date, 'received_date');
  const rows = await returnLines(db, entityId, order.id);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const requested =
    input.lines ??
    rows.filter((row) => row.kit_parent_line_id === null && unfulfilled(row).gt(0)).map((row) => ({ line_id: row.id, quantity: unfulfilled(row).toString() }));
  if (requested.length === 0) throw invalidTransition(order, 'receive', 'nothing_to_receive', 'Every line of this return is already received.');

  const picks = pickLines(rows, requested, {
    unknownHint: 'No such line on this return.',
    componentHint: "A kit component line comes back with its kit: name the kit's line.",
    ceiling: unfulfilled,
    exceeded: overRemaining('order_over_fulfillment', 'A return line cannot receive more than it has not yet received (details.remaining).'),
  });
  const { raised, moves } = raiseFulfilled(rows, picks);
  const restocks = moves.filter((move) => move.line.restock && movesStock(move.line));
  if (restocks.length > 0 && !locationId) {
    throw new ApiError('parameter_missing', { param: 'location_id', hint: 'The return has no location; say where restocked goods go.' });
  }

  // The line that shipped each returned unit: the source line, or the sales order line an invoice line bills.
  const goodsLines = new Map<string, string>();
  const sourceIds = moves.map((move) => move.line.source_line_id).filter((value): value is string => value !== null);
  if (sourceIds.length) {
    const links = await db.query<{ id: string; goods_line_id: string }>(
      `SELECT l.id, coalesce(g.id, l.id) AS goods_line_id FROM order_lines l
       LEFT JOIN order_lines g ON g.entity_id = l.entity_id AND g.id = l.source_line_id
         AND EXISTS (SELECT 1 FROM orders so WHERE so.entity_id = g.entity_id AND so.id = g.order_id AND so.document_type = 'sales_order')
       WHERE l.entity_id = $1 AND l.id = ANY($2::uuid[])`,
      [entityId, sourceIds],
    );
    for (const link of links) goodsLines.set(link.id, link.goods_line_id);
  }

  const balances = await lockBalances(
    db,
    entityId,
    restocks.map((move) => ({ product_id: move.line.product_id, location_id: locationId! })),
  );
  const groupId = newId();
  const transactionIds: string[] = [];
  const costs = new Map<string, Amount>();
  let valueChange = ZERO;
  for (const move of restocks) {
    const product = stockProductOf(move.line);
    const goodsLineId = move.line.source_line_id ? (goodsLines.get(move.line.source_line_id) ?? null) : null;
    const layers = goodsLineId ? await costLayersFor(db, entityId, goodsLineId, move.quantity, product) : undefined;
    const posted = await postMovement(
      db,
      entityId,
      ctx.events,
      balances,
      {
        product,
        location_id: locationId!,
        transaction_type: 'return',
        quantity: move.quantity,
        layers,
        reference_type: 'order',
        reference_id: order.id,
        group_id: groupId,
        metadata: {
          order_number: order.order_number,
          line_id: move.line.id,
          ...(move.line.source_line_id ? { source_line_id: move.line.source_line_id } : {}),
          ...(goodsLineId ? { goods_line_id: goodsLineId } : {}),
        },
        occurred_at: occurredAtOf(receivedDate),
      },
      openOrderQuantitiesSql,
    );
    costs.set(move.line.id, posted.value_change);
    valueChange = valueChange.plus(posted.value_change);
    transactionIds.push(posted.transaction.id);
  }
  const journalEntryId = await postStockValue(db, ctx, {
    entry_date: receivedDate,
    date_param: 'received_date',
    memo: `Goods returned on ${order.order_number}`,
    source_type: 'order_return',
    source_id: order.id,
    metadata: { receipt_id: groupId },
    value_change: valueChange,
    counterparts: [{ system_key: 'cost_of_goods_sold', debit: valueChange.negated() }],
  });
  await setQuantitiesFulfilled(db, entityId, raised);
  // The source lines count what came back (kit lines and their component lines alike).
  const back = [...raised.entries()]
    .map(([lineId, total]) => ({ line: byId.get(lineId)!, quantity: total.minus(byId.get(lineId)!.quantity_fulfilled) }))
    .filter((entry) => entry.line.source_line_id !== null && entry.quantity.gt(0));
  if (back.length) {
    await db.query(
      `UPDATE order_lines l SET quantity_returned = l.quantity_returned + v.q, updated_at = now() FROM unnest($2::uuid[], $3::numeric[]) AS v(id, q)
       WHERE l.entity_id = $1 AND l.id = v.id`,
      [entityId, back.map((entry) => entry.line.source_line_id), back.map((entry) => entry.quantity.toString())],
    );
  }
  const progress = await recordFulfillmentProgress(db, entityId, order.id, rows, raised);
  return {
    id: groupId,
    object: 'order_return_receipt',
    order_id: order.id,
    order_number: order.order_number,
    source_order_id: order.source_order_id,
    order_status: progress.order_status,
    fulfillment_status: progress.fulfillment_status,
    previous_order_status: order.order_status,
    location_id: locationId,
    received_date: receivedDate,
    lines: [...raised.entries()].map(([lineId, received]) => {
      const line = byId.get(lineId)!;
      const lineCost = costs.get(lineId);
      return {
        line_id: lineId,
        source_line_id: line.source_line_id,
        product_id: line.product_id,
        kit_parent_line_id: line.kit_parent_line_id,
        quantity: toJsonNumber(received.minus(line.quantity_fulfilled), QUANTITY_SCALE),
        quantity_received: toJsonNumber(received, QUANTITY_SCALE),
        restocked: lineCost !== undefined,
        cost: toJsonNumber(lineCost ?? ZERO),
      };
    }),
    inventory_transaction_ids: transactionIds,
    cost_total: toJsonNumber(valueChange),
    journal_entry_id: journalEntryId,
  };
}
