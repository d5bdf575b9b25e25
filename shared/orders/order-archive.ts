/**
 * Archiving closed documents. An archived document is filed away: left out of GET /v1/orders
 * unless archived=true or all is asked for, read-only (every write but unarchive is 409
 * order_archived), and its balance_due is forced to 0 (the spec's "archived orders"; purchase
 * orders and quotes are never forced). Only a closed document is archived, and an invoice or a
 * return only with nothing left owing either way (balance_due 0), so the forcing never hides a
 * receivable or a customer credit and AR keeps tying.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { previousAttributes } from '../events/outbox';
import { amount, toJsonNumber } from '../money';
import type { Order } from './schemas/order';
import { toOrder } from './order-mapping';
import { getOrder } from './order-reads';
import { orderRow, type OrderRow } from './order-store';
import { settleDocumentMoney } from './document-money';
import type { DocumentType, OrderStatus } from './totals';

export interface ArchiveState {
  document_type: DocumentType;
  order_status: OrderStatus;
  balance_due: string;
  is_expired: boolean;
  /** A quote with a live sales order converted from it. */
  converted: boolean;
}

/** Why the document cannot be archived (null: it is closed, and owes nothing where that counts). */
export function archiveRefusal(state: ArchiveState): 'not_closed' | 'balance_owing' | null {
  const posted = (state.document_type === 'invoice' || state.document_type === 'return') && ['confirmed', 'partially_fulfilled'].includes(state.order_status);
  const closed =
    state.order_status === 'cancelled' ||
    state.order_status === 'voided' ||
    state.order_status === 'fulfilled' ||
    posted ||
    (state.document_type === 'quote' && (state.is_expired || state.converted));
  if (!closed) return 'not_closed';
  // Invoices carry AR and returns customer credit in balance_due: archived, it would read 0.
  if ((state.document_type === 'invoice' || state.document_type === 'return') && !amount(state.balance_due).isZero()) return 'balance_owing';
  return null;
}

async function converted(db: Db, entityId: string, row: OrderRow): Promise<boolean> {
  if (row.document_type !== 'quote') return false;
  const found = await db.maybeOne(
    `SELECT 1 FROM orders WHERE entity_id = $1 AND converted_from_id = $2 AND order_status NOT IN ('cancelled', 'voided') AND deleted_at IS NULL LIMIT 1`,
    [entityId, row.id],
  );
  return found != null;
}

export interface ArchiveResult {
  order: Order;
  previousOrder: Partial<Order>;
  /** False when the document already was in the state asked for (nothing written, no event). */
  changed: boolean;
}

export async function archiveOrder(db: Db, entityId: string, orderId: string): Promise<ArchiveResult> {
  const row = await orderRow(db, entityId, orderId, { lock: true, allowArchived: true });
  if (row.is_archived) return { order: await getOrder(db, entityId, row.id), previousOrder: {}, changed: false };
  const refusal = archiveRefusal({ ...row, converted: await converted(db, entityId, row) });
  if (refusal) {
    throw new ApiError('order_not_archivable', {
      param: 'id',
      hint:
        refusal === 'balance_owing'
          ? 'This document still has a balance_due (owed, or credit not yet applied or refunded): settle it before archiving.'
          : 'Only closed documents are archived: cancelled, voided or fulfilled ones, posted invoices and returns, expired or converted quotes.',
      details: { reason: refusal, current_status: row.order_status, document_type: row.document_type, balance_due: toJsonNumber(row.balance_due) },
    });
  }
  await db.query(`UPDATE orders SET is_archived = true, archived_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2`, [entityId, row.id]);
  await settleDocumentMoney(db, entityId, [row.id]);
  return moved(db, entityId, row);
}

export async function unarchiveOrder(db: Db, entityId: string, orderId: string): Promise<ArchiveResult> {
  const row = await orderRow(db, entityId, orderId, { lock: true, allowArchived: true });
  if (!row.is_archived) return { order: await getOrder(db, entityId, row.id), previousOrder: {}, changed: false };
  await db.query(`UPDATE orders SET is_archived = false, archived_at = NULL, updated_at = now() WHERE entity_id = $1 AND id = $2`, [entityId, row.id]);
  await settleDocumentMoney(db, entityId, [row.id]);
  return moved(db, entityId, row);
}

/** The order after an archive move, with previous_attributes (the flag, archived_at, balance_due when it moved). */
async function moved(db: Db, entityId: string, before: OrderRow): Promise<ArchiveResult> {
  const order = await getOrder(db, entityId, before.id);
  const { lines: _l, adjustments: _a, ...afterHeader } = order;
  return { order, previousOrder: previousAttributes(toOrder(before), afterHeader), changed: true };
}
