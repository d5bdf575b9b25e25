import { describe, expect, it } from 'vitest';
import { archiveRefusal, type ArchiveState } from '../../shared/orders/order-archive';

const state = (overrides: Partial<ArchiveState>): ArchiveState => ({
  document_type: 'sales_order',
  order_status: 'confirmed',
  balance_due: '0',
  is_expired: false,
  converted: false,
  ...overrides,
});

describe('archiving closed documents (decision): which documents are archived', () => {
  it.each([
    [{ order_status: 'cancelled' }, null],
    [{ order_status: 'voided', document_type: 'invoice' }, null],
    [{ order_status: 'fulfilled', balance_due: '100' }, null],
    [{ order_status: 'fulfilled', document_type: 'purchase_order', balance_due: '40' }, null],
    [{ document_type: 'invoice', balance_due: '0' }, null],
    [{ document_type: 'invoice', balance_due: '0.01' }, 'balance_owing'],
    [{ document_type: 'invoice', order_status: 'fulfilled', balance_due: '5' }, 'balance_owing'],
    [{ document_type: 'return', balance_due: '-20' }, 'balance_owing'],
    [{ document_type: 'quote', order_status: 'draft', is_expired: true, balance_due: '20' }, null],
    [{ document_type: 'quote', order_status: 'confirmed', converted: true, balance_due: '20' }, null],
    [{ document_type: 'quote', order_status: 'confirmed', balance_due: '20' }, 'not_closed'],
    [{ order_status: 'draft' }, 'not_closed'],
    [{ order_status: 'on_hold' }, 'not_closed'],
    [{ order_status: 'awaiting_ach_clearance' }, 'not_closed'],
    [{ document_type: 'invoice', order_status: 'draft' }, 'not_closed'],
    [{ document_type: 'purchase_order', order_status: 'partially_fulfilled' }, 'not_closed'],
  ] as const)('%o → %s', (overrides, refusal) => {
    expect(archiveRefusal(state(overrides))).toBe(refusal);
  });
});
