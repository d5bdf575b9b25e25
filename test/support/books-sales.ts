/**
 * The sales and cash operations of the whole-cycle books property test: orders of the customer
 * types through their lifecycle, fulfilments, invoices, payments, applications, refunds, voids, ACH
 * clearance, deposits, returns and their credit. Each reads what it acts on through the API and
 * asserts the answer: a success when its preconditions hold, else a refusal with a known code.
 */
import { expect } from 'vitest';
import { amount, sum } from '../../shared/money';
import { at, money, ok, okOr, orders, payments, send, today, type BooksWorld, type Order } from './books-world';

export type SalesOp =
  | { kind: 'sell'; document: 'quote' | 'sales_order' | 'invoice'; quantity: number; cents: number; kit: boolean; ship: boolean }
  | { kind: 'fulfil'; pick: number }
  | { kind: 'invoice_order'; pick: number }
  | { kind: 'pay'; pick: number; percent: number; method: 'check' | 'ach'; onOrder: boolean }
  | { kind: 'pay_invoiced_order'; cents: number }
  | { kind: 'multi_pay'; extraCents: number }
  | { kind: 'credit'; cents: number }
  | { kind: 'apply'; pick: number }
  | { kind: 'apply_remainder'; pick: number }
  | { kind: 'refund'; pick: number; percent: number }
  | { kind: 'void_payment'; pick: number }
  | { kind: 'clear_ach'; pick: number }
  | { kind: 'fail_ach'; pick: number }
  | { kind: 'deposit' }
  | { kind: 'void_invoice'; pick: number }
  | { kind: 'cancel_order'; pick: number }
  | { kind: 'cancel_refunded_order'; cents: number }
  | { kind: 'return'; pick: number }
  | { kind: 'receive_return'; cents: number; restock: boolean }
  | { kind: 'credit_apply'; pick: number; percent: number }
  | { kind: 'credit_refund'; pick: number; percent: number };

const SHIPPABLE = ['confirmed', 'partially_fulfilled'];
const open = (o: Order) => o.balance_due > 0 && ['confirmed', 'partially_fulfilled', 'fulfilled'].includes(o.order_status);
const part = (whole: number, percent: number) => amount(whole).times(percent).div(100).toDecimalPlaces(2, 1);
/** What of a line is left to ship: its own lines (kit components follow their kit's line). */
const unshipped = (o: Order) => (o.lines ?? []).filter((l) => !l.kit_parent_line_id && l.quantity_fulfilled < l.quantity);

/** A sales order (or invoice) of 2 widgets at `cents`, confirmed. */
async function confirmedOrder(w: BooksWorld, documentType: string, cents: number): Promise<Order> {
  const lines = [{ product_id: w.widgetId, quantity: 2, sell_rate: money(cents / 100) }];
  const order = ok(
    await send(w, 'POST', '/v1/orders', { document_type: documentType, account_id: w.accountId, location_id: w.locations[0], lines }),
    `create ${documentType}`,
  );
  return ok(await send(w, 'POST', `/v1/orders/${order.id}/confirm`), `confirm ${documentType}`) as Order;
}

/** Ships what is left of a sales order or directly created invoice (short of stock: insufficient_stock). */
async function ship(w: BooksWorld, order: Order): Promise<void> {
  const lines = unshipped(order).map((l) => ({ line_id: l.id, quantity: l.quantity - l.quantity_fulfilled }));
  if (lines.length) okOr(await send(w, 'POST', `/v1/orders/${order.id}/fulfillments`, { lines }), ['insufficient_stock'], 'fulfil');
}

async function openInvoices(w: BooksWorld) {
  return (await orders(w, 'invoice')).filter(open);
}

export async function runSales(w: BooksWorld, step: SalesOp): Promise<void> {
  switch (step.kind) {
    case 'sell': {
      const lines = [
        { product_id: w.widgetId, quantity: step.quantity, sell_rate: money(step.cents / 100) },
        ...(step.kit ? [{ product_id: w.kitId, quantity: 1, sell_rate: '25.00' }] : []),
      ];
      const body = { document_type: step.document, account_id: w.accountId, location_id: w.locations[0], lines };
      const created = ok(await send(w, 'POST', '/v1/orders', body), `create ${step.document}`);
      ok(await send(w, 'POST', `/v1/orders/${created.id}/confirm`), `confirm ${step.document}`);
      let order = created as Order;
      if (step.document === 'quote') {
        // A quote accepted becomes a sales order, confirmed.
        order = ok(await send(w, 'POST', `/v1/orders/${created.id}/convert`), 'convert quote') as Order;
        ok(await send(w, 'POST', `/v1/orders/${order.id}/confirm`), 'confirm sales order');
      }
      if (step.ship) await ship(w, order);
      return;
    }
    case 'fulfil': {
      const candidates = [...(await orders(w, 'sales_order', true)), ...(await orders(w, 'invoice', true))].filter(
        (o) => SHIPPABLE.includes(o.order_status) && !o.converted_from_id && unshipped(o).length > 0,
      );
      const target = at(candidates, step.pick);
      if (target) await ship(w, target);
      return;
    }
    case 'invoice_order': {
      const target = at(
        (await orders(w, 'sales_order')).filter((o) => ['confirmed', 'partially_fulfilled', 'fulfilled'].includes(o.order_status)),
        step.pick,
      );
      if (!target) return;
      const converted = await send(w, 'POST', `/v1/orders/${target.id}/convert`);
      // Everything already billed: nothing_to_bill.
      if (okOr(converted, ['order_invalid_transition'], 'invoice a sales order'))
        ok(await send(w, 'POST', `/v1/orders/${converted.body.id}/confirm`), 'post invoice');
      return;
    }
    case 'pay': {
      const documents = step.onOrder
        ? (await orders(w, 'sales_order')).filter((o) => o.balance_due > 0 && SHIPPABLE.includes(o.order_status))
        : await openInvoices(w);
      const target = at(
        documents.filter((o) => o.order_status !== 'awaiting_ach_clearance'),
        step.pick,
      );
      if (!target) return;
      const value = part(target.balance_due, step.percent);
      if (value.lte(0)) return;
      const body = { amount: value.toFixed(2), payment_method: step.method };
      // A sales order fully billed takes no payment (row 5 of issue 39); the pay_invoiced_order move asserts that.
      okOr(await send(w, 'POST', `/v1/orders/${target.id}/payments`, body), ['order_not_payable'], 'pay a document');
      return;
    }
    case 'pay_invoiced_order': {
      // A sales order with a deposit of its whole total, invoiced in full: its invoice takes the
      // deposit, the sales order owes nothing more and refuses another payment (row 5).
      const order = await confirmedOrder(w, 'sales_order', step.cents);
      ok(await send(w, 'POST', `/v1/orders/${order.id}/payments`, { amount: money(order.order_total), payment_method: 'check' }), 'deposit on a sales order');
      const invoice = ok(await send(w, 'POST', `/v1/orders/${order.id}/convert`), 'invoice a sales order');
      ok(await send(w, 'POST', `/v1/orders/${invoice.id}/confirm`), 'post invoice');
      const after = ok(await send(w, 'GET', `/v1/orders/${order.id}`), 'read sales order') as Order;
      expect({ balance_due: after.balance_due, amount_paid: after.amount_paid }, 'a sales order invoiced and paid through its invoice').toEqual({
        balance_due: 0,
        amount_paid: order.order_total,
      });
      const refused = await send(w, 'POST', `/v1/orders/${order.id}/payments`, { amount: '10.00', payment_method: 'check' });
      expect(refused.error?.code, `a fully invoiced sales order took a payment: ${refused.status} ${refused.text}`).toBe('order_not_payable');
      return;
    }
    case 'multi_pay': {
      const invoices = await openInvoices(w);
      const total = sum(invoices.map((o) => o.balance_due)).plus(step.extraCents / 100);
      if (total.lte(0)) return;
      const body = { account_id: w.accountId, amount: total.toFixed(2), auto_apply: true, route_unapplied: 'credit' };
      ok(await send(w, 'POST', '/v1/payments/multi-invoice-apply', body), 'multi-invoice payment');
      return;
    }
    case 'credit': {
      const body = { account_id: w.accountId, amount: money(step.cents / 100), applications: [], route_unapplied: 'credit' };
      ok(await send(w, 'POST', '/v1/payments/multi-invoice-apply', body), 'unapplied payment');
      return;
    }
    case 'apply_remainder': {
      // Half of an open invoice paid by a payment of its whole balance, the rest routed to credit;
      // that remainder is applied to the invoice later (row 3).
      const invoice = at(
        (await openInvoices(w)).filter((o) => o.balance_due >= 0.02 && o.order_status !== 'awaiting_ach_clearance'),
        step.pick,
      );
      if (!invoice) return;
      const half = amount(invoice.balance_due).div(2).toDecimalPlaces(2, 1);
      const rest = amount(invoice.balance_due).minus(half).toFixed(2);
      const paid = {
        account_id: w.accountId,
        amount: money(invoice.balance_due),
        applications: [{ order_id: invoice.id, amount_applied: half.toFixed(2) }],
        route_unapplied: 'credit',
      };
      const payment = (ok(await send(w, 'POST', '/v1/payments/multi-invoice-apply', paid), 'partly applied payment') as unknown as { data: { id: string } })
        .data;
      // Applied in two parts, as a controller catching up would (POST /v1/payments/{payment_id}/apply-credit).
      const first = amount(rest).div(2).toDecimalPlaces(2, 1);
      for (const value of [first, amount(rest).minus(first)].filter((v) => v.gt(0))) {
        const body = { invoice_id: invoice.id, amount: value.toFixed(2) };
        ok(await send(w, 'POST', `/v1/payments/${payment.id}/apply-credit`, body), 'apply the remainder later');
      }
      return;
    }
    case 'apply': {
      // A payment with no applications yet, applied to an open invoice (E8).
      const unapplied = (await payments(w)).filter(
        (p) => !p.order_id && p.unapplied_amount > 0 && ['undeposited', 'deposited'].includes(p.status) && p.applied_count === 0,
      );
      const payment = at(unapplied, step.pick);
      const invoice = at(await openInvoices(w), step.pick);
      if (!payment || !invoice) return;
      const value = Math.min(payment.unapplied_amount, invoice.balance_due);
      const body = { account_id: w.accountId, applications: [{ order_id: invoice.id, amount_applied: money(value) }] };
      ok(await send(w, 'POST', `/v1/payments/${payment.id}/apply`, body), step.kind);
      return;
    }
    case 'refund': {
      const target = at(
        (await payments(w)).filter((p) => ['undeposited', 'deposited'].includes(p.status) && p.amount > p.amount_refunded),
        step.pick,
      );
      if (!target) return;
      const value = part(amount(target.amount).minus(target.amount_refunded).toNumber(), step.percent);
      if (value.gt(0)) ok(await send(w, 'POST', `/v1/payments/${target.id}/refunds`, { amount: value.toFixed(2) }), 'refund');
      return;
    }
    case 'void_payment': {
      const target = at(
        (await payments(w)).filter((p) => p.status === 'undeposited'),
        step.pick,
      );
      if (target) okOr(await send(w, 'POST', `/v1/payments/${target.id}/void`), ['payment_refunded'], 'void payment');
      return;
    }
    case 'clear_ach':
    case 'fail_ach': {
      const target = at(
        (await payments(w)).filter((p) => p.status === 'pending'),
        step.pick,
      );
      if (target) ok(await send(w, 'POST', `/v1/payments/${target.id}/${step.kind === 'clear_ach' ? 'clear' : 'fail'}`), step.kind);
      return;
    }
    case 'deposit':
      await depositAll(w);
      return;
    case 'void_invoice': {
      const target = at(
        (await orders(w, 'invoice')).filter((o) => o.order_status === 'confirmed' && o.amount_paid === 0),
        step.pick,
      );
      // Credited by a credit memo: has_credits.
      if (target) okOr(await send(w, 'POST', `/v1/orders/${target.id}/void`), ['order_invalid_transition', 'has_credits'], 'void invoice');
      return;
    }
    case 'cancel_order': {
      const candidates = [...(await orders(w, 'quote')), ...(await orders(w, 'sales_order'))].filter(
        (o) => ['draft', 'confirmed'].includes(o.order_status) && o.amount_paid === 0 && o.payment_status === 'unpaid',
      );
      const target = at(candidates, step.pick);
      // A quote already converted, or a sales order with invoices or shipments: order_invalid_transition.
      if (target) okOr(await send(w, 'POST', `/v1/orders/${target.id}/cancel`), ['order_invalid_transition'], 'cancel order');
      return;
    }
    case 'cancel_refunded_order': {
      // A sales order whose deposit went back in full holds no money: it can be cancelled (row 4).
      const order = await confirmedOrder(w, 'sales_order', step.cents);
      const deposit = ok(await send(w, 'POST', `/v1/orders/${order.id}/payments`, { amount: '10.00', payment_method: 'check' }), 'deposit on a sales order');
      ok(await send(w, 'POST', `/v1/payments/${deposit.id}/refunds`, { amount: '10.00' }), 'refund the deposit');
      ok(await send(w, 'POST', `/v1/orders/${order.id}/cancel`), 'cancel a sales order whose deposit was refunded');
      return;
    }
    case 'return': {
      const invoices = (await orders(w, 'invoice', true)).filter((o) => ['confirmed', 'partially_fulfilled', 'fulfilled'].includes(o.order_status));
      const source = at(
        invoices.filter((o) => (o.lines ?? []).some((l) => !l.kit_parent_line_id && l.quantity_fulfilled > 0)),
        step.pick,
      );
      if (!source) return;
      const line = (source.lines ?? []).find((l) => !l.kit_parent_line_id && l.quantity_fulfilled > 0)!;
      const created = await send(w, 'POST', `/v1/orders/${source.id}/returns`, { lines: [{ line_id: line.id, quantity: 1, restock: true }] });
      if (okOr(created, ['return_quantity_exceeded'], 'create return')) ok(await send(w, 'POST', `/v1/orders/${created.body.id}/confirm`), 'confirm return');
      return;
    }
    case 'receive_return': {
      // A paid invoice's goods come back: its credit memo's credit is all customer credit, and it
      // stays available once the goods are received (row 2): a cent of it is refunded after the receipt.
      const invoice = await confirmedOrder(w, 'invoice', step.cents);
      const line = (invoice.lines ?? [])[0];
      if (
        !okOr(await send(w, 'POST', `/v1/orders/${invoice.id}/fulfillments`, { lines: [{ line_id: line.id, quantity: 2 }] }), ['insufficient_stock'], 'fulfil')
      )
        return;
      ok(await send(w, 'POST', `/v1/orders/${invoice.id}/payments`, { amount: money(invoice.order_total), payment_method: 'check' }), 'pay invoice');
      const memo = ok(
        await send(w, 'POST', `/v1/orders/${invoice.id}/returns`, { lines: [{ line_id: line.id, quantity: 1, restock: step.restock }] }),
        'create return',
      );
      ok(await send(w, 'POST', `/v1/orders/${memo.id}/confirm`), 'confirm return');
      ok(await send(w, 'POST', `/v1/orders/${memo.id}/receive-return`, {}), 'receive return');
      ok(
        await send(w, 'POST', `/v1/orders/${memo.id}/refund-credit`, { bank_account_id: w.bankAccountId, amount: '0.01' }),
        'refund credit after the goods came back',
      );
      return;
    }
    case 'credit_apply':
    case 'credit_refund': {
      const memo = at(
        (await orders(w, 'return')).filter((o) => o.balance_due < 0),
        step.pick,
      );
      if (!memo) return;
      const credit = -memo.balance_due;
      if (step.kind === 'credit_refund') {
        const value = part(credit, step.percent);
        if (value.gt(0))
          ok(await send(w, 'POST', `/v1/orders/${memo.id}/refund-credit`, { bank_account_id: w.bankAccountId, amount: value.toFixed(2) }), 'refund credit');
        return;
      }
      const invoice = at(await openInvoices(w), step.pick);
      if (!invoice) return;
      const value = part(Math.min(credit, invoice.balance_due), step.percent);
      if (value.gt(0)) ok(await send(w, 'POST', `/v1/orders/${memo.id}/apply-credit`, { invoice_id: invoice.id, amount: value.toFixed(2) }), 'apply credit');
      return;
    }
  }
}

/** Every undeposited receipt into the bank, in one deposit. */
export async function depositAll(w: BooksWorld): Promise<void> {
  const receipts = (await payments(w)).filter((p) => p.status === 'undeposited' && p.amount > p.amount_refunded);
  if (!receipts.length) return;
  const body = { bank_account_id: w.bankAccountId, deposit_date: today(), payment_ids: receipts.map((p) => p.id), memo: 'bank run' };
  ok(await send(w, 'POST', '/v1/deposits', body), 'deposit');
}
