/**
 * AP payments: pay one vendor's bills from a bank account, vendor credits first, in one
 * transaction. Bills and credits are locked (FOR UPDATE, in id order so two payments never
 * deadlock) before their balances are read, so of concurrent payments each sees what the one
 * before it left: no bill is overpaid and no credit spent beyond its remaining amount. A void
 * reverses the payment's entry and gives the bills and credits back what it took.
 */
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { formatNumber, nextNumber } from '../db/sequences';
import { entityFilters } from '../db/sql';
import { todayUtc } from '../dates';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { amount, sum, toJsonNumber, ZERO, type Amount } from '../money';
import { postJournalEntry, reverseJournalEntry, type PostingContext } from '../ledger/post-journal-entry';
import { bankGlAccountId } from '../ledger/ledger-reads';
import { applicable, creditStatus, paymentLines, planApplications, releaseLines } from './credit-postings';
import { getBill, type BillRow } from './vendor-bills';
import { getCredit, type CreditRow } from './vendor-credits';
import type { ApPayment, ApPaymentCreate } from './schemas/ap-payment';

type Wire<T> = Omit<T, 'livemode'>;
export type WirePayment = Wire<ApPayment>;

interface Actor extends PostingContext {
  userId: string;
}

const COLUMNS = `p.id, 'ap_payment' AS object, p.entity_id, p.payment_number, p.vendor_id, p.bank_account_id, p.method, p.reference,
  to_char(p.payment_date, 'YYYY-MM-DD') AS payment_date, p.amount, p.credit_total, p.amount + p.credit_total AS total_applied, p.status, p.currency, p.memo,
  p.metadata, p.created_by_user_id, p.journal_entry_id, p.voided_by, p.voided_at, to_char(p.void_date, 'YYYY-MM-DD') AS void_date, p.void_reason,
  p.void_journal_entry_id, p.created_at, p.updated_at`;

type PaymentRow = Omit<WirePayment, 'amount' | 'credit_total' | 'total_applied' | 'applications' | 'vendor_credit_ids'> & {
  amount: string;
  credit_total: string;
  total_applied: string;
};
type ApplicationRow = Omit<WirePayment['applications'][number], 'amount'> & { amount: string; payment_id: string };

async function applicationsOf(db: Db, entityId: string, paymentIds: string[]): Promise<Map<string, ApplicationRow[]>> {
  const rows = await db.query<ApplicationRow>(
    `SELECT a.id, 'ap_payment_application' AS object, a.payment_id, a.bill_id, b.bill_number, a.vendor_credit_id, a.amount,
            to_char(a.applied_on, 'YYYY-MM-DD') AS applied_on, to_char(a.voided_on, 'YYYY-MM-DD') AS voided_on
       FROM ap_payment_applications a JOIN vendor_bills b ON b.entity_id = a.entity_id AND b.id = a.bill_id
      WHERE a.entity_id = $1 AND a.payment_id = ANY($2::uuid[]) ORDER BY a.created_at, a.id`,
    [entityId, paymentIds],
  );
  const byPayment = new Map<string, ApplicationRow[]>();
  for (const row of rows) byPayment.set(row.payment_id, [...(byPayment.get(row.payment_id) ?? []), row]);
  return byPayment;
}

function toPayment(row: PaymentRow, applications: ApplicationRow[]): WirePayment {
  return {
    ...row,
    amount: toJsonNumber(row.amount),
    credit_total: toJsonNumber(row.credit_total),
    total_applied: toJsonNumber(row.total_applied),
    applications: applications.map(({ payment_id: _paymentId, ...a }) => ({ ...a, amount: toJsonNumber(a.amount) })),
    vendor_credit_ids: [...new Set(applications.map((a) => a.vendor_credit_id).filter((id): id is string => id !== null))],
  };
}

async function paymentRow(db: Db, entityId: string, paymentId: string, lock = false): Promise<PaymentRow> {
  const row = await db.maybeOne<PaymentRow>(`SELECT ${COLUMNS} FROM ap_payments p WHERE p.entity_id = $1 AND p.id = $2 ${lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    paymentId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such AP payment in this entity.' });
  return row;
}

export async function getApPayment(db: Db, entityId: string, paymentId: string): Promise<WirePayment> {
  const row = await paymentRow(db, entityId, paymentId);
  return toPayment(row, (await applicationsOf(db, entityId, [paymentId])).get(paymentId) ?? []);
}

/** For a bill's expand[]=payments: the payments applied to these bills, in one query each. */
export async function paymentsOfBills(db: Db, entityId: string, billIds: string[]): Promise<Map<string, WirePayment[]>> {
  const rows = await db.query<PaymentRow & { bill_id: string }>(
    `SELECT DISTINCT ${COLUMNS}, a.bill_id FROM ap_payments p JOIN ap_payment_applications a ON a.entity_id = p.entity_id AND a.payment_id = p.id
      WHERE p.entity_id = $1 AND a.bill_id = ANY($2::uuid[]) ORDER BY p.created_at, p.id`,
    [entityId, billIds],
  );
  const applications = await applicationsOf(db, entityId, [...new Set(rows.map((row) => row.id))]);
  const byBill = new Map<string, WirePayment[]>();
  for (const { bill_id: billId, ...row } of rows) byBill.set(billId, [...(byBill.get(billId) ?? []), toPayment(row, applications.get(row.id) ?? [])]);
  return byBill;
}

const PAYABLE = ['open', 'partially_paid'];

function refuseDuplicates(ids: readonly string[], param: (index: number) => string, what: string): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) throw new ApiError('parameter_invalid', { param: param(index), hint: `The same ${what} is listed twice.` });
    seen.add(id);
  });
}

/** Rows of `table` with these ids locked in id order; 404 on the first missing one, naming it. */
async function lockAll<T extends { id: string }>(
  db: Db,
  entityId: string,
  sql: string,
  ids: readonly string[],
  param: (index: number) => string,
  what: string,
) {
  const rows = await db.query<T>(`${sql} WHERE x.entity_id = $1 AND x.id = ANY($2::uuid[]) ORDER BY x.id FOR UPDATE`, [entityId, [...ids]]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  ids.forEach((id, index) => {
    if (!byId.has(id)) throw new ApiError('not_found', { param: param(index), hint: `No such ${what} in this entity.` });
  });
  return ids.map((id) => byId.get(id)!);
}

const BILL_SQL = `SELECT x.id, x.bill_number, x.vendor_id, x.status, x.currency, to_char(x.bill_date, 'YYYY-MM-DD') AS bill_date, x.bill_total, x.amount_paid,
  x.bill_total - x.amount_paid AS balance_due FROM vendor_bills x`;
/** A bill's latest live application date ($1 entity, $2 bill): always one row, null when there is none. */
const LAST_APPLIED_ON = `SELECT max(a.applied_on) AS last_applied_on FROM ap_payment_applications a WHERE a.entity_id = $1 AND a.bill_id = $2 AND a.voided_on IS NULL`;
const CREDIT_SQL = `SELECT x.id, x.credit_number, x.vendor_id, x.status, x.currency, to_char(x.credit_date, 'YYYY-MM-DD') AS credit_date, x.amount,
  x.remaining_amount, x.expires_at FROM vendor_credits x`;
type LockedBill = Pick<BillRow, 'id' | 'bill_number' | 'vendor_id' | 'status' | 'currency' | 'bill_date' | 'bill_total' | 'amount_paid' | 'balance_due'>;
type LockedCredit = Pick<CreditRow, 'id' | 'credit_number' | 'vendor_id' | 'status' | 'currency' | 'credit_date' | 'amount' | 'remaining_amount'> & {
  expires_at: Date | null;
};

async function bankGlAccount(db: Db, entityId: string, bankAccountId: string | undefined, needed: boolean): Promise<string | null> {
  if (!bankAccountId) {
    if (needed) throw new ApiError('parameter_missing', { param: 'bank_account_id', hint: 'Cash is paid: name the bank account it leaves.' });
    return null;
  }
  return bankGlAccountId(db, entityId, bankAccountId);
}

function checkBills(bills: LockedBill[], input: ApPaymentCreate, paymentDate: string): void {
  const vendorId = bills[0].vendor_id;
  bills.forEach((bill, index) => {
    const param = `bills[${index}].bill_id`;
    if (!PAYABLE.includes(bill.status)) {
      throw new ApiError('vendor_bill_not_payable', {
        param,
        hint: `Bill ${bill.bill_number} is ${bill.status}: only an open or partially_paid bill is paid.`,
        details: { current_status: bill.status },
      });
    }
    if (bill.vendor_id !== vendorId || bill.currency !== bills[0].currency) {
      throw new ApiError('vendor_bill_not_payable', { param, hint: `Bill ${bill.bill_number} is of another vendor or currency: one payment pays one vendor.` });
    }
    if (amount(input.bills[index].amount).gt(amount(bill.balance_due))) {
      throw new ApiError('vendor_bill_overpayment', {
        param: `bills[${index}].amount`,
        hint: `Bill ${bill.bill_number} has ${bill.balance_due} due; a bill is never overpaid.`,
        details: { bill_id: bill.id, balance_due: toJsonNumber(bill.balance_due) },
      });
    }
    if (paymentDate < bill.bill_date) {
      throw new ApiError('parameter_invalid', {
        param: 'payment_date',
        hint: `A payment cannot precede the date of bill ${bill.bill_number} (${bill.bill_date}).`,
      });
    }
  });
}

function checkCredits(credits: LockedCredit[], bill: LockedBill, paymentDate: string): void {
  credits.forEach((credit, index) => {
    const refuse = (hint: string) => {
      throw new ApiError('vendor_credit_not_applicable', { param: `vendor_credit_ids[${index}]`, hint, details: { current_status: credit.status } });
    };
    if (credit.vendor_id !== bill.vendor_id || credit.currency !== bill.currency) refuse(`Credit ${credit.credit_number} is of another vendor or currency.`);
    if (credit.status !== 'open' && credit.status !== 'partially_applied')
      refuse(`Credit ${credit.credit_number} is ${credit.status}: nothing is left to apply.`);
    if (credit.expires_at && credit.expires_at.getTime() <= Date.now()) refuse(`Credit ${credit.credit_number} has expired.`);
    if (paymentDate < credit.credit_date) refuse(`Credit ${credit.credit_number} is dated ${credit.credit_date}, after the payment date.`);
  });
}

/** POST /v1/ap-payments. Records ap_payment.created, vendor_credit.applied per credit and vendor_bill.paid per bill paid in full. */
export async function createApPayment(db: Db, actor: Actor, input: ApPaymentCreate): Promise<WirePayment> {
  const { entityId } = actor;
  const billIds = input.bills.map((bill) => bill.bill_id);
  const creditIds = input.vendor_credit_ids ?? [];
  refuseDuplicates(billIds, (i) => `bills[${i}].bill_id`, 'bill');
  refuseDuplicates(creditIds, (i) => `vendor_credit_ids[${i}]`, 'vendor credit');
  const paymentDate = input.payment_date ?? todayUtc();
  const bills = await lockAll<LockedBill>(db, entityId, BILL_SQL, billIds, (i) => `bills[${i}].bill_id`, 'vendor bill');
  checkBills(bills, input, paymentDate);
  const credits = await lockAll<LockedCredit>(db, entityId, CREDIT_SQL, creditIds, (i) => `vendor_credit_ids[${i}]`, 'vendor credit');
  checkCredits(credits, bills[0], paymentDate);

  const plan = planApplications(
    input.bills.map((bill) => bill.amount),
    credits.map((credit) => applicable(credit.remaining_amount)),
  );
  const cash = sum(plan.filter((a) => a.creditIndex === null).map((a) => a.amount));
  const creditTotal = sum(plan.filter((a) => a.creditIndex !== null).map((a) => a.amount));
  const bankId = await bankGlAccount(db, entityId, input.bank_account_id, cash.gt(0));
  const paymentNumber = formatNumber('APP-', await nextNumber(db, entityId, 'ap_payment'));
  const id = newId();
  const entry = await postJournalEntry(
    db,
    actor,
    {
      entry_date: paymentDate,
      memo: `AP payment ${paymentNumber}${input.reference ? ` (${input.method} ${input.reference})` : ` (${input.method})`}`,
      source_type: 'ap_payment',
      source_id: id,
      lines: paymentLines(
        paymentNumber,
        bankId,
        bills.map((bill, index) => ({ bill_number: bill.bill_number, total: amount(input.bills[index].amount) })),
        cash,
        creditTotal,
      ),
    },
    { dateParam: 'payment_date' },
  );
  await db.query(
    `INSERT INTO ap_payments (id, entity_id, payment_number, vendor_id, bank_account_id, gl_account_id, method, reference, payment_date, amount, credit_total,
       currency, memo, metadata, created_by_user_id, journal_entry_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      id,
      entityId,
      paymentNumber,
      bills[0].vendor_id,
      bankId ? input.bank_account_id : null,
      bankId,
      input.method,
      input.reference ?? null,
      paymentDate,
      cash.toString(),
      creditTotal.toString(),
      bills[0].currency,
      input.memo ?? null,
      input.metadata ?? {},
      actor.userId,
      entry.id,
    ],
  );
  await db.query(
    `INSERT INTO ap_payment_applications (id, entity_id, payment_id, bill_id, vendor_credit_id, amount, applied_on)
     SELECT v.id, $1, $2, v.bill_id, v.vendor_credit_id, v.amount, $3 FROM jsonb_to_recordset($4::jsonb) AS v(id uuid, bill_id uuid, vendor_credit_id uuid, amount numeric)`,
    [
      entityId,
      id,
      paymentDate,
      JSON.stringify(
        plan.map((a) => ({
          id: newId(),
          bill_id: bills[a.billIndex].id,
          vendor_credit_id: a.creditIndex === null ? null : credits[a.creditIndex].id,
          amount: a.amount.toString(),
        })),
      ),
    ],
  );
  for (const [index, bill] of bills.entries()) {
    const paid = amount(bill.amount_paid).plus(amount(input.bills[index].amount));
    const status = paid.eq(amount(bill.bill_total)) ? 'paid' : 'partially_paid';
    // last_applied_on: the date of the bill's latest live application; paid_off_on: that date once the bill is paid. AP
    // aging as of an earlier date skips the bills paid off by then, and adds back later applications only where there are any.
    await db.query(
      `UPDATE vendor_bills b SET amount_paid = $3, status = $4, updated_at = now(), last_applied_on = l.last_applied_on,
         paid_off_on = CASE WHEN $4 = 'paid' THEN l.last_applied_on END
         FROM (${LAST_APPLIED_ON}) l
       WHERE b.entity_id = $1 AND b.id = $2`,
      [entityId, bill.id, paid.toString(), status],
    );
    if (status === 'paid') await actor.events.record('vendor_bill.paid', await getBill(db, entityId, bill.id), { status: bill.status });
  }
  for (const [index, credit] of credits.entries()) {
    const used = sum(plan.filter((a) => a.creditIndex === index).map((a) => a.amount));
    if (used.isZero()) continue;
    const remaining = amount(credit.remaining_amount).minus(used);
    await db.query(`UPDATE vendor_credits SET remaining_amount = $3, status = $4, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
      entityId,
      credit.id,
      remaining.toString(),
      creditStatus(credit.amount, remaining),
    ]);
    await actor.events.record('vendor_credit.applied', await getCredit(db, entityId, credit.id), { status: credit.status });
  }
  const payment = await getApPayment(db, entityId, id);
  await actor.events.record('ap_payment.created', payment);
  return payment;
}

/**
 * Voids a payment: reverses its entry (dated today, or the payment date if later), stamps its
 * applications voided_on, lowers each bill's amount_paid (status back to partially_paid or open)
 * and gives each credit its amount back. A credit voided or expired since keeps its status: what
 * comes back is released at once (voided_amount or forfeited_amount) with a release entry, so the
 * vendor-credit balance still ties.
 */
export async function voidApPayment(db: Db, actor: Actor, paymentId: string, reason: string | null | undefined): Promise<WirePayment> {
  const { entityId } = actor;
  const payment = await paymentRow(db, entityId, paymentId, true);
  if (payment.status === 'voided') {
    throw new ApiError('ap_payment_invalid_transition', {
      param: 'id',
      hint: 'This AP payment is already voided.',
      details: { current_status: payment.status },
    });
  }
  const applications = (await applicationsOf(db, entityId, [paymentId])).get(paymentId) ?? [];
  const billIds = [...new Set(applications.map((a) => a.bill_id))].sort();
  const creditIds = [...new Set(applications.map((a) => a.vendor_credit_id).filter((id): id is string => id !== null))].sort();
  const bills = await lockAll<LockedBill>(db, entityId, BILL_SQL, billIds, () => 'id', 'vendor bill');
  const credits = await lockAll<LockedCredit & { voided_amount: string; forfeited_amount: string }>(
    db,
    entityId,
    CREDIT_SQL.replace(' FROM vendor_credits x', ', x.voided_amount, x.forfeited_amount FROM vendor_credits x'),
    creditIds,
    () => 'id',
    'vendor credit',
  );
  const today = todayUtc();
  const voidDate = today > payment.payment_date ? today : payment.payment_date;
  const { reversal } = await reverseJournalEntry(db, actor, payment.journal_entry_id!, {
    reversal_date: voidDate,
    memo: `Void of AP payment ${payment.payment_number}`,
  });
  await db.query(`UPDATE ap_payment_applications SET voided_on = $3 WHERE entity_id = $1 AND payment_id = $2`, [entityId, paymentId, voidDate]);
  await db.query(
    `UPDATE ap_payments SET status = 'voided', voided_by = $3, voided_at = now(), void_date = $4, void_reason = $5, void_journal_entry_id = $6, updated_at = now()
      WHERE entity_id = $1 AND id = $2`,
    [entityId, paymentId, actor.userId, voidDate, reason ?? null, reversal.id],
  );
  for (const bill of bills) {
    const back = sum(applications.filter((a) => a.bill_id === bill.id).map((a) => a.amount));
    const paid = amount(bill.amount_paid).minus(back);
    const status = paid.isZero() ? 'open' : 'partially_paid';
    await db.query(
      `UPDATE vendor_bills b SET amount_paid = $3, status = $4, paid_off_on = NULL, last_applied_on = l.last_applied_on, updated_at = now()
         FROM (${LAST_APPLIED_ON}) l
       WHERE b.entity_id = $1 AND b.id = $2`,
      [entityId, bill.id, paid.toString(), status],
    );
    if (status !== bill.status) await actor.events.record('vendor_bill.updated', await getBill(db, entityId, bill.id), { status: bill.status });
  }
  let released: Amount = ZERO;
  for (const credit of credits) {
    const back = sum(applications.filter((a) => a.vendor_credit_id === credit.id).map((a) => a.amount));
    if (credit.status === 'voided' || credit.status === 'expired') {
      const column = credit.status === 'voided' ? 'voided_amount' : 'forfeited_amount';
      await db.query(`UPDATE vendor_credits SET ${column} = ${column} + $3, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
        entityId,
        credit.id,
        back.toString(),
      ]);
      released = released.plus(back);
      continue;
    }
    const remaining = amount(credit.remaining_amount).plus(back);
    await db.query(`UPDATE vendor_credits SET remaining_amount = $3, status = $4, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
      entityId,
      credit.id,
      remaining.toString(),
      creditStatus(credit.amount, remaining),
    ]);
  }
  if (released.gt(0)) {
    await postJournalEntry(db, actor, {
      entry_date: voidDate,
      memo: `Release of vendor credits voided or expired before AP payment ${payment.payment_number} was voided`,
      source_type: 'ap_payment',
      source_id: paymentId,
      lines: releaseLines(released, `${payment.payment_number} void`),
    });
  }
  const voided = await getApPayment(db, entityId, paymentId);
  await actor.events.record('ap_payment.voided', voided, { status: 'posted' });
  return voided;
}

export interface ApPaymentFilters {
  vendor_id?: string;
  bill_id?: string;
  payment_date_gte?: string;
  payment_date_lte?: string;
}

export async function listApPayments(db: Db, entityId: string, filters: ApPaymentFilters, page: PageRequest): Promise<Page<WirePayment>> {
  const { where, params, add } = entityFilters('p', entityId);
  add((n) => `p.vendor_id = ${n}`, filters.vendor_id);
  add((n) => `EXISTS (SELECT 1 FROM ap_payment_applications a WHERE a.entity_id = p.entity_id AND a.payment_id = p.id AND a.bill_id = ${n})`, filters.bill_id);
  add((n) => `p.payment_date >= ${n}`, filters.payment_date_gte);
  add((n) => `p.payment_date <= ${n}`, filters.payment_date_lte);
  const result = await keysetPage<PaymentRow>(db, { table: 'ap_payments', alias: 'p', select: COLUMNS, where, params }, page);
  const applications = await applicationsOf(
    db,
    entityId,
    result.data.map((row) => row.id),
  );
  return { ...result, data: result.data.map((row) => toPayment(row, applications.get(row.id) ?? [])) };
}
