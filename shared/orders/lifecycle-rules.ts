/**
 * The order state machine: which lifecycle operation each document type allows from each
 * order_status, and where it leads. Pure; order-state.ts asks it before writing anything and
 * answers a refusal with 409 order_invalid_transition.
 *
 * Modelled on QuickBooks and NetSuite:
 *   quote           draft → confirmed (accepted); draft|confirmed → convert (a new sales order); cancel
 *   sales_order     draft → confirmed → partially_fulfilled → fulfilled; confirmed|partially_fulfilled ⇄ on_hold;
 *                   convert (invoice the unbilled quantities) once confirmed; cancel while nothing is fulfilled;
 *                   an approval hold (hold_type 'approval', set when confirm routes the order to an approver) is
 *                   left by approve (→ confirmed) or reject (→ draft) only, never by release
 *   invoice         draft → confirmed (posted to AR); posted → voided; a draft is cancelled, never voided;
 *                   a directly created invoice may ship its own goods (fulfill)
 *   return          draft → confirmed (a credit memo when it credits the customer); receive: confirmed →
 *                   partially_fulfilled → fulfilled (goods back); cancel while nothing is received and no credit is posted
 *   purchase_order  draft → confirmed ⇄ on_hold; send (draft → confirmed, or again while open); receive:
 *                   confirmed → partially_fulfilled → fulfilled (fully received); cancel while nothing is received;
 *                   approval as sales orders: submit (draft, or confirmed grown past its approval) → on_hold
 *                   (hold_type 'approval'), left by approve (→ confirmed) or reject (→ draft) only
 * cancelled and voided are terminal. A document with payments is neither cancelled nor voided
 * (refund or unapply first).
 */
import { amount, type AmountLike } from '../money';
import type { DocumentType, OrderStatus, PaymentStatus } from './totals';

export type LifecycleAction = 'confirm' | 'hold' | 'release' | 'cancel' | 'void' | 'convert' | 'fulfill' | 'send' | 'receive' | 'approve' | 'reject' | 'submit';
export type FulfillmentStatus = 'unfulfilled' | 'partially_fulfilled' | 'fulfilled';

export const LIFECYCLE_ACTIONS: readonly LifecycleAction[] = [
  'confirm',
  'hold',
  'release',
  'cancel',
  'void',
  'convert',
  'fulfill',
  'send',
  'receive',
  'approve',
  'reject',
  'submit',
];

/** From which statuses each document type allows each operation. */
const ALLOWED_FROM: Record<DocumentType, Partial<Record<LifecycleAction, readonly OrderStatus[]>>> = {
  quote: { confirm: ['draft'], cancel: ['draft', 'confirmed'], convert: ['draft', 'confirmed'] },
  sales_order: {
    confirm: ['draft'],
    hold: ['confirmed', 'partially_fulfilled'],
    release: ['on_hold'],
    cancel: ['draft', 'confirmed', 'partially_fulfilled', 'on_hold'],
    convert: ['confirmed', 'partially_fulfilled', 'fulfilled'],
    fulfill: ['confirmed', 'partially_fulfilled'],
    approve: ['on_hold'],
    reject: ['on_hold'],
  },
  invoice: { confirm: ['draft'], cancel: ['draft'], void: ['confirmed', 'partially_fulfilled', 'fulfilled'], fulfill: ['confirmed', 'partially_fulfilled'] },
  return: { confirm: ['draft'], cancel: ['draft', 'confirmed'], receive: ['confirmed', 'partially_fulfilled'] },
  purchase_order: {
    confirm: ['draft'],
    send: ['draft', 'confirmed', 'partially_fulfilled'],
    receive: ['confirmed', 'partially_fulfilled'],
    hold: ['confirmed', 'partially_fulfilled'],
    release: ['on_hold'],
    cancel: ['draft', 'confirmed', 'on_hold'],
    submit: ['draft', 'confirmed'],
    approve: ['on_hold'],
    reject: ['on_hold'],
  },
};

export interface LifecycleState {
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
  amount_paid: AmountLike;
  /** Credit memos applied to an invoice (orders.amount_credited): it is not voided while they stand. */
  amount_credited?: AmountLike;
  /** A return whose credit memo is posted to AR: it is not cancelled. */
  credit_posted?: boolean;
  /** 'approval' (APPROVAL_HOLD) when an approval rule holds the order. */
  hold_type?: string | null;
}

/** The hold_type of an order held for approval by an order approval rule. */
export const APPROVAL_HOLD = 'approval';

type TransitionRefusal = 'not_allowed' | 'has_payments' | 'has_fulfillments' | 'approval_pending' | 'not_pending_approval' | 'has_credits';
export type Transition = { allowed: true; next: OrderStatus } | { allowed: false; reason: TransitionRefusal };

/** Whether `action` may run on a document in `state`, and the order_status it leads to. */
export function transition(state: LifecycleState, action: LifecycleAction): Transition {
  const from = ALLOWED_FROM[state.document_type][action];
  if (!from || !from.includes(state.order_status)) return { allowed: false, reason: 'not_allowed' };
  // An approval hold is left by approve or reject only; approve and reject need one.
  const approvalHold = state.order_status === 'on_hold' && state.hold_type === APPROVAL_HOLD;
  if (action === 'release' && approvalHold) return { allowed: false, reason: 'approval_pending' };
  if ((action === 'approve' || action === 'reject') && !approvalHold) return { allowed: false, reason: 'not_pending_approval' };
  // Only money still held on the document blocks it: voided payments and money refunded in full leave nothing paid.
  const paid = !amount(state.amount_paid).isZero();
  switch (action) {
    case 'confirm':
      return { allowed: true, next: 'confirmed' };
    case 'hold':
    case 'submit':
      // submit holds a purchase order for approval when a rule routes it (order-approvals.ts decides).
      return { allowed: true, next: 'on_hold' };
    case 'approve':
      return { allowed: true, next: 'confirmed' };
    case 'reject':
      // Back to draft with the rejection recorded, to be corrected and confirmed again.
      if (paid) return { allowed: false, reason: 'has_payments' };
      return { allowed: true, next: 'draft' };
    case 'release':
      return { allowed: true, next: state.fulfillment_status === 'partially_fulfilled' ? 'partially_fulfilled' : 'confirmed' };
    case 'cancel':
      if (state.credit_posted) return { allowed: false, reason: 'has_credits' };
      if (paid) return { allowed: false, reason: 'has_payments' };
      if (state.fulfillment_status !== 'unfulfilled') return { allowed: false, reason: 'has_fulfillments' };
      return { allowed: true, next: 'cancelled' };
    case 'void':
      if (paid) return { allowed: false, reason: 'has_payments' };
      if (!amount(state.amount_credited ?? 0).isZero()) return { allowed: false, reason: 'has_credits' };
      return { allowed: true, next: 'voided' };
    case 'send':
      // Sending a draft purchase order commits it; sending an open one again keeps its status.
      return { allowed: true, next: state.order_status === 'draft' ? 'confirmed' : state.order_status };
    case 'convert':
    case 'fulfill':
    case 'receive':
      // The source keeps its status (fulfillment and receipts move it through fulfillmentProgress()).
      return { allowed: true, next: state.order_status };
  }
}

/** The operations a document in `state` allows now (for hints and tests). */
export function allowedActions(state: LifecycleState): LifecycleAction[] {
  return LIFECYCLE_ACTIONS.filter((action) => transition(state, action).allowed);
}

/**
 * ACH clearance (driven by payments, not by an order endpoint): an ACH payment is pending for
 * days (Stripe's `processing`), and the documents it pays wait in awaiting_ach_clearance, where
 * they accept no other payment and no lifecycle operation; clearing or failing the payment
 * returns each to the order_status it had (remembered in orders.ach_previous_status).
 */
export const ACH_CLEARANCE_FROM: readonly OrderStatus[] = ['confirmed', 'partially_fulfilled', 'fulfilled', 'on_hold'];

export function achClearanceTransition(status: OrderStatus, event: 'payment_pending' | 'payment_settled', previous: OrderStatus | null = null): Transition {
  if (event === 'payment_pending') {
    return ACH_CLEARANCE_FROM.includes(status) ? { allowed: true, next: 'awaiting_ach_clearance' } : { allowed: false, reason: 'not_allowed' };
  }
  if (status !== 'awaiting_ach_clearance') return { allowed: false, reason: 'not_allowed' };
  return { allowed: true, next: previous && ACH_CLEARANCE_FROM.includes(previous) ? previous : 'confirmed' };
}

/**
 * fulfillment_status and order_status after shipping: over the lines that count (not kit
 * component lines, whose kit line moves with them), nothing shipped is unfulfilled, everything
 * shipped is fulfilled, anything between is partially fulfilled.
 */
export function fulfillmentProgress(lines: readonly { quantity: AmountLike; quantity_fulfilled: AmountLike }[]): {
  fulfillment_status: FulfillmentStatus;
  order_status: 'confirmed' | 'partially_fulfilled' | 'fulfilled';
} {
  const shipped = lines.filter((line) => amount(line.quantity_fulfilled).gt(0)).length;
  const complete = lines.filter((line) => amount(line.quantity_fulfilled).gte(line.quantity)).length;
  if (lines.length > 0 && complete === lines.length) return { fulfillment_status: 'fulfilled', order_status: 'fulfilled' };
  if (shipped > 0) return { fulfillment_status: 'partially_fulfilled', order_status: 'partially_fulfilled' };
  return { fulfillment_status: 'unfulfilled', order_status: 'confirmed' };
}
