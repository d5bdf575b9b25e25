/**
 * What every movement of an order's goods shares: shipping a sales order (order-fulfillment.ts),
 * receiving a purchase order (purchase-receipts.ts) and receiving a return (order-return-receipts.ts)
 * each move stock per line, post the cost between inventory and cost of goods sold, and record
 * the lines' new quantity_fulfilled. Its own module so only those three routes bundle it.
 */
import type { Db } from '../db/database';
import { fulfillmentProgress } from './lifecycle-rules';
import { postJournalEntry, type PostingContext } from '../ledger/post-journal-entry';
import { MONEY_SCALE, round, type Amount, type AmountLike } from '../money';
import type { StockProduct } from '../inventory/inventory';
import { todayUtc } from '../dates';

/** The stock view of an order line's product, as postMovement takes it. */
export function stockProductOf(line: {
  product_id: string;
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
}): StockProduct {
  return { id: line.product_id, product_type: line.product_type, uom_id: line.uom_id, cost: line.cost, reorder_point: line.reorder_point } as StockProduct;
}

/**
 * Posts the cost of goods that left stock (`shipped`: debit cost_of_goods_sold, credit inventory)
 * or came back (`returned`: the reverse), rounded to cents; nothing when it rounds to 0. Returns
 * the journal entry id.
 */
export async function postCostOfGoods(
  db: Db,
  ctx: PostingContext,
  input: { direction: 'shipped' | 'returned'; cost: Amount; memo: string; source_type: string; source_id: string; metadata: Record<string, string> },
): Promise<string | null> {
  const value = round(input.cost, MONEY_SCALE);
  if (!value.gt(0)) return null;
  const [debit, credit] = input.direction === 'shipped' ? (['cost_of_goods_sold', 'inventory'] as const) : (['inventory', 'cost_of_goods_sold'] as const);
  const entry = await postJournalEntry(db, ctx, {
    entry_date: todayUtc(),
    memo: input.memo,
    source_type: input.source_type,
    source_id: input.source_id,
    lines: [
      { system_key: debit, debit: value.toString() },
      { system_key: credit, credit: value.toString() },
    ],
    metadata: input.metadata,
  });
  return entry.id;
}

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
