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
import { allocateOldestFirst, payableAmount, paymentStatusFor } from '../domain/payments/allocation';
import { balanceDue, type DocumentType, type OrderStatus, type PaymentStatus } from '../domain/orders/totals';
import type { EventRecorder } from '../events/outbox';
import { ApiError } from '../http/errors';
import { keysetPage, type Page, type PageRequest } from '../http/pagination';
import { newId } from '../ids';
import { postJournalEntry, type PostingContext } from '../ledger/post-journal-entry';
import { amount, type Amount, sum, toJsonNumber, ZERO } from '../money';
import type {
  ApplicationInput,
  Deposit,
  DepositCreate,
  MultiInvoicePaymentCreate,
  OrderPaymentCreate,
  Payment,
  PaymentApplication,
  PaymentApply,
} from '../schemas/payment';

export type PaymentActor = PostingContext & { userId: string; events: EventRecorder };

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());
const today = () => new Date().toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Documents a payment touches

interface OrderState {
  id: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  customer_account_id: string | null;
  order_total: string;
  amount_paid: string;
  balance_due: string;
  order_date: Date | string;
  created_at: Date | string;
}

/** The documents, locked FOR UPDATE in id order (so two payments never deadlock). */
async function lockOrders(db: Db, entityId: string, where: string, params: unknown[]): Promise<OrderState[]> {
  return db.query<OrderState>(
    `SELECT id, document_type, order_status, payment_status, customer_account_id, order_total, amount_paid, balance_due, order_date, created_at
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

/** Adds a payment to a locked document: amount_paid, payment_status and balance_due by the pure rules. */
async function payOrder(db: Db, entityId: string, order: OrderState, applied: Amount): Promise<void> {
  const paid = amount(order.amount_paid).plus(applied);
  const status = paymentStatusFor(order.order_total, paid);
  const balance = balanceDue({ ...order, payment_status: status, amount_paid: paid });
  await db.query(`UPDATE orders SET amount_paid = $3, payment_status = $4, balance_due = $5, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
    entityId,
    order.id,
    paid.toString(),
    status,
    balance.toString(),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Payments: rows and mapping

const PAYMENT_COLUMNS = `p.id, 'payment' AS object, p.entity_id, p.account_id, p.amount, p.unapplied_amount, p.payment_method, p.payment_date,
  p.check_number, p.check_date, p.external_reference, p.notes, p.status, p.order_id, p.journal_entry_id, p.deposit_id, p.created_by_user_id,
  p.created_at, p.updated_at`;

type PaymentRow = Omit<Payment, 'amount' | 'unapplied_amount' | 'applications' | 'applied_count' | 'created_at' | 'updated_at'> & {
  amount: string;
  unapplied_amount: string;
  created_at: Date | string;
  updated_at: Date | string;
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
    applied_count: applications.length,
    applications,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function getPayment(db: Db, entityId: string, paymentId: string, param = 'id'): Promise<Payment> {
  const row = await db.maybeOne<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.entity_id = $1 AND p.id = $2`, [entityId, paymentId]);
  if (!row) throw new ApiError('not_found', { param, hint: 'No such payment in this entity.' });
  return toPayment(row, (await applicationsOf(db, entityId, [row.id])).get(row.id)!);
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
  const rows = await keysetPage<PaymentRow>(db, { table: 'payments', alias: 'p', select: PAYMENT_COLUMNS, where, params }, page, '/v1/payments');
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
  const paymentDate = input.fields.payment_date ?? today();
  const method = input.fields.payment_method ?? (input.fields.check_number ? 'check' : 'other');
  const applied = sum(input.applications.map((a) => a.amount));
  const entry = await postJournalEntry(
    db,
    actor,
    {
      entry_date: paymentDate,
      memo: `Customer payment${input.fields.check_number ? ` (check ${input.fields.check_number})` : ''}`,
      source_type: 'payment',
      source_id: id,
      lines: [
        { system_key: 'undeposited_funds', debit: input.amount.toString() },
        { system_key: 'accounts_receivable', credit: input.amount.toString() },
      ],
    },
    { dateParam: 'payment_date' },
  );
  await db.query(
    `INSERT INTO payments (id, entity_id, account_id, amount, unapplied_amount, payment_method, payment_date, check_number, check_date,
       external_reference, notes, order_id, journal_entry_id, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
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
      entry.id,
      actor.userId,
    ],
  );
  await writeApplications(db, entityId, id, input.applications);
  return { payment: await getPayment(db, entityId, id) };
}

async function writeApplications(db: Db, entityId: string, paymentId: string, applications: { order: OrderState; amount: Amount }[]): Promise<void> {
  if (!applications.length) return;
  await db.query(
    `INSERT INTO payment_applications (id, entity_id, payment_id, order_id, amount_applied)
     SELECT v.id, $1, $2, v.order_id, v.amount FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) WITH ORDINALITY AS v(id, order_id, amount, n) ORDER BY v.n`,
    [entityId, paymentId, applications.map(() => newId()), applications.map((a) => a.order.id), applications.map((a) => a.amount.toString())],
  );
  for (const application of applications) await payOrder(db, entityId, application.order, application.amount);
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
  const row = await db.maybeOne<{ id: string; account_id: string; order_id: string | null; unapplied_amount: string }>(
    'SELECT id, account_id, order_id, unapplied_amount FROM payments WHERE entity_id = $1 AND id = $2 FOR UPDATE',
    [entityId, paymentId],
  );
  if (!row) throw new ApiError('not_found', { param: 'payment_id', hint: 'No such payment in this entity.' });
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
  return { payment: await getPayment(db, entityId, paymentId, 'payment_id') };
}

// ---------------------------------------------------------------------------------------------
// Deposits

interface ReceiptRow {
  id: string;
  amount: string;
  payment_date: string;
  deposit_id: string | null;
}

/** The receipts, locked in id order; each must be this entity's and not yet deposited. */
async function lockReceipts(db: Db, entityId: string, paymentIds: string[], lock: boolean): Promise<ReceiptRow[]> {
  paymentIds.forEach((id, index) => {
    if (paymentIds.findIndex((other) => other.toLowerCase() === id.toLowerCase()) !== index) {
      throw new ApiError('parameter_invalid', { param: `payment_ids[${index}]`, hint: 'Each payment may appear once.' });
    }
  });
  const rows = await db.query<ReceiptRow>(
    `SELECT id, amount, payment_date, deposit_id FROM payments WHERE entity_id = $1 AND id = ANY($2::uuid[]) ORDER BY id ${lock ? 'FOR UPDATE' : ''}`,
    [entityId, paymentIds],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return paymentIds.map((id, index) => {
    const row = byId.get(id.toLowerCase());
    if (!row) throw new ApiError('not_found', { param: `payment_ids[${index}]`, hint: 'No such payment in this entity.' });
    if (row.deposit_id) {
      throw new ApiError('payment_already_deposited', { param: `payment_ids[${index}]`, details: { deposit_id: row.deposit_id } });
    }
    return row;
  });
}

/** E3: what a deposit of these receipts would total; nothing is written. */
export async function previewDeposit(db: Db, entityId: string, paymentIds: string[]): Promise<{ total_amount: number; line_count: number }> {
  const receipts = await lockReceipts(db, entityId, paymentIds, false);
  return { total_amount: toJsonNumber(sum(receipts.map((r) => r.amount))), line_count: receipts.length };
}

const DEPOSIT_COLUMNS = `d.id, 'deposit' AS object, d.entity_id, d.status, d.total_amount, d.line_count, d.bank_account_id, d.gl_account_id, d.deposit_date,
  d.memo, d.journal_entry_id, d.created_at, d.updated_at,
  ARRAY(SELECT l.payment_id FROM deposit_lines l WHERE l.entity_id = d.entity_id AND l.deposit_id = d.id ORDER BY l.created_at, l.id) AS payment_ids`;

export async function getDeposit(db: Db, entityId: string, depositId: string): Promise<Deposit> {
  const row = await db.maybeOne<Omit<Deposit, 'total_amount' | 'created_at' | 'updated_at'> & { total_amount: string; created_at: Date; updated_at: Date }>(
    `SELECT ${DEPOSIT_COLUMNS} FROM deposits d WHERE d.entity_id = $1 AND d.id = $2`,
    [entityId, depositId],
  );
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such deposit in this entity.' });
  return { ...row, total_amount: toJsonNumber(row.total_amount), created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}

/** E4: groups undeposited receipts into one deposit; debit the bank account, credit undeposited funds per receipt. */
export async function createDeposit(db: Db, actor: PaymentActor, input: DepositCreate): Promise<Deposit> {
  const { entityId } = actor;
  const bank = await db.maybeOne<{ id: string }>(`SELECT id FROM gl_accounts WHERE entity_id = $1 AND bank_account_id = $2 AND subtype = 'bank'`, [
    entityId,
    input.bank_account_id,
  ]);
  if (!bank) throw new ApiError('not_found', { param: 'bank_account_id', hint: 'No bank account with this bank_account_id in this entity.' });
  const receipts = await lockReceipts(db, entityId, input.payment_ids, true);
  receipts.forEach((receipt, index) => {
    if (receipt.payment_date > input.deposit_date) {
      throw new ApiError('parameter_invalid', {
        param: 'deposit_date',
        hint: `A deposit cannot be dated before a receipt it holds (payment_ids[${index}] was received ${receipt.payment_date}).`,
      });
    }
  });
  const id = newId();
  const total = sum(receipts.map((r) => r.amount));
  const entry = await postJournalEntry(
    db,
    actor,
    {
      entry_date: input.deposit_date,
      memo: input.memo ?? 'Bank deposit',
      source_type: 'deposit',
      source_id: id,
      lines: [
        { account_id: bank.id, debit: total.toString(), memo: 'Bank deposit' },
        ...receipts.map((receipt) => ({ system_key: 'undeposited_funds' as const, credit: receipt.amount, memo: `Payment ${receipt.id}` })),
      ],
    },
    { dateParam: 'deposit_date' },
  );
  await db.query(
    `INSERT INTO deposits (id, entity_id, bank_account_id, gl_account_id, deposit_date, memo, total_amount, line_count, journal_entry_id, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [id, entityId, input.bank_account_id, bank.id, input.deposit_date, input.memo ?? null, total.toString(), receipts.length, entry.id, actor.userId],
  );
  await db.query(
    `INSERT INTO deposit_lines (id, entity_id, deposit_id, payment_id, amount)
     SELECT v.id, $1, $2, v.payment_id, v.amount FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) AS v(id, payment_id, amount)`,
    [entityId, id, receipts.map(() => newId()), receipts.map((r) => r.id), receipts.map((r) => r.amount)],
  );
  await db.query(`UPDATE payments SET status = 'deposited', deposit_id = $3, updated_at = now() WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [
    entityId,
    receipts.map((r) => r.id),
    id,
  ]);
  return getDeposit(db, entityId, id);
}

// ---------------------------------------------------------------------------------------------
// Events

/**
 * Records the payment's event. The documents it paid are named in its applications; payments do not
 * emit order.updated (that would load every order module into the payment functions).
 */
export async function recordPaymentEvents(actor: PaymentActor, type: 'payment.created' | 'payment.applied', result: PaymentResult): Promise<void> {
  await actor.events.record(type, result.payment);
}
