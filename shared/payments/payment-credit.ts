/**
 * A payment's unapplied money applied to an invoice later, in parts, until none is left: the
 * remainder of a partly applied payment (multi-invoice-apply with route_unapplied credit, or an
 * unallocated payment applied in part with E8). It is applied as a credit memo's credit is (POST
 * /v1/orders/{id}/apply-credit), as Xero allocates an overpayment or prepayment to invoices: the
 * payment row is locked, the invoice takes an application (added to the payment's application to
 * it, if any), and one entry moves the money from customer deposits to receivables (debit
 * customer_credits, credit accounts_receivable; source_type payment_application, so voiding the
 * payment reverses it with the receipt), dated applied_date.
 */
import type { Db } from '../db/database';
import { todayUtc } from '../dates';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { postJournalEntry } from '../ledger/post-journal-entry';
import { amount, toJsonNumber, type Amount } from '../money';
import { lockPayableDocuments } from '../orders/document-money';
import { settlePaidDocuments } from './document-payments';
import { payableAmount } from './allocation';
import { assertPaymentUsable, type PaymentActor, type PaymentResult } from './payment-context';
import { getPayment } from './payment-store';
import type { PaymentCreditApply } from './schemas/payment';

/** applied_date: default today (UTC); never before the money was received (400 on applied_date). */
export function applicationDate(appliedDate: string | undefined, receivedDate: string): string {
  const date = appliedDate ?? todayUtc();
  if (date < receivedDate) {
    throw new ApiError('parameter_invalid', {
      param: 'applied_date',
      hint: `The money is applied on or after the day it was received (${receivedDate}).`,
    });
  }
  return date;
}

/** Customer money applied to invoices after it was received: from customer deposits to receivables, dated `date`. */
export async function postApplication(actor: PaymentActor, db: Db, paymentId: string, total: Amount, date: string): Promise<void> {
  await postJournalEntry(
    db,
    actor,
    {
      entry_date: date,
      memo: `Customer credit applied (payment ${paymentId})`,
      source_type: 'payment_application',
      source_id: paymentId,
      lines: [
        { system_key: 'customer_credits', debit: total.toString() },
        { system_key: 'accounts_receivable', credit: total.toString() },
      ],
    },
    { dateParam: 'applied_date' },
  );
}

/**
 * Records the dates of applications that take effect after the receipt (applied_date): the
 * application rows keep one sum per document, these keep when each part moved, so the AR aging
 * as of a date in between sees that money as unapplied (receivables-history.ts).
 */
export async function recordApplicationDates(
  db: Db,
  entityId: string,
  paymentId: string,
  applications: readonly { orderId: string; amount: Amount }[],
  date: string,
): Promise<void> {
  if (!applications.length) return;
  await db.query(
    `INSERT INTO payment_application_moves (id, entity_id, payment_id, order_id, amount, applied_date)
     SELECT v.id, $1, $2, v.order_id, v.amount, $6::date FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) AS v(id, order_id, amount)`,
    [entityId, paymentId, applications.map(() => newId()), applications.map((a) => a.orderId), applications.map((a) => a.amount.toString()), date],
  );
}

/** POST /v1/payments/{payment_id}/apply-credit: `amount` (default: as much as both allow) of the payment's unapplied money to an open invoice. */
export async function applyPaymentCredit(db: Db, actor: PaymentActor, paymentId: string, input: PaymentCreditApply): Promise<PaymentResult> {
  const { entityId } = actor;
  const row = await db.maybeOne<{ id: string; account_id: string; unapplied_amount: string; status: string; payment_date: string }>(
    `SELECT id, account_id, unapplied_amount, status, payment_date::text AS payment_date FROM payments WHERE entity_id = $1 AND id = $2 FOR UPDATE`,
    [entityId, paymentId],
  );
  if (!row) throw new ApiError('not_found', { param: 'payment_id', hint: 'No such payment in this entity.' });
  assertPaymentUsable(row.status, 'payment_id');
  const available = amount(row.unapplied_amount);
  if (!available.gt(0)) {
    throw new ApiError('credit_not_available', {
      param: 'payment_id',
      hint: 'This payment has no unapplied money left.',
      details: { available_credit: 0 },
    });
  }
  const date = applicationDate(input.applied_date, row.payment_date);
  const [invoice] = await lockPayableDocuments(db, entityId, 'o.id = $2', [input.invoice_id]);
  if (!invoice) throw new ApiError('not_found', { param: 'invoice_id', hint: 'No such invoice in this entity.' });
  const open = payableAmount(invoice, ['invoice']);
  if (!open.gt(0) || invoice.customer_account_id !== row.account_id) {
    throw new ApiError('order_not_payable', {
      param: 'invoice_id',
      hint:
        invoice.customer_account_id !== row.account_id
          ? "This invoice belongs to another customer account than the payment's."
          : `This ${invoice.document_type} (${invoice.order_status}) has nothing open to apply money to.`,
      details: { payable_amount: toJsonNumber(open), current_status: invoice.order_status, document_type: invoice.document_type },
    });
  }
  const value = input.amount === undefined ? (available.lt(open) ? available : open) : amount(input.amount);
  if (value.gt(available)) {
    throw new ApiError('credit_not_available', {
      param: 'amount',
      hint: `This payment has ${available.toString()} unapplied.`,
      details: { available_credit: toJsonNumber(available) },
    });
  }
  if (value.gt(open)) {
    throw new ApiError('order_not_payable', {
      param: 'amount',
      hint: `The invoice has ${open.toString()} open: more would overpay it.`,
      details: { payable_amount: toJsonNumber(open), current_status: invoice.order_status, document_type: invoice.document_type },
    });
  }
  await postApplication(actor, db, paymentId, value, date);
  await db.query('UPDATE payments SET unapplied_amount = unapplied_amount - $3, updated_at = now() WHERE entity_id = $1 AND id = $2', [
    entityId,
    paymentId,
    value.toString(),
  ]);
  await db.query(
    `INSERT INTO payment_applications (id, entity_id, payment_id, order_id, amount_applied) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (entity_id, payment_id, order_id) DO UPDATE SET amount_applied = payment_applications.amount_applied + EXCLUDED.amount_applied, updated_at = now()`,
    [newId(), entityId, paymentId, invoice.id, value.toString()],
  );
  await recordApplicationDates(db, entityId, paymentId, [{ orderId: invoice.id, amount: value }], date);
  await settlePaidDocuments(db, entityId, [invoice.id]);
  return { payment: await getPayment(db, entityId, paymentId, 'payment_id') };
}
