/**
 * The end of a whole-cycle sequence: every document that holds money is driven to a terminal
 * state through the API, as a controller closing the books would: pending ACH debits clear,
 * received goods are billed, sales-order deposits follow their invoice (or go back), credit-memo
 * credit and unapplied payments are refunded, invoices are paid, receipts deposited, vendor
 * credits used against a bill, and bills paid. After it every sub-ledger that holds money is 0.
 */
import { amount } from '../../shared/money';
import { depositAll } from './books-sales';
import { list, ok, okOr, orders, payments, postedBill, send, type BooksWorld, type Row } from './books-world';

type Bill = Row & { status: string; balance_due: number };
type Credit = Row & { remaining_amount: string };

async function apPay(w: BooksWorld, billId: string, value: string, creditIds: string[] = []): Promise<void> {
  const body = { bills: [{ bill_id: billId, amount: value }], vendor_credit_ids: creditIds, bank_account_id: w.bankAccountId, method: 'check' };
  ok(await send(w, 'POST', '/v1/ap-payments', body), 'settle: AP payment');
}

export async function settleBooks(w: BooksWorld): Promise<void> {
  for (const payment of (await payments(w)).filter((p) => p.status === 'pending')) {
    ok(await send(w, 'POST', `/v1/payments/${payment.id}/clear`), 'settle: clear ACH');
  }
  // Received goods not billed yet are billed (and unposted bills voided).
  for (const bill of (await list<Bill>(w, '/v1/vendor-bills')).filter((b) => ['draft', 'pending_approval', 'approved', 'rejected'].includes(b.status))) {
    ok(await send(w, 'POST', `/v1/vendor-bills/${bill.id}/void`, {}), 'settle: void an unposted bill');
  }
  for (const po of await orders(w, 'purchase_order', true)) {
    if ((po.lines ?? []).some((l) => l.quantity_fulfilled > l.billed_quantity)) await postedBill(w, { po_id: po.id });
  }
  // A sales order's deposit follows its next invoice; one with nothing left to bill gives it back.
  for (const order of (await orders(w, 'sales_order')).filter((o) => o.amount_paid > 0)) {
    const converted = await send(w, 'POST', `/v1/orders/${order.id}/convert`);
    if (okOr(converted, ['order_invalid_transition'], 'settle: invoice a prepaid sales order')) {
      ok(await send(w, 'POST', `/v1/orders/${converted.body.id}/confirm`), 'settle: post invoice');
    }
  }
  for (const memo of (await orders(w, 'return')).filter((o) => o.balance_due < 0)) {
    const body = { bank_account_id: w.bankAccountId, amount: amount(memo.balance_due).negated().toFixed(2) };
    ok(await send(w, 'POST', `/v1/orders/${memo.id}/refund-credit`, body), 'settle: refund credit-memo credit');
  }
  // Refunds give back unapplied money first, then what a sales order still holds.
  const held = new Map((await orders(w, 'sales_order')).filter((o) => o.amount_paid > 0).map((o) => [o.id, amount(o.amount_paid)]));
  for (const payment of (await payments(w)).filter((p) => ['undeposited', 'deposited'].includes(p.status))) {
    const onOrder = payment.order_id ? (held.get(payment.order_id) ?? amount(0)) : amount(0);
    const refundable = amount(payment.amount).minus(payment.amount_refunded);
    const value = amount(payment.unapplied_amount).plus(onOrder);
    const refund = value.gt(refundable) ? refundable : value;
    if (refund.lte(0)) continue;
    ok(await send(w, 'POST', `/v1/payments/${payment.id}/refunds`, { amount: refund.toFixed(2) }), 'settle: refund customer money');
    if (payment.order_id && onOrder.gt(0)) held.set(payment.order_id, onOrder.minus(refund.minus(payment.unapplied_amount)));
  }
  for (const invoice of (await orders(w, 'invoice')).filter((o) => o.balance_due > 0)) {
    ok(
      await send(w, 'POST', `/v1/orders/${invoice.id}/payments`, { amount: amount(invoice.balance_due).toFixed(2), payment_method: 'check' }),
      'settle: pay invoice',
    );
  }
  await depositAll(w);
  // Each vendor credit left is used up against a bill of its amount; then every open bill is paid.
  for (const credit of (await list<Credit>(w, '/v1/vendor-credits')).filter((c) => amount(c.remaining_amount).gt(0))) {
    const bill = await postedBill(w, { vendor_id: w.vendorId, lines: [{ type: 'expense', account_id: w.expenseAccountId, amount: credit.remaining_amount }] });
    await apPay(w, bill.id, amount(credit.remaining_amount).toFixed(2), [credit.id]);
  }
  for (const bill of (await list<Bill>(w, '/v1/vendor-bills')).filter((b) => ['open', 'partially_paid'].includes(b.status))) {
    await apPay(w, bill.id, amount(bill.balance_due).toFixed(2));
  }
}
