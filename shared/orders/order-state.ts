/**
 * The first step of every lifecycle operation: lock the order's header and ask the state machine.
 * It reads the header columns the state machine decides on, not the lines.
 */
import type { Db } from '../db/database';
import { allowedActions, transition, type FulfillmentStatus, type LifecycleAction, type LifecycleState } from './lifecycle-rules';
import type { DocumentType, OrderStatus, PaymentStatus } from './totals';
import { ApiError } from '../errors';
import { archivedError } from './order-store';
import { expiredQuoteSql } from './quote-expiry';

/** The header columns the lifecycle decides on (a light, locked read: no lines, no totals engine). */
export interface OrderState {
  id: string;
  order_number: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
  amount_paid: string;
  order_total: string;
  balance_due: string;
  location_id: string | null;
  converted_from_id: string | null;
  journal_entry_id: string | null;
  invoice_number: string | null;
  order_date: Date | string;
  is_on_hold: boolean;
  hold_type: string | null;
  /** Credit memos applied (an invoice) or the part of its credit applied to its source (a return). */
  amount_credited: string;
  /** A return's source document (POST /v1/orders/{id}/returns). */
  source_order_id: string | null;
  /** Archived: read-only, every lifecycle operation refused until unarchived. */
  is_archived: boolean;
  /** A quote past its expires_at (read-time rule): it cannot be converted or confirmed. */
  is_expired: boolean;
}

const stateOf = (order: OrderState): LifecycleState => ({
  document_type: order.document_type,
  order_status: order.order_status,
  payment_status: order.payment_status,
  fulfillment_status: order.fulfillment_status,
  amount_paid: order.amount_paid,
  hold_type: order.hold_type,
  amount_credited: order.amount_credited,
  credit_posted: order.document_type === 'return' && order.journal_entry_id !== null,
});

export function invalidTransition(order: OrderState, action: LifecycleAction, reason: string, hint?: string): ApiError {
  return new ApiError('order_invalid_transition', {
    param: 'id',
    hint: hint ?? `A ${order.document_type} that is ${order.order_status} cannot be ${ACTION_WORDS[action]}.`,
    details: { current_status: order.order_status, document_type: order.document_type, reason, allowed_actions: allowedActions(stateOf(order)) },
  });
}

const ACTION_WORDS: Record<LifecycleAction, string> = {
  confirm: 'confirmed',
  hold: 'put on hold',
  release: 'released',
  cancel: 'cancelled',
  void: 'voided',
  convert: 'converted',
  fulfill: 'fulfilled',
  send: 'sent',
  receive: 'received',
  approve: 'approved',
  reject: 'rejected',
  submit: 'submitted for approval',
};

const REFUSAL_HINTS: Record<string, string> = {
  has_payments:
    'This document holds paid money: void its payments first (POST /v1/payments/{payment_id}/void), or refund them in full (POST /v1/payments/{payment_id}/refunds; a deposited payment cannot be voided). Once no paid money is left on it, it can be cancelled or voided.',
  has_fulfillments: 'Goods of this order have shipped; return them instead of cancelling.',
  has_credits: 'A credit memo is posted against this document (a return); it stands, so the document is neither cancelled nor voided.',
  approval_pending: 'This order is held for approval; approve or reject it (POST /v1/orders/{id}/approve or /reject) instead of releasing it.',
  not_pending_approval: 'This order is not held for approval.',
  approval_not_required: 'No approval rule routes this purchase order at its total: send or confirm it directly.',
};

/** Locks the order and checks the move; throws 409 order_invalid_transition when it is not allowed. */
export async function begin(db: Db, entityId: string, orderId: string, action: LifecycleAction) {
  const order = await db.maybeOne<OrderState>(
    `SELECT id, order_number, document_type, order_status, payment_status, fulfillment_status, amount_paid, order_total, balance_due, location_id,
       converted_from_id, journal_entry_id, invoice_number, order_date, is_on_hold, hold_type, amount_credited, source_order_id, is_archived,
       ${expiredQuoteSql()} AS is_expired
     FROM orders WHERE entity_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`,
    [entityId, orderId],
  );
  if (!order) throw new ApiError('not_found', { param: 'id', hint: 'No such order in this entity.' });
  if (order.is_archived) throw archivedError();
  // An expired quote cannot be converted or confirmed (it may still be cancelled or archived).
  if (order.is_expired && (action === 'convert' || action === 'confirm')) {
    throw new ApiError('quote_expired', { param: 'id', details: { current_status: order.order_status, document_type: order.document_type } });
  }
  const move = transition(stateOf(order), action);
  if (!move.allowed) throw invalidTransition(order, action, move.reason, REFUSAL_HINTS[move.reason]);
  return { order, next: move.next };
}
