/**
 * What may change on a document and its lines: the closed-document rules of the states table, and
 * the floor below which a line's quantity cannot go (what already shipped, came back or arrived).
 */
import { ApiError } from '../errors';
import { amount, QUANTITY_SCALE, toJsonNumber } from '../money';
import type { OrderLineItem } from './schemas/order';
import type { LineRow } from './order-line-store';
import { APPROVAL_HOLD } from './lifecycle-rules';

export interface DocumentLock {
  reason: 'document_cancelled' | 'document_voided' | 'document_fulfilled' | 'document_posted' | 'document_paid' | 'po_pending_approval_edit_locked';
  suggested_action: 'duplicate_order' | 'create_return' | 'revise_order' | 'reject_order';
  /** Only a paid document may be edited with override true (and orders.revision_override). */
  overridable: boolean;
}

/** The reasons that close a document to every change of its amounts (a paid one still takes adjustments). */
export type ClosedReason = Exclude<DocumentLock['reason'], 'document_paid'>;

export type LockState = { document_type: string; order_status: string; payment_status: string; hold_type?: string | null };

export function documentLock(order: LockState): DocumentLock | null {
  // A purchase order awaiting approval is frozen as submitted: the approver decides on what they see.
  if (order.document_type === 'purchase_order' && order.order_status === 'on_hold' && order.hold_type === APPROVAL_HOLD) {
    return { reason: 'po_pending_approval_edit_locked', suggested_action: 'reject_order', overridable: false };
  }
  if (order.order_status === 'cancelled') return { reason: 'document_cancelled', suggested_action: 'duplicate_order', overridable: false };
  // The voided document; payment_status voided alone (its payments voided) leaves it open.
  if (order.order_status === 'voided') return { reason: 'document_voided', suggested_action: 'duplicate_order', overridable: false };
  if (order.order_status === 'fulfilled') return { reason: 'document_fulfilled', suggested_action: 'create_return', overridable: false };
  // A confirmed return is posted too: its credit memo and receipts follow its lines.
  if ((order.document_type === 'invoice' || order.document_type === 'return') && order.order_status !== 'draft') {
    return { reason: 'document_posted', suggested_action: 'create_return', overridable: false };
  }
  if (order.payment_status === 'paid' || order.payment_status === 'overpaid') {
    return { reason: 'document_paid', suggested_action: 'revise_order', overridable: true };
  }
  return null;
}

/**
 * E2's order rule (manual adjustments, coupons, removing either): every open document takes them,
 * whether draft, confirmed, partially fulfilled, on hold or awaiting ACH clearance, paid or not
 * (payment_status follows the new total); cancelled, voided, fulfilled (every unit shipped,
 * whatever status wraps it) and posted documents (invoices, returns) refuse them.
 */
export function adjustmentLock(order: LockState & { fulfillment_status: string }): (DocumentLock & { reason: ClosedReason }) | null {
  const lock = documentLock(order);
  if (lock && lock.reason !== 'document_paid') return { ...lock, reason: lock.reason };
  if (order.fulfillment_status === 'fulfilled') return { reason: 'document_fulfilled', suggested_action: 'create_return', overridable: false };
  return null;
}

export function lockedError(order: LockState & { id: string }, lock: DocumentLock, hint?: string): ApiError {
  return new ApiError('order_locked', {
    param: 'id',
    hint,
    details: {
      current_status: order.order_status,
      payment_status: order.payment_status,
      reason: lock.reason,
      suggested_action: lock.suggested_action,
      overridable: lock.overridable,
    },
  });
}

/** Adding or deleting lines follows the line rules: a closed document refuses them (no override). */
export function requireOpen(order: LockState & { id: string }): void {
  const lock = documentLock(order);
  if (lock) throw lockedError(order, lock);
}

type FloorQuantities = Pick<LineRow, 'received_floor' | 'quantity_fulfilled' | 'quantity_returned'>;

/** The least the line's quantity may become, and why. */
export function lineFloor(line: FloorQuantities) {
  // received_floor first: on a purchase order line it equals quantity_fulfilled (units received), and the tie names it.
  const candidates = [
    { value: amount(line.received_floor), reason: 'quantity_received' },
    { value: amount(line.quantity_fulfilled), reason: 'quantity_fulfilled' },
    { value: amount(line.quantity_returned), reason: 'quantity_returned' },
  ];
  return candidates.reduce((best, next) => (next.value.gt(best.value) ? next : best));
}

export function lineEditability(
  order: LockState,
  line: FloorQuantities & Pick<LineRow, 'kit_parent_line_id' | 'drop_ship_po_id'>,
): OrderLineItem['line_editability'] {
  const lock = documentLock(order);
  const floor = lineFloor(line);
  const component = line.kit_parent_line_id !== null;
  const qtyReason = lock?.reason ?? (line.drop_ship_po_id ? 'dropship_po_issued' : component ? 'kit_component' : null);
  const deleteReason = qtyReason ?? (floor.value.gt(0) ? floor.reason : null);
  const received = amount(line.received_floor);
  return {
    qty: { allowed: qtyReason === null, reason: qtyReason, floor: toJsonNumber(floor.value, QUANTITY_SCALE) },
    unit_cost: {
      allowed: lock === null && !component,
      reason: lock?.reason ?? (component ? 'kit_component' : null),
      warn_received_qty: received.gt(0) ? toJsonNumber(received, QUANTITY_SCALE) : null,
    },
    delete: { allowed: deleteReason === null, reason: deleteReason },
    notes: { allowed: lock === null, reason: lock?.reason ?? null },
  };
}
