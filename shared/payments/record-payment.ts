/**
 * Recording customer payments: against one document, over several invoices (explicitly or oldest
 * first), and applying an unapplied payment to invoices later.
 *
 * A payment posts debit undeposited_funds when it is received, crediting accounts_receivable with
 * what it applies to invoices and customer_credits with the rest (a sales order's deposit, an
 * unapplied remainder); applying that rest to invoices later moves it from customer_credits to
 * accounts_receivable, dated applied_date (E8 here, later parts in payment-credit.ts). The documents it pays are locked first (paid-documents.ts); the
 * rules (payable amounts, oldest-first allocation, receipt posting lines) are in allocation.ts.
 */
import type { Db } from '../db/database';
import { allocateOldestFirst, payableAmount, receiptApplications, receiptPostingLines } from './allocation';
import { holdForAchClearance, lockPayableDocuments, type PayableDocument } from '../orders/document-money';
import { settlePaidDocuments } from './document-payments';
import { getPayment } from './payment-store';
import { assertPaymentUsable, type PaymentActor, type PaymentResult } from './payment-context';
import { applicationDate, postApplication, recordApplicationDates } from './payment-credit';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { hasParty } from '../parties/parties';
import { postJournalEntry } from '../ledger/post-journal-entry';
import { amount, type Amount, sum, toJsonNumber, ZERO } from '../money';
import type { ApplicationInput, MultiInvoicePaymentCreate, OrderPaymentCreate, PaymentApply } from './schemas/payment';
import { todayUtc } from '../dates';

function notPayable(order: PayableDocument, payable: Amount, param: string): ApiError {
  return new ApiError('order_not_payable', {
    param,
    hint: payable.isZero()
      ? `This ${order.document_type} (${order.order_status}) accepts no payment.`
      : `The payment would overpay this document: it accepts at most ${payable.toString()}.`,
    details: { payable_amount: toJsonNumber(payable), current_status: order.order_status, document_type: order.document_type },
  });
}

interface NewPayment {
  account_id: string;
  amount: Amount;
  order_id: string | null;
  applications: { order: PayableDocument; amount: Amount }[];
  fields: Pick<OrderPaymentCreate, 'payment_method' | 'payment_date' | 'check_number' | 'check_date' | 'external_reference' | 'notes'>;
  /** When the applications take effect, if later than payment_date (multi-invoice payments). */
  applied_date?: string;
}

async function receivePayment(db: Db, actor: PaymentActor, input: NewPayment): Promise<PaymentResult> {
  const { entityId } = actor;
  const id = newId();
  const paymentDate = input.fields.payment_date ?? todayUtc();
  const method = input.fields.payment_method ?? (input.fields.check_number ? 'check' : 'other');
  const applied = sum(input.applications.map((a) => a.amount));
  // An ACH debit is pending until it clears (POST /v1/payments/{id}/clear): nothing posts before.
  const pending = method === 'ach';
  if (input.applied_date !== undefined && pending) {
    throw new ApiError('parameter_invalid', { param: 'applied_date', hint: "An ACH payment's applications take effect when it clears (cleared_date)." });
  }
  const appliedDate = input.applied_date === undefined ? paymentDate : applicationDate(input.applied_date, paymentDate);
  // Applied later than received: the receipt is customer credit until applied_date, then moves to AR.
  const appliedLater = appliedDate !== paymentDate && applied.gt(0);
  const entry = pending
    ? null
    : await postJournalEntry(
        db,
        actor,
        {
          entry_date: paymentDate,
          memo: `Customer payment${input.fields.check_number ? ` (check ${input.fields.check_number})` : ''}`,
          source_type: 'payment',
          source_id: id,
          lines: [
            { system_key: 'undeposited_funds', debit: input.amount.toString() },
            ...receiptPostingLines(input.amount, appliedLater ? [] : receiptApplications(input.applications), 'credit'),
          ],
        },
        { dateParam: 'payment_date' },
      );
  if (appliedLater) await postApplication(actor, db, id, applied, appliedDate);
  await db.query(
    `INSERT INTO payments (id, entity_id, account_id, amount, unapplied_amount, payment_method, payment_date, check_number, check_date,
       external_reference, notes, order_id, journal_entry_id, created_by_user_id, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      id,
      entityId,
      input.account_id,
      input.amount.toString(),
      input.amount.minus(applied).toString(),
      method,
      paymentDate,
      input.fields.check_number ?? null,
      input.fields.check_date ?? null,
      input.fields.external_reference ?? null,
      input.fields.notes ?? null,
      input.order_id,
      entry?.id ?? null,
      actor.userId,
      pending ? 'pending' : 'undeposited',
    ],
  );
  await writeApplications(db, entityId, id, input.applications, pending);
  if (appliedLater) await recordApplicationDates(db, entityId, id, applicationParts(input.applications), appliedDate);
  return { payment: await getPayment(db, entityId, id) };
}

const applicationParts = (applications: readonly { order: PayableDocument; amount: Amount }[]) =>
  applications.map((a) => ({ orderId: a.order.id, amount: a.amount }));

async function writeApplications(
  db: Db,
  entityId: string,
  paymentId: string,
  applications: { order: PayableDocument; amount: Amount }[],
  pending = false,
): Promise<void> {
  if (!applications.length) return;
  await db.query(
    `INSERT INTO payment_applications (id, entity_id, payment_id, order_id, amount_applied)
     SELECT v.id, $1, $2, v.order_id, v.amount FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) WITH ORDINALITY AS v(id, order_id, amount, n) ORDER BY v.n`,
    [entityId, paymentId, applications.map(() => newId()), applications.map((a) => a.order.id), applications.map((a) => a.amount.toString())],
  );
  // A pending ACH payment pays nothing yet: its documents wait in awaiting_ach_clearance.
  if (pending)
    await holdForAchClearance(
      db,
      entityId,
      applications.map((a) => a.order),
    );
  else
    await settlePaidDocuments(
      db,
      entityId,
      applications.map((a) => a.order.id),
    );
}

/** POST /v1/orders/{id}/payments: a payment against one sales order or invoice, up to what it accepts. */
export async function createOrderPayment(db: Db, actor: PaymentActor, orderId: string, input: OrderPaymentCreate): Promise<PaymentResult> {
  const [order] = await lockPayableDocuments(db, actor.entityId, 'id = $2', [orderId]);
  if (!order) throw new ApiError('not_found', { param: 'id', hint: 'No such order in this entity.' });
  const value = amount(input.amount);
  const payable = payableAmount(order);
  if (value.gt(payable) || !order.customer_account_id) throw notPayable(order, payable, 'amount');
  return receivePayment(db, actor, {
    account_id: order.customer_account_id,
    amount: value,
    order_id: order.id,
    applications: [{ order, amount: value }],
    fields: input,
  });
}

async function requireAccount(db: Db, entityId: string, accountId: string): Promise<void> {
  if (!(await hasParty(db, 'account', entityId, accountId)))
    throw new ApiError('not_found', { param: 'account_id', hint: 'No such customer account in this entity.' });
}

function checkApplicationShape(applications: ApplicationInput[], limit: Amount, overLimit: () => ApiError): Amount {
  const seen = new Set<string>();
  applications.forEach((application, index) => {
    const key = application.order_id.toLowerCase();
    if (seen.has(key)) throw new ApiError('parameter_invalid', { param: `applications[${index}].order_id`, hint: 'Each invoice may appear once.' });
    seen.add(key);
  });
  const total = sum(applications.map((a) => a.amount_applied));
  if (total.gt(limit)) throw overLimit();
  return total;
}

/** Locks the invoices named by `applications` and checks each: in the entity, an invoice of the account, not overpaid. */
async function lockApplications(
  db: Db,
  entityId: string,
  accountId: string,
  applications: ApplicationInput[],
): Promise<{ order: PayableDocument; amount: Amount }[]> {
  const orders = await lockPayableDocuments(db, entityId, 'id = ANY($2::uuid[])', [applications.map((a) => a.order_id)]);
  const byId = new Map(orders.map((order) => [order.id.toLowerCase(), order]));
  return applications.map((application, index) => {
    const param = `applications[${index}].order_id`;
    const order = byId.get(application.order_id.toLowerCase());
    if (!order) throw new ApiError('not_found', { param, hint: 'No such invoice in this entity.' });
    if (order.document_type !== 'invoice') throw notPayable(order, ZERO, param);
    if (order.customer_account_id !== accountId) {
      throw new ApiError('order_not_payable', {
        param,
        hint: "This invoice belongs to another customer account than the payment's.",
        details: { payable_amount: 0, current_status: order.order_status, document_type: order.document_type },
      });
    }
    const value = amount(application.amount_applied);
    const payable = payableAmount(order, ['invoice']);
    if (value.gt(payable)) throw notPayable(order, payable, `applications[${index}].amount_applied`);
    return { order, amount: value };
  });
}

const byAge = (a: PayableDocument, b: PayableDocument) =>
  new Date(a.order_date).getTime() - new Date(b.order_date).getTime() ||
  new Date(a.created_at).getTime() - new Date(b.created_at).getTime() ||
  (a.id < b.id ? -1 : 1);

/** E6: one payment applied to several invoices (explicitly or oldest-first), atomically. */
export async function createMultiInvoicePayment(db: Db, actor: PaymentActor, input: MultiInvoicePaymentCreate): Promise<PaymentResult> {
  const { entityId } = actor;
  const value = amount(input.amount);
  const explicit = input.applications ?? [];
  if (input.auto_apply && explicit.length) {
    throw new ApiError('parameter_invalid', { param: 'auto_apply', hint: 'Send applications or auto_apply true, not both.' });
  }
  checkApplicationShape(
    explicit,
    value,
    () => new ApiError('parameter_invalid', { param: 'applications', hint: 'The applications add up to more than the payment amount.' }),
  );
  await requireAccount(db, entityId, input.account_id);
  let applications: { order: PayableDocument; amount: Amount }[];
  if (input.auto_apply) {
    const open = await lockPayableDocuments(
      db,
      entityId,
      `customer_account_id = $2 AND document_type = 'invoice' AND order_status NOT IN ('draft', 'cancelled', 'voided')`,
      [input.account_id],
    );
    const targets = open
      .sort(byAge)
      .map((order) => ({ order, payable: payableAmount(order, ['invoice']) }))
      .filter((target) => target.payable.gt(0));
    applications = allocateOldestFirst(value, targets).allocations.map((allocation) => ({ order: allocation.target.order, amount: allocation.amount }));
  } else {
    applications = await lockApplications(db, entityId, input.account_id, explicit);
  }
  const remainder = value.minus(sum(applications.map((a) => a.amount)));
  if (remainder.gt(0) && input.route_unapplied !== 'credit') {
    throw new ApiError('parameter_missing', {
      param: 'route_unapplied',
      hint: `${remainder.toString()} of the payment is not applied: send route_unapplied "credit" to keep it as customer credit.`,
    });
  }
  return receivePayment(db, actor, {
    account_id: input.account_id,
    amount: value,
    order_id: null,
    applications,
    fields: input,
    applied_date: input.applied_date,
  });
}

/** E8: applies an unallocated payment (no order_id, no applications) to invoices; the payment row is locked. */
export async function applyPayment(db: Db, actor: PaymentActor, paymentId: string, input: PaymentApply): Promise<PaymentResult> {
  const { entityId } = actor;
  const row = await db.maybeOne<{ id: string; account_id: string; order_id: string | null; unapplied_amount: string; status: string; payment_date: string }>(
    'SELECT id, account_id, order_id, unapplied_amount, status, payment_date::text AS payment_date FROM payments WHERE entity_id = $1 AND id = $2 FOR UPDATE',
    [entityId, paymentId],
  );
  if (!row) throw new ApiError('not_found', { param: 'payment_id', hint: 'No such payment in this entity.' });
  assertPaymentUsable(row.status, 'payment_id');
  if (input.account_id && input.account_id.toLowerCase() !== row.account_id) {
    throw new ApiError('parameter_invalid', { param: 'account_id', hint: "account_id is not the payment's account." });
  }
  const applied = await db.maybeOne('SELECT 1 FROM payment_applications WHERE entity_id = $1 AND payment_id = $2 LIMIT 1', [entityId, paymentId]);
  if (row.order_id || applied) {
    throw new ApiError('payment_already_applied', {
      param: 'payment_id',
      hint: row.order_id ? 'This payment was made against one document.' : 'This payment already has applications.',
    });
  }
  const appliedDate = applicationDate(input.applied_date, row.payment_date);
  const unapplied = amount(row.unapplied_amount);
  const total = checkApplicationShape(
    input.applications,
    unapplied,
    () =>
      new ApiError('parameter_invalid', {
        param: 'applications',
        hint: `The applications add up to more than the payment's unapplied amount (${unapplied.toString()}).`,
        details: { unapplied_amount: toJsonNumber(unapplied) },
      }),
  );
  const applications = await lockApplications(db, entityId, row.account_id, input.applications);
  await db.query('UPDATE payments SET unapplied_amount = unapplied_amount - $3, updated_at = now() WHERE entity_id = $1 AND id = $2', [
    entityId,
    paymentId,
    total.toString(),
  ]);
  await writeApplications(db, entityId, paymentId, applications);
  // The applied part leaves customer deposits and settles the invoices' receivable (E8 applies to invoices only).
  await postApplication(actor, db, paymentId, total, appliedDate);
  await recordApplicationDates(db, entityId, paymentId, applicationParts(applications), appliedDate);
  return { payment: await getPayment(db, entityId, paymentId, 'payment_id') };
}
