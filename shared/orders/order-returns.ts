/**
 * Returns: a return (RMA) made from a shipped sales order or a posted invoice, and its confirmation
 * (a credit memo when it credits the customer); receiving it is in order-return-receipts.ts. The
 * rules are pure in credit-memo.ts; this module holds the SQL.
 *
 * Locking: the source document is locked FOR UPDATE, then (for an invoice billing a sales order)
 * that sales order, the document whose shipments the units came from. Every return of a line
 * therefore queues on the same header, so parallel returns never exceed what is returnable.
 */
import type { Db } from '../db/database';
import { allocateCredit, creditMemoPostingLines, returnableQuantity, returnLineDiscount } from './credit-memo';
import type { DocumentType, OrderStatus, PaymentStatus } from './totals';
import { settleDocumentMoney } from './document-money';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { postJournalEntry, type PostingContext } from '../ledger/post-journal-entry';
import { amount, QUANTITY_SCALE, round, toJsonNumber, ZERO, type Amount } from '../money';
import type { Order } from './schemas/order';
import type { OrderReturnCreate } from './schemas/order-returns';
import { finish, invalidTransition, type LifecycleResult, type OrderState } from './order-lifecycle';
import { pickLines, resolveLocation } from './order-goods';
import { getOrder } from './order-reads';
import { archivedError, nextOrderNumber } from './order-store';
import { recalculateOrder } from './recalculate-order';
import { isoDateOf } from '../dates';

const LIVE_RETURN = `o.document_type = 'return' AND o.order_status <> 'cancelled' AND o.deleted_at IS NULL`;

interface SourceHeader {
  id: string;
  order_number: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  fulfillment_status: string;
  converted_from_id: string | null;
  location_id: string | null;
  customer_account_id: string | null;
  tax_exempt: boolean;
  order_total: string;
  amount_paid: string;
  amount_credited: string;
  /** Refunds the source received: payment_status counts them. */
  amount_refunded: string;
  /** What voided payments had applied: payment_status counts it. */
  amount_voided: string;
  balance_due: string;
  is_archived: boolean;
}

async function lockHeader(db: Db, entityId: string, orderId: string): Promise<SourceHeader | undefined> {
  return db
    .maybeOne<SourceHeader>(
      `SELECT id, order_number, document_type, order_status, payment_status, fulfillment_status, converted_from_id, location_id, customer_account_id,
       tax_exempt, order_total, amount_paid, amount_credited, amount_refunded, amount_voided, balance_due, is_archived
     FROM orders WHERE entity_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [entityId, orderId],
    )
    .then((header) => {
      // A credit memo against an archived document would move its (forced) balance: unarchive it first.
      if (header?.is_archived) throw archivedError();
      return header;
    });
}

/** A source line with what may still be returned of it (see returnableQuantity). */
interface SourceLine {
  id: string;
  product_id: string;
  kit_parent_line_id: string | null;
  source_line_id: string | null;
  quantity: string;
  quantity_fulfilled: string;
  sell_rate: string;
  line_subtotal: string;
  line_total: string;
  tax_amount: string;
  /** On live returns naming this line. */
  returned: string;
  /** Sales order lines: billed by live invoices. */
  billed: string;
  /** An invoice line billing a sales order line: that line's shipped units and all its returns. */
  goods_fulfilled: string | null;
  goods_returned: string | null;
}

async function sourceLines(db: Db, entityId: string, sourceId: string, excludeReturnId: string | null): Promise<SourceLine[]> {
  return db.query<SourceLine>(
    `SELECT l.id, l.product_id, l.kit_parent_line_id, l.source_line_id, l.quantity, l.quantity_fulfilled, l.sell_rate, l.line_subtotal, l.line_total,
       l.tax_amount,
       coalesce((SELECT sum(r.quantity) FROM order_lines r JOIN orders o ON o.entity_id = r.entity_id AND o.id = r.order_id
         WHERE r.entity_id = l.entity_id AND r.source_line_id = l.id AND ${LIVE_RETURN} AND o.id IS DISTINCT FROM $3), 0) AS returned,
       coalesce((SELECT sum(i.quantity) FROM order_lines i JOIN orders o ON o.entity_id = i.entity_id AND o.id = i.order_id
         WHERE i.entity_id = l.entity_id AND i.source_line_id = l.id AND o.document_type = 'invoice'
           AND o.order_status NOT IN ('cancelled', 'voided') AND o.deleted_at IS NULL), 0) AS billed,
       g.quantity_fulfilled AS goods_fulfilled,
       CASE WHEN g.id IS NOT NULL THEN coalesce((SELECT sum(r.quantity) FROM order_lines r JOIN orders o ON o.entity_id = r.entity_id AND o.id = r.order_id
         WHERE r.entity_id = l.entity_id AND ${LIVE_RETURN} AND o.id IS DISTINCT FROM $3
           AND (r.source_line_id = g.id OR r.source_line_id IN (SELECT s.id FROM order_lines s WHERE s.entity_id = g.entity_id AND s.source_line_id = g.id))), 0)
       END AS goods_returned
     FROM order_lines l
     LEFT JOIN order_lines g ON g.entity_id = l.entity_id AND g.id = l.source_line_id
       AND EXISTS (SELECT 1 FROM orders so WHERE so.entity_id = g.entity_id AND so.id = g.order_id AND so.document_type = 'sales_order')
     WHERE l.entity_id = $1 AND l.order_id = $2 ORDER BY l.sort_order, l.created_at, l.id`,
    [entityId, sourceId, excludeReturnId],
  );
}

function returnable(source: SourceHeader, line: SourceLine): Amount {
  if (source.document_type === 'sales_order') {
    return returnableQuantity({ fulfilled: line.quantity_fulfilled, returned: line.returned, billed: line.billed });
  }
  if (line.goods_fulfilled !== null) {
    return returnableQuantity({
      fulfilled: line.quantity_fulfilled,
      returned: line.returned,
      quantity: line.quantity,
      goods: { fulfilled: line.goods_fulfilled, returned: line.goods_returned ?? 0 },
    });
  }
  return returnableQuantity({ fulfilled: line.quantity_fulfilled, returned: line.returned });
}

function exceeded(param: string, line: SourceLine, left: Amount): ApiError {
  return new ApiError('return_quantity_exceeded', {
    param,
    hint: `At most ${left.toString()} of this line can still be returned: what shipped, less what live returns already take back (and, on a sales order, what invoices bill).`,
    details: { line_id: line.id, returnable: toJsonNumber(left, QUANTITY_SCALE) },
  });
}

/** Locks the source and, for an invoice billing a sales order, that sales order (where the goods shipped from). */
async function lockSource(db: Db, entityId: string, sourceId: string, param: string): Promise<SourceHeader> {
  const source = await lockHeader(db, entityId, sourceId);
  if (!source) throw new ApiError('not_found', { param, hint: 'No such order in this entity.' });
  if (source.document_type === 'invoice' && source.converted_from_id) await lockHeader(db, entityId, source.converted_from_id);
  return source;
}

const POSTED_INVOICE: readonly OrderStatus[] = ['confirmed', 'partially_fulfilled', 'fulfilled'];
const SHIPPED_SALES_ORDER: readonly OrderStatus[] = ['partially_fulfilled', 'fulfilled', 'on_hold'];

// ---------------------------------------------------------------------------------------------
// Create a return from a source document

/**
 * POST /v1/orders/{id}/returns: a draft return of units shipped on a sales order or billed on a
 * posted invoice, at the source's sell rates and net of its discounts (the line's whole discount
 * prorated onto the units as a discount amount), same tax rates. A kit's line is named; its
 * component lines come along in proportion (they are what is restocked).
 */
export async function createReturn(db: Db, actor: { entityId: string; userId: string }, sourceId: string, input: OrderReturnCreate): Promise<Order> {
  const { entityId } = actor;
  const source = await lockSource(db, entityId, sourceId, 'id');
  const returnableSource =
    (source.document_type === 'sales_order' && SHIPPED_SALES_ORDER.includes(source.order_status) && source.fulfillment_status !== 'unfulfilled') ||
    (source.document_type === 'invoice' && POSTED_INVOICE.includes(source.order_status));
  if (!returnableSource) {
    throw new ApiError('order_invalid_transition', {
      param: 'id',
      hint: 'Returns are made from a sales order that shipped goods or from a posted invoice.',
      details: { current_status: source.order_status, document_type: source.document_type, reason: 'not_returnable', allowed_actions: [] },
    });
  }
  const locationId = await resolveLocation(db, entityId, input.location_id, source.location_id);

  const rows = await sourceLines(db, entityId, source.id, null);
  const picked = pickLines(rows, input.lines, {
    unknownHint: 'No such line on the source document.',
    componentHint: "A kit component line comes back with its kit: name the kit's line.",
    ceiling: (line) => returnable(source, line),
    exceeded,
  });

  const id = newId();
  const number = await nextOrderNumber(db, entityId, 'return');
  await db.query(
    `INSERT INTO orders (id, entity_id, order_number, document_type, customer_account_id, location_id, po_number, tax_exempt, delivery_option, notes,
       metadata, source_platform, source_order_id, created_by_user_id)
     SELECT $3, entity_id, $4, 'return', customer_account_id, $5, po_number, tax_exempt, delivery_option, $6, metadata, source_platform, id, $7
     FROM orders WHERE entity_id = $1 AND id = $2`,
    [entityId, source.id, id, number, locationId, input.notes ?? null, actor.userId],
  );
  let sort = 0;
  const insertLine = async (line: SourceLine, quantity: Amount, parentId: string | null, restock: boolean, reason: string | null) => {
    const lineId = newId();
    const discount = parentId
      ? ZERO
      : returnLineDiscount(
          { quantity: line.quantity, sell_rate: line.sell_rate, line_subtotal: line.line_subtotal, net: amount(line.line_total).minus(line.tax_amount) },
          quantity,
        );
    await db.query(
      `INSERT INTO order_lines (id, entity_id, order_id, product_id, variant_id, product_vendor_id, kit_parent_line_id, source_line_id, sku, title, quantity,
         list_price, sell_rate, price_overridden, discount_amount, discount_percent, tax_rate_id, tax_rate, is_tax_exempt, product_tax_code, unit_cost, weight,
         notes, sort_order, restock, return_reason)
       SELECT $3, entity_id, $4, product_id, variant_id, product_vendor_id, $5, id, sku, title, $6, list_price, sell_rate, true, $7, NULL, tax_rate_id,
         tax_rate, is_tax_exempt, product_tax_code, unit_cost, weight, notes, $8, $9, $10
       FROM order_lines WHERE entity_id = $1 AND id = $2`,
      [entityId, line.id, lineId, id, parentId, quantity.toString(), discount.toString(), sort++, restock, reason],
    );
    return lineId;
  };
  for (const { line, quantity, request } of picked) {
    const restock = request.restock ?? true;
    const reason = request.reason ?? null;
    const parentId = await insertLine(line, quantity, null, restock, reason);
    const components = rows.filter((row) => row.kit_parent_line_id === line.id);
    for (const component of components) {
      // The components of the kits returned: their shipped share, the last return taking what is left.
      const complete = amount(line.returned).plus(quantity).gte(line.quantity_fulfilled);
      const share = complete
        ? amount(component.quantity_fulfilled).minus(component.returned)
        : round(amount(component.quantity).times(quantity).dividedBy(line.quantity), QUANTITY_SCALE);
      if (share.gt(0)) await insertLine(component, share, parentId, restock, reason);
    }
  }
  await recalculateOrder(db, entityId, id);
  return getOrder(db, entityId, id);
}

// ---------------------------------------------------------------------------------------------
// Confirm: re-check the quantities, post the credit memo, apply it to the source invoice

/**
 * Confirms a draft return (called by POST /v1/orders/{id}/confirm). A return made from a source
 * is checked again against what is returnable (its lines may have been edited as a draft). A
 * return from an invoice, or a plain one, is a credit memo: debit revenue and tax payable, credit
 * AR, applied to the source invoice up to its balance_due; the rest is customer credit (the
 * return's negative balance_due). A return from a sales order gives back goods that were never
 * billed, so it posts nothing to AR and its balance_due stays 0.
 */
export async function confirmReturn(db: Db, ctx: PostingContext, order: OrderState): Promise<LifecycleResult> {
  const { entityId } = ctx;
  let source: SourceHeader | null = null;
  if (order.source_order_id) {
    source = await lockSource(db, entityId, order.source_order_id, 'id');
    if (source.order_status === 'voided' || source.order_status === 'cancelled') {
      throw invalidTransition(order, 'confirm', 'source_voided', `The source ${source.document_type} is ${source.order_status}; cancel this return.`);
    }
    const own = await db.query<{ kit_parent_line_id: string | null; source_line_id: string | null; quantity: string }>(
      `SELECT kit_parent_line_id, source_line_id, quantity FROM order_lines WHERE entity_id = $1 AND order_id = $2 ORDER BY sort_order, created_at, id`,
      [entityId, order.id],
    );
    const lines = new Map((await sourceLines(db, entityId, source.id, order.id)).map((line) => [line.id, line]));
    own
      .filter((line) => line.kit_parent_line_id === null)
      .forEach((line, index) => {
        const sourceLine = line.source_line_id ? lines.get(line.source_line_id) : undefined;
        if (!sourceLine) return;
        const left = returnable(source!, sourceLine);
        if (amount(line.quantity).gt(left)) throw exceeded(`lines[${index}].quantity`, sourceLine, left);
      });
  }
  const creditMemo = !source || source.document_type === 'invoice';
  let journalEntryId: string | null = null;
  if (creditMemo) {
    const totals = await db.one<{
      subtotal: string;
      discount_total: string;
      shipping_total: string;
      fee_total: string;
      tax_total: string;
      order_total: string;
    }>('SELECT subtotal, discount_total, shipping_total, fee_total, tax_total, order_total FROM orders WHERE entity_id = $1 AND id = $2', [entityId, order.id]);
    const allocation = source ? allocateCredit(totals.order_total, source.balance_due) : { applied: ZERO };
    const postingLines = creditMemoPostingLines(totals, allocation.applied);
    if (postingLines.length > 0) {
      const entry = await postJournalEntry(
        db,
        ctx,
        {
          entry_date: isoDateOf(order.order_date),
          memo: `Credit memo ${order.order_number}`,
          source_type: 'credit_memo',
          source_id: order.id,
          lines: postingLines,
        },
        { dateParam: 'order_date' },
      );
      journalEntryId = entry.id;
    }
    // The part of the credit its source invoice takes is a credit memo move like any later one (document-money.ts sums them).
    if (source && allocation.applied.gt(0)) {
      await db.query(
        `INSERT INTO credit_memo_moves (id, entity_id, credit_memo_id, kind, invoice_id, amount, move_date, journal_entry_id, created_by_user_id)
         VALUES ($1, $2, $3, 'application', $4, $5, $6, $7, $8)`,
        [newId(), entityId, order.id, source.id, allocation.applied.toString(), isoDateOf(order.order_date), journalEntryId, ctx.userId],
      );
    }
  }
  await db.query(`UPDATE orders SET journal_entry_id = $3 WHERE entity_id = $1 AND id = $2`, [entityId, order.id, journalEntryId]);
  const result = await finish(db, entityId, order, { order_status: 'confirmed' });
  if (source) await settleDocumentMoney(db, entityId, [source.id]);
  const confirmed = await getOrder(db, entityId, order.id);
  return { order: confirmed, previousOrder: result.previousOrder };
}
