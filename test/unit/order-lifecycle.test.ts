import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedActions, fulfillmentProgress, LIFECYCLE_ACTIONS, transition, type LifecycleState } from '../../shared/domain/orders/lifecycle';
import type { DocumentType, OrderStatus, PaymentStatus } from '../../shared/domain/orders/totals';

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
