/**
 * Customer payments and bank deposits: SQL only, rules in shared/domain/payments/allocation.ts.
 *
 * A payment posts debit undeposited_funds, credit accounts_receivable for its whole amount when it
 * is received (an unapplied remainder is customer credit sitting in AR, as in QuickBooks); applying
 * it later moves no money in the GL. A deposit posts debit the bank account, credit
 * undeposited_funds per receipt. Every document a payment touches is locked (FOR UPDATE, in id
 * order) before its balance is read, so concurrent payments queue and never overpay it.
 */
import type { Db } from '../db/database';
import { allocateOldestFirst, payableAmount, receiptPostingLines } from './allocation';
import { documentPaymentStatus } from './refund-split';
import { holdForAchClearance } from './ach-state';
import { balanceDue, type DocumentType, type OrderStatus, type PaymentStatus } from '../orders/totals';
import type { EventRecorder } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { postJournalEntry, type PostingContext } from '../ledger/post-journal-entry';
import { amount, type Amount, type AmountLike, sum, toJsonNumber, ZERO } from '../money';
import type { ApplicationInput, MultiInvoicePaymentCreate, OrderPaymentCreate, Payment, PaymentApplication, PaymentApply } from './schemas/payment';
import { todayUtc } from '../dates';

export type PaymentActor = PostingContext & { userId: string; events: EventRecorder };

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

// ---------------------------------------------------------------------------------------------
// Documents a payment touches

export interface OrderState {
  id: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  customer_account_id: string | null;
  order_total: string;
  tax_total: string;
  amount_paid: string;
  /** Refunds the document received (drives partially_refunded and refunded). */
  amount_refunded: string;
  balance_due: string;
  /** The order_status to return to when an ACH payment clears or fails. */
  ach_previous_status: OrderStatus | null;
  /** Credit memos applied: balanceDue and payableAmount subtract them. */
  amount_credited: string;
  order_date: Date | string;
  created_at: Date | string;
}

/** The documents, locked FOR UPDATE in id order (so two payments never deadlock). */
export async function lockOrders(db: Db, entityId: string, where: string, params: unknown[]): Promise<OrderState[]> {
  return db.query<OrderState>(
    `SELECT id, document_type, order_status, payment_status, customer_account_id, order_total, tax_total, amount_paid, amount_refunded, balance_due,
       amount_credited, ach_previous_status, order_date, created_at
       FROM orders WHERE entity_id = $1 AND deleted_at IS NULL AND ${where} ORDER BY id FOR UPDATE`,
    [entityId, ...params],
  );
}

const payableOf = (order: OrderState, documentTypes?: readonly DocumentType[]) => payableAmount(order, documentTypes);

function notPayable(order: OrderState, payable: Amount, param: string): ApiError {
  return new ApiError('order_not_payable', {
    param,
    hint: payable.isZero()
      ? `This ${order.document_type} (${order.order_status}) accepts no payment.`
      : `The payment would overpay this document: it accepts at most ${payable.toString()}.`,
    details: { payable_amount: toJsonNumber(payable), current_status: order.order_status, document_type: order.document_type },
  });
}

/**
 * Moves a locked document's payment figures: amount_paid and amount_refunded by the given deltas,
 * payment_status and balance_due by the pure rules (shared/domain/payments/refunds.ts), and,
 * when given, its order_status and ach_previous_status (ACH clearance).
 */
export async function updateDocumentPayment(
  db: Db,
  entityId: string,
  order: OrderState,
  change: { paid?: Amount; refunded?: Amount; order_status?: OrderStatus; ach_previous_status?: OrderStatus | null },
): Promise<void> {
  const paid = amount(order.amount_paid).plus(change.paid ?? ZERO);
  const refunded = amount(order.amount_refunded).plus(change.refunded ?? ZERO);
  const orderStatus = change.order_status ?? order.order_status;
  const status = documentPaymentStatus({ ...order, amount_paid: paid, amount_refunded: refunded });
  const balance = balanceDue({ ...order, order_status: orderStatus, payment_status: status, amount_paid: paid });
  const previous = change.ach_previous_status === undefined ? order.ach_previous_status : change.ach_previous_status;
  await db.query(
    `UPDATE orders SET amount_paid = $3, amount_refunded = $4, payment_status = $5, balance_due = $6, order_status = $7, ach_previous_status = $8,
       updated_at = now() WHERE entity_id = $1 AND id = $2`,
    [entityId, order.id, paid.toString(), refunded.toString(), status, balance.toString(), orderStatus, previous],
  );
}

/** Adds a payment to a locked document. */
const payOrder = (db: Db, entityId: string, order: OrderState, applied: Amount) => updateDocumentPayment(db, entityId, order, { paid: applied });

// ---------------------------------------------------------------------------------------------
// Payments: rows and mapping

const PAYMENT_COLUMNS = `p.id, 'payment' AS object, p.entity_id, p.account_id, p.amount, p.unapplied_amount, p.payment_method, p.payment_date,
  p.check_number, p.check_date, p.external_reference, p.notes, p.status, p.order_id, p.journal_entry_id, p.deposit_id, p.amount_refunded,
  p.cleared_at, p.voided_at, p.failed_at, p.failure_reason, p.created_by_user_id, p.created_at, p.updated_at`;

type Timestamps = 'created_at' | 'updated_at' | 'cleared_at' | 'voided_at' | 'failed_at';
type PaymentRow = Omit<Payment, 'amount' | 'unapplied_amount' | 'amount_refunded' | 'applications' | 'applied_count' | Timestamps> & {
  amount: string;
  unapplied_amount: string;
  amount_refunded: string;
  created_at: Date | string;
  updated_at: Date | string;
  cleared_at: Date | string | null;
  voided_at: Date | string | null;
  failed_at: Date | string | null;
};

async function applicationsOf(db: Db, entityId: string, paymentIds: string[]): Promise<Map<string, PaymentApplication[]>> {
  const result = new Map<string, PaymentApplication[]>(paymentIds.map((id) => [id, []]));
  if (!paymentIds.length) return result;
  const rows = await db.query<{ id: string; payment_id: string; order_id: string; amount_applied: string }>(
    `SELECT id, payment_id, order_id, amount_applied FROM payment_applications
      WHERE entity_id = $1 AND payment_id = ANY($2::uuid[]) ORDER BY created_at, id`,
    [entityId, paymentIds],
  );
  for (const row of rows) result.get(row.payment_id)!.push({ id: row.id, order_id: row.order_id, amount_applied: toJsonNumber(row.amount_applied) });
  return result;
}

function toPayment(row: PaymentRow, applications: PaymentApplication[]): Payment {
  return {
    ...row,
    amount: toJsonNumber(row.amount),
    unapplied_amount: toJsonNumber(row.unapplied_amount),
    amount_refunded: toJsonNumber(row.amount_refunded),
    applied_count: applications.length,
    applications,
    cleared_at: row.cleared_at === null ? null : iso(row.cleared_at),
    voided_at: row.voided_at === null ? null : iso(row.voided_at),
    failed_at: row.failed_at === null ? null : iso(row.failed_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function getPayment(db: Db, entityId: string, paymentId: string, param = 'id'): Promise<Payment> {
  const row = await db.maybeOne<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.entity_id = $1 AND p.id = $2`, [entityId, paymentId]);
  if (!row) throw new ApiError('not_found', { param, hint: 'No such payment in this entity.' });
  return toPayment(row, (await applicationsOf(db, entityId, [row.id])).get(row.id)!);
}

/** The payments with these ids (in the order given; unknown ids are left out), one query each for rows and applications. */
export async function loadPayments(db: Db, entityId: string, paymentIds: string[]): Promise<Payment[]> {
  if (!paymentIds.length) return [];
  const rows = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.entity_id = $1 AND p.id = ANY($2::uuid[])`, [
    entityId,
    paymentIds,
  ]);
  const applications = await applicationsOf(
    db,
    entityId,
    rows.map((row) => row.id),
  );
  const byId = new Map(rows.map((row) => [row.id, toPayment(row, applications.get(row.id)!)]));
  return paymentIds.flatMap((id) => byId.get(id) ?? []);
}

export interface PaymentFilters {
  account_id?: string;
  status?: string;
}

export async function listPayments(db: Db, entityId: string, filters: PaymentFilters, page: PageRequest): Promise<Page<Payment>> {
  const params: unknown[] = [entityId];
  const where = ['p.entity_id = $1'];
  if (filters.account_id) {
    params.push(filters.account_id);
    where.push(`p.account_id = $${params.length}`);
  }
  if (filters.status) {
    params.push(filters.status);
    where.push(`p.status = $${params.length}`);
  }
  const rows = await keysetPage<PaymentRow>(db, { table: 'payments', alias: 'p', select: PAYMENT_COLUMNS, where, params }, page);
  const applications = await applicationsOf(
    db,
    entityId,
    rows.data.map((row) => row.id),
  );
  return { ...rows, data: rows.data.map((row) => toPayment(row, applications.get(row.id)!)) };
}

// ---------------------------------------------------------------------------------------------
// Receiving a payment

interface NewPayment {
  account_id: string;
  amount: Amount;
  order_id: string | null;
  applications: { order: OrderState; amount: Amount }[];
  fields: Pick<OrderPaymentCreate, 'payment_method' | 'payment_date' | 'check_number' | 'check_date' | 'external_reference' | 'notes'>;
}

export interface PaymentResult {
  payment: Payment;
}

async function receivePayment(db: Db, actor: PaymentActor, input: NewPayment): Promise<PaymentResult> {
  const { entityId } = actor;
  const id = newId();
  const paymentDate = input.fields.payment_date ?? todayUtc();
  const method = input.fields.payment_method ?? (input.fields.check_number ? 'check' : 'other');
  const applied = sum(input.applications.map((a) => a.amount));
  // An ACH debit is pending until it clears (POST /v1/payments/{id}/clear): nothing posts before.
  const pending = method === 'ach';
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
            ...receiptPostingLines(input.amount, receiptApplications(input.applications), 'credit'),
          ],
        },
        { dateParam: 'payment_date' },
      );
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
  return { payment: await getPayment(db, entityId, id) };
}

/** A payment's applications as the receipt posting needs them (document type and amount). */
export function receiptApplications(applications: readonly { order: { document_type: string }; amount: AmountLike }[]) {
  return applications.map((a) => ({ document_type: a.order.document_type as DocumentType, amount: a.amount }));
}

async function writeApplications(
  db: Db,
  entityId: string,
  paymentId: string,
  applications: { order: OrderState; amount: Amount }[],
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
  else for (const application of applications) await payOrder(db, entityId, application.order, application.amount);
}

/** POST /v1/orders/{id}/payments: a payment against one sales order or invoice, up to what it accepts. */
export async function createOrderPayment(db: Db, actor: PaymentActor, orderId: string, input: OrderPaymentCreate): Promise<PaymentResult> {
  const [order] = await lockOrders(db, actor.entityId, 'id = $2', [orderId]);
  if (!order) throw new ApiError('not_found', { param: 'id', hint: 'No such order in this entity.' });
  const value = amount(input.amount);
  const payable = payableOf(order);
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
  const row = await db.maybeOne('SELECT 1 FROM accounts WHERE entity_id = $1 AND id = $2', [entityId, accountId]);
  if (!row) throw new ApiError('not_found', { param: 'account_id', hint: 'No such customer account in this entity.' });
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
): Promise<{ order: OrderState; amount: Amount }[]> {
  const orders = await lockOrders(db, entityId, 'id = ANY($2::uuid[])', [applications.map((a) => a.order_id)]);
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
    const payable = payableOf(order, ['invoice']);
    if (value.gt(payable)) throw notPayable(order, payable, `applications[${index}].amount_applied`);
    return { order, amount: value };
  });
}

const byAge = (a: OrderState, b: OrderState) =>
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
  let applications: { order: OrderState; amount: Amount }[];
  if (input.auto_apply) {
    const open = await lockOrders(
      db,
      entityId,
      `customer_account_id = $2 AND document_type = 'invoice' AND order_status NOT IN ('draft', 'cancelled', 'voided')`,
      [input.account_id],
    );
    const targets = open
      .sort(byAge)
      .map((order) => ({ order, payable: payableOf(order, ['invoice']) }))
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
  return receivePayment(db, actor, { account_id: input.account_id, amount: value, order_id: null, applications, fields: input });
}

/** E8: applies an unallocated payment (no order_id, no applications) to invoices; the payment row is locked. */
export async function applyPayment(db: Db, actor: PaymentActor, paymentId: string, input: PaymentApply): Promise<PaymentResult> {
  const { entityId } = actor;
  const row = await db.maybeOne<{ id: string; account_id: string; order_id: string | null; unapplied_amount: string; status: string }>(
    'SELECT id, account_id, order_id, unapplied_amount, status FROM payments WHERE entity_id = $1 AND id = $2 FOR UPDATE',
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
  await postJournalEntry(
    db,
    actor,
    {
      entry_date: todayUtc(),
      memo: `Customer credit applied (payment ${paymentId})`,
      source_type: 'payment_application',
      source_id: paymentId,
      lines: [
        { system_key: 'customer_credits', debit: total.toString() },
        { system_key: 'accounts_receivable', credit: total.toString() },
      ],
    },
    { dateParam: 'applications' },
  );
  return { payment: await getPayment(db, entityId, paymentId, 'payment_id') };
}

/** Refuses a payment that is not (or no longer) cleared money: pending ACH, voided or failed. */
export function assertPaymentUsable(status: string, param: string): void {
  if (status === 'pending') throw new ApiError('payment_pending_clearance', { param, details: { current_status: status } });
  if (status === 'voided' || status === 'failed') throw new ApiError('payment_voided', { param, details: { current_status: status } });
}

// ---------------------------------------------------------------------------------------------
// Events

/**
 * Records the payment's event. The documents it paid are named in its applications; payments do not
 * emit order.updated (that would load every order module into the payment functions).
 */
export async function recordPaymentEvents(
  actor: PaymentActor,
  type: 'payment.created' | 'payment.applied' | 'payment.refunded' | 'payment.voided' | 'payment.cleared' | 'payment.failed',
  result: PaymentResult,
): Promise<void> {
  await actor.events.record(type, result.payment);
}
