/**
 * The order state machine: which lifecycle operation each document type allows from each
 * order_status, and where it leads. Pure; the data layer (shared/data/order-lifecycle.ts) asks it
 * before writing anything and answers a refusal with 409 order_invalid_transition.
 *
 * Modelled on QuickBooks and NetSuite:
 *   quote           draft → confirmed (accepted); draft|confirmed → convert (a new sales order); cancel
 *   sales_order     draft → confirmed → partially_fulfilled → fulfilled; confirmed|partially_fulfilled ⇄ on_hold;
 *                   convert (invoice the unbilled quantities) once confirmed; cancel while nothing is fulfilled
 *   invoice         draft → confirmed (posted to AR); posted → voided; a draft is cancelled, never voided;
 *                   a directly created invoice may ship its own goods (fulfill)
 *   return          draft → confirmed; cancel
 *   purchase_order  draft → confirmed ⇄ on_hold; cancel
 * cancelled and voided are terminal. A document with payments is neither cancelled nor voided
 * (refund or unapply first).
 */
import { amount, type AmountLike } from '../../money';
import type { DocumentType, OrderStatus, PaymentStatus } from './totals';

export type LifecycleAction = 'confirm' | 'hold' | 'release' | 'cancel' | 'void' | 'convert' | 'fulfill';
export type FulfillmentStatus = 'unfulfilled' | 'partially_fulfilled' | 'fulfilled';

export const LIFECYCLE_ACTIONS: readonly LifecycleAction[] = ['confirm', 'hold', 'release', 'cancel', 'void', 'convert', 'fulfill'];

/** From which statuses each document type allows each operation. */
export const ALLOWED_FROM: Record<DocumentType, Partial<Record<LifecycleAction, readonly OrderStatus[]>>> = {
  quote: { confirm: ['draft'], cancel: ['draft', 'confirmed'], convert: ['draft', 'confirmed'] },
  sales_order: {
    confirm: ['draft'],
    hold: ['confirmed', 'partially_fulfilled'],
    release: ['on_hold'],
    cancel: ['draft', 'confirmed', 'partially_fulfilled', 'on_hold'],
    convert: ['confirmed', 'partially_fulfilled', 'fulfilled'],
    fulfill: ['confirmed', 'partially_fulfilled'],
  },
  invoice: { confirm: ['draft'], cancel: ['draft'], void: ['confirmed', 'partially_fulfilled', 'fulfilled'], fulfill: ['confirmed', 'partially_fulfilled'] },
  return: { confirm: ['draft'], cancel: ['draft', 'confirmed'] },
  purchase_order: { confirm: ['draft'], hold: ['confirmed'], release: ['on_hold'], cancel: ['draft', 'confirmed', 'on_hold'] },
};

export interface LifecycleState {
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
  amount_paid: AmountLike;
}

export type TransitionRefusal = 'not_allowed' | 'has_payments' | 'has_fulfillments';
export type Transition = { allowed: true; next: OrderStatus } | { allowed: false; reason: TransitionRefusal };

/** Whether `action` may run on a document in `state`, and the order_status it leads to. */
export function transition(state: LifecycleState, action: LifecycleAction): Transition {
  const from = ALLOWED_FROM[state.document_type][action];
  if (!from || !from.includes(state.order_status)) return { allowed: false, reason: 'not_allowed' };
  const paid = state.payment_status !== 'unpaid' || !amount(state.amount_paid).isZero();
  switch (action) {
    case 'confirm':
      return { allowed: true, next: 'confirmed' };
    case 'hold':
      return { allowed: true, next: 'on_hold' };
    case 'release':
      return { allowed: true, next: state.fulfillment_status === 'partially_fulfilled' ? 'partially_fulfilled' : 'confirmed' };
    case 'cancel':
      if (paid) return { allowed: false, reason: 'has_payments' };
      if (state.fulfillment_status !== 'unfulfilled') return { allowed: false, reason: 'has_fulfillments' };
      return { allowed: true, next: 'cancelled' };
    case 'void':
      if (paid) return { allowed: false, reason: 'has_payments' };
      return { allowed: true, next: 'voided' };
    case 'convert':
    case 'fulfill':
      // The source keeps its status (fulfillment moves it through fulfillmentProgress()).
      return { allowed: true, next: state.order_status };
  }
}

/** The operations a document in `state` allows now (for hints and tests). */
export function allowedActions(state: LifecycleState): LifecycleAction[] {
  return LIFECYCLE_ACTIONS.filter((action) => transition(state, action).allowed);
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
