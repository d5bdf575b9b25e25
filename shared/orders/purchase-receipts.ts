/**
 * Receiving purchase orders: quantity_fulfilled of a purchase order line counts the units RECEIVED
 * (on_order = quantity − quantity_fulfilled over open purchase order lines), and received_floor
 * follows it so the line can never be cut below what arrived.
 *
 * Concurrency: begin() locks the purchase order row first, so two receipts of one order queue and
 * the second sees what the first received; balances are locked in lockBalances' fixed order.
 */
import type { Db } from '../db/database';
import { fulfillmentProgress } from './lifecycle-rules';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { PostingContext } from '../ledger/post-journal-entry';
import { amount, QUANTITY_SCALE, toJsonNumber, ZERO, type Amount } from '../money';
import { COST_SCALE } from '../inventory/schemas/inventory';
import { withStockFacts, type StockFacts } from '../catalog/product-facts';
import type { PurchaseReceipt, PurchaseReceiptCreate } from './schemas/purchase-orders';
import { layerValue } from '../inventory/fifo';
import { lockBalances, postMovement } from '../inventory/stock-movements';
import { postStockValue } from '../inventory/stock-postings';
import { movesStock, overRemaining, pickLines, raiseFulfilled, recordFulfillmentProgress, resolveLocation, stockProductOf, unfulfilled } from './order-goods';
import { begin, invalidTransition } from './order-state';
import { openOrderQuantitiesSql } from './open-order-quantities';

interface ReceiptLine {
  id: string;
  product_id: string;
  quantity: string;
  quantity_fulfilled: string;
  unit_cost: string | null;
  drop_ship_source_line_id: string | null;
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
}

interface SalesLine {
  id: string;
  order_id: string;
  kit_parent_line_id: string | null;
  quantity: string;
  quantity_fulfilled: string;
}

/**
 * Receives lines of a confirmed or partially received purchase order.
 * Stocked lines: a `receive` inventory transaction at location_id with a FIFO layer at the
 * receipt's unit cost (stock events fire as for any receipt); GL debit inventory with the cents the
 * layers add to the stock valuation.
 * Drop-ship lines (created by POST /v1/orders/{id}/drop-ship-purchase-orders): the goods went
 * straight to the customer, so no stock moves; the linked sales line (and its kit components, in
 * proportion) counts the units as fulfilled, its sales order moves through fulfillmentProgress(),
 * and the cost is debited to cost_of_goods_sold. Every receipt credits received_not_billed with each
 * line's quantity × unit cost in cents, which the line's received_cost adds up (the vendor bill
 * clears it against accounts payable); units that settle negative stock open no layer, so their cost
 * goes to inventory_adjustments. Nothing is written before every line checks out.
 */
export async function receivePurchaseOrder(
  db: Db,
  ctx: PostingContext,
  orderId: string,
  input: PurchaseReceiptCreate,
): Promise<{ receipt: PurchaseReceipt; salesOrders: { id: string; previous: { order_status: string; fulfillment_status: string } }[] }> {
  const { entityId } = ctx;
  const { order } = await begin(db, entityId, orderId, 'receive');
  const rows: ReceiptLine[] = await withStockFacts(
    db,
    entityId,
    await db.query<Omit<ReceiptLine, keyof StockFacts>>(
      `SELECT l.id, l.product_id, l.quantity, l.quantity_fulfilled, l.unit_cost, l.drop_ship_source_line_id
       FROM order_lines l
       WHERE l.entity_id = $1 AND l.order_id = $2 ORDER BY l.sort_order, l.created_at, l.id FOR UPDATE OF l`,
      [entityId, order.id],
    ),
  );
  const receivedAt = input.received_at ? new Date(input.received_at).toISOString() : new Date().toISOString();

  const planned = pickLines(rows, input.lines, {
    unknownHint: 'No such line on this purchase order.',
    ceiling: unfulfilled,
    exceeded: overRemaining('order_over_receipt'),
  }).map(({ line, quantity, param, request }) => ({
    line,
    quantity,
    param,
    unitCost: amount(request.unit_cost ?? line.unit_cost ?? line.cost ?? 0),
    received: amount(line.quantity_fulfilled).plus(quantity),
  }));

  // Services and bundles are received without an inventory movement.
  const stocked = planned.filter((plan) => !plan.line.drop_ship_source_line_id && movesStock(plan.line));
  const locationId = stocked.length
    ? await resolveLocation(db, entityId, input.location_id, order.location_id, 'The purchase order has no location; say where the goods arrive.')
    : null;

  // Drop-ship lines: lock their sales orders (order rows before line rows, as every order operation
  // does), then the sales lines (and kit components) they fulfil.
  const dropShip = planned.filter((plan) => plan.line.drop_ship_source_line_id);
  const sourceIds = dropShip.map((plan) => plan.line.drop_ship_source_line_id);
  const salesOrders = new Map<string, { id: string; order_status: string; fulfillment_status: string }>();
  if (dropShip.length) {
    const locked = await db.query<{ id: string; order_status: string; fulfillment_status: string }>(
      `SELECT o.id, o.order_status, o.fulfillment_status FROM orders o
       WHERE o.entity_id = $1 AND o.id IN (SELECT l.order_id FROM order_lines l WHERE l.entity_id = $1 AND l.id = ANY($2::uuid[]))
       ORDER BY o.id FOR UPDATE`,
      [entityId, sourceIds],
    );
    for (const salesOrder of locked) {
      if (!['confirmed', 'partially_fulfilled', 'on_hold'].includes(salesOrder.order_status)) {
        throw invalidTransition(
          order,
          'receive',
          'drop_ship_sales_order_closed',
          `The sales order this purchase order drop-ships is ${salesOrder.order_status}; its lines cannot be fulfilled.`,
        );
      }
      salesOrders.set(salesOrder.id, salesOrder);
    }
  }
  const salesRows = dropShip.length
    ? await db.query<SalesLine>(
        `SELECT l.id, l.order_id, l.kit_parent_line_id, l.quantity, l.quantity_fulfilled FROM order_lines l
         WHERE l.entity_id = $1 AND (l.id = ANY($2::uuid[]) OR l.kit_parent_line_id = ANY($2::uuid[]))
         ORDER BY l.id FOR UPDATE`,
        [entityId, sourceIds],
      )
    : [];
  const salesById = new Map(salesRows.map((row) => [row.id, row]));
  const salesPicks = dropShip.map((plan) => {
    const sales = salesById.get(plan.line.drop_ship_source_line_id!)!;
    const remaining = unfulfilled(sales);
    if (plan.quantity.gt(remaining)) {
      throw new ApiError('order_over_receipt', {
        param: `${plan.param}.quantity`,
        hint: 'The drop-shipped sales line has fewer units left to fulfil (it shipped some from stock).',
        details: { line_id: plan.line.id, sales_line_id: sales.id, remaining: toJsonNumber(remaining, QUANTITY_SCALE) },
      });
    }
    return { line: sales, quantity: plan.quantity, param: plan.param };
  });
  // The sales lines (and their kit component lines, in proportion) count the units as fulfilled.
  const { raised: salesRaised } = raiseFulfilled(salesRows, salesPicks);

  // Stock: one receive movement per stocked line, balances locked in a fixed order first.
  const balances = await lockBalances(
    db,
    entityId,
    stocked.map((plan) => ({ product_id: plan.line.product_id, location_id: locationId! })),
  );
  const receiptId = newId();
  const transactionByLine = new Map<string, string>();
  // What each line's receipt credits received_not_billed at (a vendor bill clears it at this cost).
  const costByLine = new Map<string, Amount>(dropShip.map((plan) => [plan.line.id, layerValue(plan.quantity, plan.unitCost)]));
  let inventoryCents = ZERO;
  let valueChange = ZERO;
  for (const plan of stocked) {
    const product = stockProductOf(plan.line);
    const posted = await postMovement(
      db,
      entityId,
      ctx.events,
      balances,
      {
        product,
        location_id: locationId!,
        transaction_type: 'receive',
        quantity: plan.quantity,
        unit_cost: plan.unitCost,
        param: `${plan.param}.quantity`,
        reference_type: 'order',
        reference_id: order.id,
        group_id: receiptId,
        notes: input.notes ?? null,
        metadata: { order_number: order.order_number, line_id: plan.line.id },
        occurred_at: receivedAt,
      },
      openOrderQuantitiesSql,
    );
    transactionByLine.set(plan.line.id, posted.transaction.id);
    const lineCents = layerValue(plan.quantity, plan.unitCost);
    costByLine.set(plan.line.id, lineCents);
    inventoryCents = inventoryCents.plus(lineCents);
    valueChange = valueChange.plus(posted.value_change);
  }
  const dropShipCents = dropShip.reduce((sum, plan) => sum.plus(costByLine.get(plan.line.id)!), ZERO);

  const journalEntryId = await postStockValue(db, ctx, {
    entry_date: receivedAt.slice(0, 10),
    date_param: 'received_at',
    memo: `Goods received on ${order.order_number}`,
    source_type: 'purchase_receipt',
    source_id: order.id,
    metadata: { receipt_id: receiptId },
    value_change: valueChange,
    counterparts: [
      { system_key: 'cost_of_goods_sold', debit: dropShipCents },
      { system_key: 'received_not_billed', debit: inventoryCents.plus(dropShipCents).negated() },
    ],
  });

  const raised = new Map<string, Amount>(planned.map((plan) => [plan.line.id, plan.received]));
  for (const [lineId, value] of salesRaised) raised.set(lineId, value);
  // On the purchase order, received_floor follows quantity_fulfilled (the units received), and
  // received_cost adds what the receipt booked.
  await db.query(
    `UPDATE order_lines l SET quantity_fulfilled = v.q, received_floor = CASE WHEN l.order_id = $4 THEN v.q ELSE l.received_floor END,
       received_cost = l.received_cost + v.cost, updated_at = now()
     FROM unnest($2::uuid[], $3::numeric[], $5::numeric[]) AS v(id, q, cost) WHERE l.entity_id = $1 AND l.id = v.id`,
    [
      entityId,
      [...raised.keys()],
      [...raised.values()].map((value) => value.toString()),
      order.id,
      [...raised.keys()].map((lineId) => (costByLine.get(lineId) ?? ZERO).toString()),
    ],
  );
  const progress = await recordFulfillmentProgress(db, entityId, order.id, rows, raised);

  // The drop-shipped sales orders move as if they had shipped (a held one keeps on_hold and moves on release).
  const movedSalesOrders: { id: string; previous: { order_status: string; fulfillment_status: string } }[] = [];
  for (const salesOrder of salesOrders.values()) {
    const lines = await db.query<{ id: string; quantity: string; quantity_fulfilled: string }>(
      'SELECT id, quantity, quantity_fulfilled FROM order_lines WHERE entity_id = $1 AND order_id = $2 AND kit_parent_line_id IS NULL',
      [entityId, salesOrder.id],
    );
    const salesProgress = fulfillmentProgress(lines);
    await db.query(
      `UPDATE orders SET order_status = CASE WHEN order_status = 'on_hold' THEN order_status ELSE $3 END, fulfillment_status = $4, updated_at = now()
       WHERE entity_id = $1 AND id = $2`,
      [entityId, salesOrder.id, salesProgress.order_status, salesProgress.fulfillment_status],
    );
    movedSalesOrders.push({ id: salesOrder.id, previous: { order_status: salesOrder.order_status, fulfillment_status: salesOrder.fulfillment_status } });
  }

  return {
    receipt: {
      id: receiptId,
      object: 'purchase_receipt',
      order_id: order.id,
      order_number: order.order_number,
      order_status: progress.order_status,
      fulfillment_status: progress.fulfillment_status,
      previous_order_status: order.order_status,
      location_id: locationId,
      received_at: receivedAt,
      lines: planned.map((plan) => {
        const sales = plan.line.drop_ship_source_line_id ? salesById.get(plan.line.drop_ship_source_line_id)! : null;
        return {
          line_id: plan.line.id,
          product_id: plan.line.product_id,
          quantity: toJsonNumber(plan.quantity, QUANTITY_SCALE),
          quantity_received: toJsonNumber(plan.received, QUANTITY_SCALE),
          unit_cost: toJsonNumber(plan.unitCost, COST_SCALE),
          total_cost: toJsonNumber(plan.quantity.times(plan.unitCost), COST_SCALE),
          inventory_transaction_id: transactionByLine.get(plan.line.id) ?? null,
          drop_ship_sales_order_id: sales?.order_id ?? null,
          drop_ship_sales_line_id: sales?.id ?? null,
        };
      }),
      inventory_transaction_ids: [...transactionByLine.values()],
      inventory_cost: toJsonNumber(inventoryCents),
      drop_ship_cost: toJsonNumber(dropShipCents),
      journal_entry_id: journalEntryId,
    },
    salesOrders: movedSalesOrders,
  };
}
