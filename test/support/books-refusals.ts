/**
 * Requests whose preconditions fail, sent on purpose between the whole-cycle test's moves: each
 * must be refused with its own 4xx code and leave the books exactly as they were.
 */
import { expect } from 'vitest';
import { amount } from '../../shared/money';
import { readBooks } from './books';
import { at, list, money, okOr, orders, payments, send, today, type BooksWorld, type Row } from './books-world';

export const REFUSALS = [
  'void_deposited_payment',
  'refund_beyond_refundable',
  'overpay_invoice',
  'deposit_pending_ach',
  'overpay_bill',
  'adjust_below_stock',
] as const;
export type RefusedOp = { kind: 'refused'; what: (typeof REFUSALS)[number]; pick: number };

/** The request that must be refused and the code it must be refused with; null when there is nothing to send it about. */
async function refusedRequest(w: BooksWorld, step: RefusedOp): Promise<{ method: string; path: string; body?: unknown; code: string } | null> {
  switch (step.what) {
    case 'void_deposited_payment': {
      const payment = at(
        (await payments(w)).filter((p) => p.status === 'deposited'),
        step.pick,
      );
      return payment ? { method: 'POST', path: `/v1/payments/${payment.id}/void`, code: 'payment_deposited' } : null;
    }
    case 'refund_beyond_refundable': {
      const payment = at(
        (await payments(w)).filter((p) => ['undeposited', 'deposited'].includes(p.status)),
        step.pick,
      );
      if (!payment) return null;
      const beyond = amount(payment.amount).minus(payment.amount_refunded).plus('0.01').toFixed(2);
      return { method: 'POST', path: `/v1/payments/${payment.id}/refunds`, body: { amount: beyond }, code: 'refund_exceeds_refundable' };
    }
    case 'overpay_invoice': {
      const invoice = at(
        (await orders(w, 'invoice')).filter((o) => o.balance_due > 0 && ['confirmed', 'partially_fulfilled', 'fulfilled'].includes(o.order_status)),
        step.pick,
      );
      if (!invoice) return null;
      return {
        method: 'POST',
        path: `/v1/orders/${invoice.id}/payments`,
        body: { amount: money(invoice.balance_due + 1), payment_method: 'check' },
        code: 'order_not_payable',
      };
    }
    case 'deposit_pending_ach': {
      const payment = at(
        (await payments(w)).filter((p) => p.status === 'pending'),
        step.pick,
      );
      if (!payment) return null;
      const body = { bank_account_id: w.bankAccountId, deposit_date: today(), payment_ids: [payment.id] };
      return { method: 'POST', path: '/v1/deposits', body, code: 'payment_pending_clearance' };
    }
    case 'overpay_bill': {
      const bill = at(
        (await list<Row & { status: string; balance_due: number }>(w, '/v1/vendor-bills')).filter((b) => ['open', 'partially_paid'].includes(b.status)),
        step.pick,
      );
      if (!bill) return null;
      const body = { bills: [{ bill_id: bill.id, amount: money(bill.balance_due + 1) }], bank_account_id: w.bankAccountId, method: 'check' };
      return { method: 'POST', path: '/v1/ap-payments', body, code: 'vendor_bill_overpayment' };
    }
    case 'adjust_below_stock':
      return {
        method: 'POST',
        path: '/v1/inventory/adjustments',
        body: { product_id: w.widgetId, location_id: w.locations[0], quantity: -1_000_000, reason: 'count' },
        code: 'insufficient_stock',
      };
  }
}

export async function runRefusal(w: BooksWorld, step: RefusedOp): Promise<void> {
  const request = await refusedRequest(w, step);
  if (!request) return;
  const before = await readBooks(w.api, w.owner, w.system);
  const response = await send(w, request.method, request.path, request.body);
  expect(okOr(response, [request.code], `refused ${step.what}`), `${step.what} was accepted: ${response.text}`).toBe(false);
  expect(await readBooks(w.api, w.owner, w.system), `${step.what} left the books as they were`).toEqual(before);
}
