/**
 * The purchasing, payables, stock and ledger operations of the whole-cycle books property test:
 * purchase orders and their receipts, vendor bills through approval (the approver approves and
 * posts what the owner creates), AP payments with vendor credits, vendor returns, inventory
 * receipts, adjustments, transfers and kit builds, manual journal entries and period closes.
 */
import { expect } from 'vitest';
import { amount } from '../../shared/money';
import { trialBalance } from './books';
import { at, list, money, ok, okOr, orders, postedBill, purchaseOrder, send, today, type BooksWorld, type Row } from './books-world';

export type PurchasingOp =
  | { kind: 'purchase'; quantity: number; cents: number }
  | { kind: 'receive_po'; pick: number; percent: number }
  | { kind: 'bill_po'; pick: number }
  | { kind: 'expense_bill'; cents: number; rejectFirst: boolean }
  | { kind: 'void_bill'; pick: number }
  | { kind: 'ap_pay'; pick: number; percent: number; credit: number | null }
  | { kind: 'void_ap_payment'; pick: number }
  | { kind: 'vendor_credit'; cents: number }
  | { kind: 'void_vendor_credit'; pick: number }
  | { kind: 'vendor_return'; pick: number }
  | { kind: 'stock_receipt'; quantity: number; cents: number }
  | { kind: 'adjust'; quantity: number }
  | { kind: 'transfer'; quantity: number; back: boolean }
  | { kind: 'build_kit'; quantity: number }
  | { kind: 'journal'; cents: number }
  | { kind: 'close_period' }
  | { kind: 'post_into_closed'; pick: number; what: 'journal' | 'payment' | 'bill' }
  | { kind: 'post_before_closed' };

type Bill = Row & { status: string; balance_due: number };
type Credit = Row & { status: string; remaining_amount: string };

const receivable = (o: { order_status: string }) => ['confirmed', 'partially_fulfilled'].includes(o.order_status);
const openBills = async (w: BooksWorld) => (await list<Bill>(w, '/v1/vendor-bills')).filter((b) => ['open', 'partially_paid'].includes(b.status));
const openCredits = async (w: BooksWorld) => (await list<Credit>(w, '/v1/vendor-credits')).filter((c) => amount(c.remaining_amount).gt(0));

/** The first day of the month `monthsAgo` months before this one, and its last day. */
function month(monthsAgo: number): { start: string; end: string } {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo + 1, 0));
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

/** The oldest closable month is a year back; each close takes the next one, up to two months ago. */
const OLDEST_CLOSED_MONTH = 12;

const journalLines = (w: BooksWorld, value: string) => [
  { account_id: w.expenseAccountId, debit: value },
  { account_id: w.system.bank, credit: value },
];

export async function runPurchasing(w: BooksWorld, step: PurchasingOp): Promise<void> {
  switch (step.kind) {
    case 'purchase':
      await purchaseOrder(w, step.quantity, money(step.cents / 100));
      return;
    case 'receive_po': {
      const po = at((await orders(w, 'purchase_order', true)).filter(receivable), step.pick);
      if (!po) return;
      const lines = (po.lines ?? [])
        .filter((l) => l.quantity_fulfilled < l.quantity)
        .map((l) => ({ line_id: l.id, quantity: Math.max(1, Math.floor(((l.quantity - l.quantity_fulfilled) * step.percent) / 100)) }));
      if (lines.length) ok(await send(w, 'POST', `/v1/orders/${po.id}/receipts`, { lines }), 'receive purchase order');
      return;
    }
    case 'bill_po': {
      const billable = (await orders(w, 'purchase_order', true)).filter((o) => (o.lines ?? []).some((l) => l.quantity_fulfilled > l.billed_quantity));
      const po = at(billable, step.pick);
      if (po) await postedBill(w, { po_id: po.id });
      return;
    }
    case 'expense_bill': {
      const body = { vendor_id: w.vendorId, lines: [{ type: 'expense', account_id: w.expenseAccountId, amount: money(step.cents / 100) }] };
      if (!step.rejectFirst) {
        await postedBill(w, body);
        return;
      }
      // Rejected by the approver, then submitted again and approved: the approval path both ways.
      const draft = ok(await send(w, 'POST', '/v1/vendor-bills', body), 'create bill');
      ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/submit`), 'submit bill');
      ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/reject`, { reason: 'check the amount' }, w.approver.secret), 'reject bill');
      ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/submit`), 'submit bill again');
      ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/approve`, undefined, w.approver.secret), 'approve bill');
      ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/post`, undefined, w.approver.secret), 'post bill');
      return;
    }
    case 'void_bill': {
      const bill = at(
        (await list<Bill>(w, '/v1/vendor-bills')).filter((b) => b.status !== 'voided'),
        step.pick,
      );
      if (bill)
        okOr(await send(w, 'POST', `/v1/vendor-bills/${bill.id}/void`, {}), ['vendor_bill_has_payments', 'vendor_bill_invalid_transition'], 'void bill');
      return;
    }
    case 'ap_pay': {
      const bill = at(await openBills(w), step.pick);
      if (!bill) return;
      const value = amount(bill.balance_due).times(step.percent).div(100).toDecimalPlaces(2, 1);
      if (value.lte(0)) return;
      const credit = step.credit === null ? undefined : at(await openCredits(w), step.credit);
      const body = {
        bills: [{ bill_id: bill.id, amount: value.toFixed(2) }],
        vendor_credit_ids: credit ? [credit.id] : [],
        bank_account_id: w.bankAccountId,
        method: 'check',
      };
      ok(await send(w, 'POST', '/v1/ap-payments', body), 'AP payment');
      return;
    }
    case 'void_ap_payment': {
      const payment = at(
        (await list<Row & { status: string }>(w, '/v1/ap-payments')).filter((p) => p.status === 'posted'),
        step.pick,
      );
      if (payment) ok(await send(w, 'POST', `/v1/ap-payments/${payment.id}/void`, {}), 'void AP payment');
      return;
    }
    case 'vendor_credit':
      ok(await send(w, 'POST', '/v1/vendor-credits', { vendor_id: w.vendorId, amount: money(step.cents / 100) }), 'vendor credit');
      return;
    case 'void_vendor_credit': {
      const credit = at(await openCredits(w), step.pick);
      // Partly applied: vendor_credit_invalid_transition.
      if (credit) okOr(await send(w, 'POST', `/v1/vendor-credits/${credit.id}/void`, {}), ['vendor_credit_invalid_transition'], 'void vendor credit');
      return;
    }
    case 'vendor_return': {
      const po = at(
        (await orders(w, 'purchase_order', true)).filter((o) => (o.lines ?? []).some((l) => l.quantity_fulfilled > 0)),
        step.pick,
      );
      if (!po) return;
      const line = (po.lines ?? []).find((l) => l.quantity_fulfilled > 0)!;
      const returned = await send(w, 'POST', `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: line.id, quantity: 1 }] });
      okOr(returned, ['vendor_return_exceeds_received', 'insufficient_stock'], 'vendor return');
      return;
    }
    case 'stock_receipt': {
      const body = { product_id: w.widgetId, location_id: w.locations[0], quantity: step.quantity, unit_cost: money(step.cents / 100) };
      ok(await send(w, 'POST', '/v1/inventory/receipts', body), 'inventory receipt');
      return;
    }
    case 'adjust': {
      const body = { product_id: w.widgetId, location_id: w.locations[0], quantity: step.quantity, reason: 'count' };
      okOr(await send(w, 'POST', '/v1/inventory/adjustments', body), ['insufficient_stock'], 'inventory adjustment');
      return;
    }
    case 'transfer': {
      const [from, to] = step.back ? [w.locations[1], w.locations[0]] : w.locations;
      const body = { product_id: w.widgetId, from_location_id: from, to_location_id: to, quantity: step.quantity };
      okOr(await send(w, 'POST', '/v1/inventory/transfers', body), ['insufficient_stock'], 'transfer');
      return;
    }
    case 'build_kit':
      okOr(await send(w, 'POST', `/v1/kits/${w.kitId}/builds`, { location_id: w.locations[0], quantity: step.quantity }), ['insufficient_stock'], 'kit build');
      return;
    case 'journal':
      ok(await send(w, 'POST', '/v1/journal-entries', { entry_date: today(), post: true, lines: journalLines(w, money(step.cents / 100)) }), 'journal entry');
      return;
    case 'close_period':
      await closeNextPeriod(w);
      return;
    case 'post_before_closed': {
      // The day before the earliest closed period, where no period exists: the closed balances would move.
      const first = w.closed[0];
      if (!first) return;
      const date = new Date(Date.parse(`${first.start}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const refused = await send(w, 'POST', '/v1/journal-entries', { entry_date: date, post: true, lines: journalLines(w, '1.00') });
      expect(refused.error?.code, refused.text).toBe('period_closed');
      return;
    }
    case 'post_into_closed': {
      const period = at(w.closed, step.pick);
      if (!period) return;
      const date = period.end;
      if (step.what === 'journal') {
        const refused = await send(w, 'POST', '/v1/journal-entries', { entry_date: date, post: true, lines: journalLines(w, '1.00') });
        expect(refused.error?.code, refused.text).toBe('period_closed');
      } else if (step.what === 'payment') {
        const body = { account_id: w.accountId, amount: '1.00', applications: [], route_unapplied: 'credit', payment_date: date };
        const refused = await send(w, 'POST', '/v1/payments/multi-invoice-apply', body);
        expect(refused.error?.code, refused.text).toBe('period_closed');
      } else {
        const draft = ok(
          await send(w, 'POST', '/v1/vendor-bills', {
            vendor_id: w.vendorId,
            bill_date: date,
            lines: [{ type: 'expense', account_id: w.expenseAccountId, amount: '1.00' }],
          }),
          'create backdated bill',
        );
        ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/submit`), 'submit bill');
        ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/approve`, undefined, w.approver.secret), 'approve bill');
        const refused = await send(w, 'POST', `/v1/vendor-bills/${draft.id}/post`, undefined, w.approver.secret);
        expect(refused.error?.code, refused.text).toBe('period_closed');
        ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/void`, {}), 'void the unposted bill');
      }
      return;
    }
  }
}

/** Books an expense into the next past month, then closes that month (owner requests, controller approves). */
async function closeNextPeriod(w: BooksWorld): Promise<void> {
  const monthsAgo = OLDEST_CLOSED_MONTH - w.closed.length;
  if (monthsAgo < 2) return;
  const { start, end } = month(monthsAgo);
  ok(await send(w, 'POST', '/v1/journal-entries', { entry_date: end, post: true, lines: journalLines(w, '12.34') }), 'backdated journal entry');
  const period = ok(await send(w, 'POST', '/v1/periods', { period_name: `M${start}`, start_date: start, end_date: end }), 'create period');
  ok(await send(w, 'POST', `/v1/periods/${period.id}/request-close`), 'request close');
  ok(await send(w, 'POST', `/v1/periods/${period.id}/approve-close`, undefined, w.controller.secret), 'approve close');
  w.closed.push({ id: period.id, start, end, trial: await trialBalance(w.api, w.owner, w.system, end) });
}

/** Nothing was posted into a closed period: the trial balance as of each closed month's end is what it was at the close. */
export async function expectClosedPeriodsUntouched(w: BooksWorld, label: string): Promise<void> {
  const latest = w.closed.at(-1);
  if (!latest) return;
  expect(await trialBalance(w.api, w.owner, w.system, latest.end), `closed period ${latest.start}..${latest.end} — ${label}`).toEqual(latest.trial);
}
