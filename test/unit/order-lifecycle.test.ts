import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedActions, fulfillmentProgress, LIFECYCLE_ACTIONS, transition, type LifecycleState } from '../../shared/orders/lifecycle-rules';
import type { DocumentType, OrderStatus, PaymentStatus } from '../../shared/orders/totals';

const TYPES: DocumentType[] = ['quote', 'sales_order', 'invoice', 'return', 'purchase_order'];
const STATUSES: OrderStatus[] = ['draft', 'confirmed', 'partially_fulfilled', 'fulfilled', 'cancelled', 'voided', 'awaiting_ach_clearance', 'on_hold'];
const PAYMENTS: PaymentStatus[] = ['unpaid', 'partially_paid', 'paid', 'overpaid', 'refunded', 'partially_refunded', 'voided'];

const state = (over: Partial<LifecycleState>): LifecycleState => ({
  document_type: 'sales_order',
  order_status: 'draft',
  payment_status: 'unpaid',
  fulfillment_status: 'unfulfilled',
  amount_paid: 0,
  ...over,
});

const anyState = fc.record({
  document_type: fc.constantFrom(...TYPES),
  order_status: fc.constantFrom(...STATUSES),
  payment_status: fc.constantFrom(...PAYMENTS),
  fulfillment_status: fc.constantFrom('unfulfilled' as const, 'partially_fulfilled' as const, 'fulfilled' as const),
  amount_paid: fc.constantFrom(0, '0.01', 50),
});

describe('transition', () => {
  it('walks a sales order through confirm, hold, release, and a quote through convert', () => {
    expect(transition(state({}), 'confirm')).toEqual({ allowed: true, next: 'confirmed' });
    expect(transition(state({ order_status: 'confirmed' }), 'hold')).toEqual({ allowed: true, next: 'on_hold' });
    expect(transition(state({ order_status: 'on_hold' }), 'release')).toEqual({ allowed: true, next: 'confirmed' });
    expect(transition(state({ order_status: 'on_hold', fulfillment_status: 'partially_fulfilled' }), 'release')).toEqual({
      allowed: true,
      next: 'partially_fulfilled',
    });
    expect(transition(state({ document_type: 'quote' }), 'convert').allowed).toBe(true);
    expect(transition(state({}), 'convert').allowed).toBe(false);
    expect(transition(state({ order_status: 'confirmed' }), 'convert').allowed).toBe(true);
  });

  it('voids posted invoices only; a draft invoice is cancelled', () => {
    expect(transition(state({ document_type: 'invoice' }), 'void')).toEqual({ allowed: false, reason: 'not_allowed' });
    expect(transition(state({ document_type: 'invoice' }), 'cancel')).toEqual({ allowed: true, next: 'cancelled' });
    expect(transition(state({ document_type: 'invoice', order_status: 'confirmed' }), 'void')).toEqual({ allowed: true, next: 'voided' });
    expect(transition(state({ document_type: 'invoice', order_status: 'confirmed' }), 'cancel').allowed).toBe(false);
    expect(transition(state({ order_status: 'confirmed' }), 'void').allowed).toBe(false);
  });

  it('refuses cancelling or voiding documents with payments, and cancelling shipped ones', () => {
    expect(transition(state({ order_status: 'confirmed', amount_paid: 5, payment_status: 'partially_paid' }), 'cancel')).toEqual({
      allowed: false,
      reason: 'has_payments',
    });
    expect(transition(state({ document_type: 'invoice', order_status: 'confirmed', payment_status: 'paid', amount_paid: 5 }), 'void')).toEqual({
      allowed: false,
      reason: 'has_payments',
    });
    expect(transition(state({ order_status: 'on_hold', fulfillment_status: 'partially_fulfilled' }), 'cancel')).toEqual({
      allowed: false,
      reason: 'has_fulfillments',
    });
  });

  it('property: cancelled and voided are terminal; every allowed move lands in a known status', () => {
    fc.assert(
      fc.property(anyState, fc.constantFrom(...LIFECYCLE_ACTIONS), (s, action) => {
        const result = transition(s, action);
        if (s.order_status === 'cancelled' || s.order_status === 'voided') expect(result.allowed).toBe(false);
        if (result.allowed) {
          expect(STATUSES).toContain(result.next);
          expect(allowedActions(s)).toContain(action);
        }
        // Only invoices are voided; returns and purchase orders are never fulfilled here.
        if (action === 'void' && result.allowed) expect(s.document_type).toBe('invoice');
        if (action === 'fulfill' && result.allowed) expect(['sales_order', 'invoice']).toContain(s.document_type);
      }),
    );
  });
});

describe('fulfillmentProgress', () => {
  it('is unfulfilled, partially fulfilled or fulfilled over the lines', () => {
    expect(fulfillmentProgress([{ quantity: 2, quantity_fulfilled: 0 }])).toEqual({ fulfillment_status: 'unfulfilled', order_status: 'confirmed' });
    expect(fulfillmentProgress([{ quantity: 2, quantity_fulfilled: '0.5' }])).toEqual({
      fulfillment_status: 'partially_fulfilled',
      order_status: 'partially_fulfilled',
    });
    expect(
      fulfillmentProgress([
        { quantity: 2, quantity_fulfilled: 2 },
        { quantity: 1, quantity_fulfilled: 0 },
      ]).fulfillment_status,
    ).toBe('partially_fulfilled');
    expect(fulfillmentProgress([{ quantity: 2, quantity_fulfilled: 2 }])).toEqual({ fulfillment_status: 'fulfilled', order_status: 'fulfilled' });
  });
});

describe('purchase order moves (send, receive)', () => {
  const po = (over: Partial<LifecycleState>) => state({ document_type: 'purchase_order', ...over });

  it('sending a draft confirms it; sending an open purchase order again keeps its status', () => {
    expect(transition(po({}), 'send')).toEqual({ allowed: true, next: 'confirmed' });
    expect(transition(po({ order_status: 'confirmed' }), 'send')).toEqual({ allowed: true, next: 'confirmed' });
    expect(transition(po({ order_status: 'partially_fulfilled', fulfillment_status: 'partially_fulfilled' }), 'send')).toEqual({
      allowed: true,
      next: 'partially_fulfilled',
    });
    for (const status of ['fulfilled', 'cancelled', 'on_hold'] as const) expect(transition(po({ order_status: status }), 'send').allowed).toBe(false);
  });

  it('receives confirmed and partially received purchase orders only; a held one is released first', () => {
    expect(transition(po({ order_status: 'confirmed' }), 'receive')).toEqual({ allowed: true, next: 'confirmed' });
    expect(transition(po({ order_status: 'partially_fulfilled' }), 'receive').allowed).toBe(true);
    for (const status of ['draft', 'fulfilled', 'cancelled', 'on_hold'] as const) {
      expect(transition(po({ order_status: status }), 'receive')).toEqual({ allowed: false, reason: 'not_allowed' });
    }
  });

  it('holds a partially received purchase order and releases it back to partially received; never cancels received goods', () => {
    expect(transition(po({ order_status: 'partially_fulfilled', fulfillment_status: 'partially_fulfilled' }), 'hold').allowed).toBe(true);
    expect(transition(po({ order_status: 'on_hold', fulfillment_status: 'partially_fulfilled' }), 'release')).toEqual({
      allowed: true,
      next: 'partially_fulfilled',
    });
    expect(transition(po({ order_status: 'on_hold', fulfillment_status: 'partially_fulfilled' }), 'cancel')).toEqual({
      allowed: false,
      reason: 'has_fulfillments',
    });
  });

  it('property: only purchase orders are sent, only purchase orders and returns received; fulfillment is never a purchase move', () => {
    fc.assert(
      fc.property(anyState, (s) => {
        if (transition(s, 'send').allowed) expect(s.document_type).toBe('purchase_order');
        if (transition(s, 'receive').allowed) expect(['purchase_order', 'return']).toContain(s.document_type);
        if (s.document_type === 'purchase_order') expect(transition(s, 'fulfill').allowed).toBe(false);
      }),
    );
  });
});

describe('approval holds (approve, reject)', () => {
  const approvalHold = state({ order_status: 'on_hold', hold_type: 'approval' });

  it('approves a sales order held for approval to confirmed and rejects it back to draft', () => {
    expect(transition(approvalHold, 'approve')).toEqual({ allowed: true, next: 'confirmed' });
    expect(transition(approvalHold, 'reject')).toEqual({ allowed: true, next: 'draft' });
    expect(allowedActions(approvalHold)).toEqual(['cancel', 'approve', 'reject']);
  });

  it('never releases an approval hold, and approves or rejects nothing but an approval hold', () => {
    expect(transition(approvalHold, 'release')).toEqual({ allowed: false, reason: 'approval_pending' });
    const creditHold = state({ order_status: 'on_hold', hold_type: 'credit' });
    expect(transition(creditHold, 'release').allowed).toBe(true);
    expect(transition(creditHold, 'approve')).toEqual({ allowed: false, reason: 'not_pending_approval' });
    expect(transition(creditHold, 'reject')).toEqual({ allowed: false, reason: 'not_pending_approval' });
    expect(transition(state({ order_status: 'confirmed' }), 'approve')).toEqual({ allowed: false, reason: 'not_allowed' });
    expect(transition(state({ order_status: 'draft', hold_type: 'approval' }), 'approve')).toEqual({ allowed: false, reason: 'not_allowed' });
  });

  it('does not reject a held order with payments back to draft', () => {
    expect(transition(state({ order_status: 'on_hold', hold_type: 'approval', amount_paid: 5, payment_status: 'partially_paid' }), 'reject')).toEqual({
      allowed: false,
      reason: 'has_payments',
    });
  });

  it('property: approve and reject are sales- and purchase-order moves out of an approval hold only', () => {
    fc.assert(
      fc.property(anyState, fc.constantFrom(null, 'approval', 'credit'), fc.constantFrom('approve' as const, 'reject' as const), (s, holdType, action) => {
        const move = transition({ ...s, hold_type: holdType }, action);
        if (move.allowed) {
          expect(['sales_order', 'purchase_order']).toContain(s.document_type);
          expect(s.order_status).toBe('on_hold');
          expect(holdType).toBe('approval');
          expect(move.next).toBe(action === 'approve' ? 'confirmed' : 'draft');
        }
        if (holdType === 'approval' && s.order_status === 'on_hold') expect(transition({ ...s, hold_type: holdType }, 'release').allowed).toBe(false);
      }),
    );
  });
});

describe('purchase order approval (submit)', () => {
  it('submit holds a draft or confirmed purchase order for approval; nothing else is submitted', () => {
    fc.assert(
      fc.property(anyState, (s) => {
        const move = transition(s, 'submit');
        const expected = s.document_type === 'purchase_order' && (s.order_status === 'draft' || s.order_status === 'confirmed');
        expect(move.allowed).toBe(expected);
        if (move.allowed) expect(move.next).toBe('on_hold');
      }),
    );
  });
});

describe('return moves (receive, credit memos)', () => {
  const ret = (over: Partial<LifecycleState>) => state({ document_type: 'return', ...over });

  it('receives confirmed and partially received returns only; fulfilment status is moved by fulfillmentProgress()', () => {
    expect(transition(ret({ order_status: 'confirmed' }), 'receive')).toEqual({ allowed: true, next: 'confirmed' });
    expect(transition(ret({ order_status: 'partially_fulfilled' }), 'receive')).toEqual({ allowed: true, next: 'partially_fulfilled' });
    for (const order_status of ['draft', 'fulfilled', 'cancelled'] as OrderStatus[]) {
      expect(transition(ret({ order_status }), 'receive')).toEqual({ allowed: false, reason: 'not_allowed' });
    }
    expect(fulfillmentProgress([{ quantity: 2, quantity_fulfilled: 1 }])).toEqual({
      fulfillment_status: 'partially_fulfilled',
      order_status: 'partially_fulfilled',
    });
  });

  it('a posted credit memo is not cancelled; a draft or a goods-only confirmed return is; a received one is not', () => {
    expect(transition(ret({ order_status: 'confirmed', credit_posted: true }), 'cancel')).toEqual({ allowed: false, reason: 'has_credits' });
    expect(transition(ret({ order_status: 'confirmed' }), 'cancel')).toEqual({ allowed: true, next: 'cancelled' });
    expect(transition(ret({}), 'cancel')).toEqual({ allowed: true, next: 'cancelled' });
    expect(transition(ret({ order_status: 'confirmed', fulfillment_status: 'partially_fulfilled' }), 'cancel')).toEqual({
      allowed: false,
      reason: 'has_fulfillments',
    });
  });

  it('an invoice with credits applied is not voided', () => {
    expect(transition(state({ document_type: 'invoice', order_status: 'confirmed', amount_credited: '10' }), 'void')).toEqual({
      allowed: false,
      reason: 'has_credits',
    });
    expect(transition(state({ document_type: 'invoice', order_status: 'confirmed', amount_credited: 0 }), 'void')).toEqual({ allowed: true, next: 'voided' });
  });
});
