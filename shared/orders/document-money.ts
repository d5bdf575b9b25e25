/**
 * A document's money figures: the one writer of amount_received, amount_paid, amount_refunded,
 * amount_voided, amount_credited, credit_refunded, payment_status and balance_due of every order,
 * invoice, return (credit memo) and sales order. Everything that moves money on a document records
 * its fact first (a payment application, a refund line, a payment's status, a credit memo move, a
 * lifecycle or archive flag) and then calls settleDocumentMoney(), which derives the figures:
 *
 *   amount_received,  the payments capability's figures (PaymentFigures): what the document's own
 *   amount_refunded,  payments hold net of the credit refunds gave back, what refunds gave back
 *   amount_voided     (credit and allowances), and what voided payments had applied. The payments
 *                     capability computes them from its tables and passes its reader in; every
 *                     other caller settles from the figures stored when payments last did.
 *   amount_paid      amount_received. A sales order adds what its live invoices were paid
 *                    (amount_paid) and credited, so it shows what is still owed on the order once
 *                    its invoices took its deposit.
 *   amount_credited  Σ credit memo applications to the document (an invoice) or from it (a return).
 *   credit_refunded  Σ credit memo refunds (a return).
 *   last_applied_on  an invoice's latest date of money applied to it: the payments capability's
 *                    (PaymentFigures) or a credit memo application's move_date, whichever is later;
 *                    null on other documents. The AR aging as of a date looks up what was applied
 *                    after the date only on the invoices whose last_applied_on is after it.
 *   payment_status,
 *   balance_due      by the one rule (payment-status.ts); a posted credit memo's balance_due is
 *                    minus its credit left (order_total − applied − refunded), 0 on any other return.
 *
 * Callers lock the documents first (lockPayableDocuments, or the lifecycle's begin); settling an
 * invoice settles the sales order it was converted from afterwards. The recalculation of a document
 * inserted in the same transaction writes its figures with its totals, by the assignments this
 * module makes (insertedDocumentMoneyAssignments).
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { amount, type Amount, ZERO } from '../money';
import { returnBalanceDue } from './credit-memo';
import { achClearanceTransition } from './lifecycle-rules';
import { archivedError, ORDER_COLUMNS, type OrderRow } from './order-store';
import { paymentState } from './payment-status';
import { expiredQuoteSql } from './quote-expiry';
import { type DocumentType, type OrderStatus, type PaymentStatus } from './totals';

/** The invoices that bill a sales order: posted and not cancelled or voided (drafts take no money). */
const LIVE_INVOICE_OF = (order: string) =>
  `i.entity_id = ${order}.entity_id AND i.converted_from_id = ${order}.id AND i.document_type = 'invoice'
   AND i.order_status NOT IN ('draft', 'cancelled', 'voided') AND i.deleted_at IS NULL`;

/** The header columns of orders (alias o) the facts take as they are. */
const FACTS_HEADER_COLUMNS = `o.id, o.document_type, o.order_status, o.order_total, o.journal_entry_id, o.is_archived, o.converted_from_id,
    ${expiredQuoteSql('o')} AS is_expired`;

/** The facts a document's figures derive from beyond its header columns, summed per document (one row per id). */
const FACTS_COLUMNS = `
    o.amount_received AS received, o.amount_refunded AS refunded, o.amount_voided AS voided,
    coalesce((SELECT sum(m.amount) FROM credit_memo_moves m WHERE m.entity_id = o.entity_id AND m.kind = 'application'
      AND (m.invoice_id = o.id OR m.credit_memo_id = o.id)), 0) AS credited,
    (SELECT max(m.move_date)::text FROM credit_memo_moves m WHERE m.entity_id = o.entity_id AND m.kind = 'application' AND m.invoice_id = o.id)
      AS credit_applied_on,
    o.last_applied_on::text AS last_applied_on,
    coalesce((SELECT sum(m.amount) FROM credit_memo_moves m WHERE m.entity_id = o.entity_id AND m.kind = 'refund' AND m.credit_memo_id = o.id), 0)
      AS credit_refunded,
    coalesce((SELECT sum(i.amount_paid) FROM orders i WHERE ${LIVE_INVOICE_OF('o')}), 0) AS invoices_paid,
    coalesce((SELECT sum(i.amount_credited) FROM orders i WHERE ${LIVE_INVOICE_OF('o')}), 0) AS invoices_credited,
    coalesce((SELECT sum(i.order_total) FROM orders i WHERE ${LIVE_INVOICE_OF('o')}), 0) AS invoiced`;

/**
 * FACTS_COLUMNS of a document its own INSERT returns (RETURNING, alias o): nothing can refer to a
 * row the statement is inserting (no credit memo move, no invoice converted from it), so every
 * sum over other rows is zero and the rest is the header's. With ORDER_COLUMNS, the facts of a new
 * document without reading them back.
 */
export const INSERTED_FACTS_COLUMNS = `o.amount_received AS received, o.amount_refunded AS refunded, o.amount_voided AS voided, 0::numeric AS credited,
    NULL::text AS credit_applied_on, o.last_applied_on::text AS last_applied_on, 0::numeric AS credit_refunded, 0::numeric AS invoices_paid,
    0::numeric AS invoices_credited, 0::numeric AS invoiced`;

/**
 * The facts of the documents, beside `headerColumns` of orders (alias o): a superset of the
 * columns the facts take from the header, so a caller that reads the header anyway reads the facts
 * with it and hands them to settleDocumentMoney.
 */
export function readDocumentFacts<Header extends object = object>(
  db: Db,
  entityId: string,
  ids: readonly string[],
  headerColumns = FACTS_HEADER_COLUMNS,
): Promise<(Header & DocumentFacts)[]> {
  return db.query<Header & DocumentFacts>(`SELECT ${headerColumns}, ${FACTS_COLUMNS} FROM orders o WHERE o.entity_id = $1 AND o.id = ANY($2::uuid[])`, [
    entityId,
    ids,
  ]);
}

export interface DocumentFacts {
  id: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  order_total: string;
  journal_entry_id: string | null;
  is_archived: boolean;
  is_expired: boolean;
  converted_from_id: string | null;
  received: string;
  refunded: string;
  voided: string;
  credited: string;
  credit_applied_on: string | null;
  /** Stored, or the payments capability's latest application date when it settles. */
  last_applied_on: string | null;
  credit_refunded: string;
  invoices_paid: string;
  invoices_credited: string;
  invoiced: string;
}

/** What a document's payments hold (net of credit refunded), refunded and voided (the payments capability's figures). */
export interface PaymentFigures {
  received: string;
  refunded: string;
  voided: string;
  /** The latest date the document's live payments applied money to it (receipt or later application), null if none. */
  last_applied_on: string | null;
}

/** The payments capability's reader of PaymentFigures: one for every document id asked for. */
export type PaymentFiguresReader = (db: Db, entityId: string, ids: readonly string[]) => Promise<ReadonlyMap<string, PaymentFigures>>;

interface DocumentMoney {
  amount_received: Amount;
  amount_paid: Amount;
  amount_refunded: Amount;
  amount_voided: Amount;
  amount_credited: Amount;
  credit_refunded: Amount;
  payment_status: PaymentStatus;
  balance_due: Amount;
  last_applied_on: string | null;
}

/** The later of two ISO dates, either possibly null. */
const laterDate = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || a >= b ? a : b);

/** The figures of one document from its facts (pure). */
function documentMoney(facts: DocumentFacts): DocumentMoney {
  const salesOrder = facts.document_type === 'sales_order';
  const paid = amount(facts.received).plus(salesOrder ? facts.invoices_paid : ZERO);
  const credited = amount(facts.credited).plus(salesOrder ? facts.invoices_credited : ZERO);
  const state = {
    document_type: facts.document_type,
    order_status: facts.order_status,
    order_total: facts.order_total,
    amount_paid: paid,
    amount_refunded: facts.refunded,
    amount_credited: credited,
    amount_voided: facts.voided,
    is_archived: facts.is_archived,
    is_expired: facts.is_expired,
  };
  const settled = paymentState(state);
  let balance = settled.balance_due;
  if (facts.document_type === 'return') {
    // A return's balance_due is minus the credit its credit memo has left, whatever its goods' state.
    const posted = facts.journal_entry_id !== null && !['draft', 'cancelled'].includes(facts.order_status) && !facts.is_archived;
    balance = posted ? returnBalanceDue(facts.order_total, credited.plus(facts.credit_refunded)) : ZERO;
  }
  return {
    amount_received: amount(facts.received),
    amount_paid: paid,
    amount_refunded: amount(facts.refunded),
    amount_voided: amount(facts.voided),
    amount_credited: credited,
    credit_refunded: amount(facts.credit_refunded),
    payment_status: settled.payment_status,
    balance_due: balance,
    last_applied_on: facts.document_type === 'invoice' ? laterDate(facts.last_applied_on, facts.credit_applied_on) : null,
  };
}

async function settleRows(
  db: Db,
  entityId: string,
  ids: readonly string[],
  only: (row: DocumentFacts) => boolean,
  readPayments: PaymentFiguresReader | undefined,
  known: readonly DocumentFacts[],
  settledRows: Map<string, OrderRow & { live: boolean }>,
): Promise<DocumentFacts[]> {
  if (!ids.length) return [];
  const wanted = ids.filter((id) => !known.some((row) => row.id === id));
  const rows = [...known.filter((row) => ids.includes(row.id)), ...(wanted.length ? await readDocumentFacts(db, entityId, wanted) : [])];
  const settled = rows.filter(only);
  const payments = readPayments
    ? await readPayments(
        db,
        entityId,
        settled.map((row) => row.id),
      )
    : new Map<string, PaymentFigures>();
  for (const row of settled) {
    const params: unknown[] = [entityId, row.id];
    const [settledRow] = await db.query<OrderRow & { live: boolean }>(
      `UPDATE orders o SET ${moneyAssignments({ ...row, ...payments.get(row.id) }, (value) => `$${params.push(value)}`)}
       WHERE entity_id = $1 AND id = $2
       RETURNING o.deleted_at IS NULL AS live, ${ORDER_COLUMNS}`,
      params,
    );
    settledRows.set(row.id, settledRow);
  }
  return rows;
}

/**
 * The SET assignments (of an UPDATE of orders) that store the figures of the document whose facts
 * these are, its values added as parameters by `param`; updated_at moves only when a figure does.
 */
function moneyAssignments(facts: DocumentFacts, param: (value: unknown) => string): string {
  const money = documentMoney(facts);
  const [paid, refunded, voided, credited, creditRefunded, status, balance, received] = [
    money.amount_paid.toString(),
    money.amount_refunded.toString(),
    money.amount_voided.toString(),
    money.amount_credited.toString(),
    money.credit_refunded.toString(),
    money.payment_status,
    money.balance_due.toString(),
    money.amount_received.toString(),
  ].map(param);
  return `amount_paid = ${paid}, amount_refunded = ${refunded}, amount_voided = ${voided}, amount_credited = ${credited}, credit_refunded = ${creditRefunded},
         payment_status = ${status}, balance_due = ${balance}, amount_received = ${received}, last_applied_on = ${param(money.last_applied_on)}::date,
         updated_at = CASE WHEN (amount_paid, amount_refunded, amount_voided, amount_credited, credit_refunded, payment_status, balance_due, amount_received)
           IS DISTINCT FROM (${paid}::numeric, ${refunded}::numeric, ${voided}::numeric, ${credited}::numeric, ${creditRefunded}::numeric, ${status}::text,
             ${balance}::numeric, ${received}::numeric)
           THEN now() ELSE updated_at END`;
}

/**
 * settleDocumentMoney's assignments for a document inserted in this transaction (its facts as its
 * INSERT returned them, INSERTED_FACTS_COLUMNS, with the order_total it now has), for a caller
 * that updates its header anyway: nothing else follows a new document's figures (it bills no
 * sales order: only a conversion makes an invoice that does), so they are all it would write.
 */
export function insertedDocumentMoneyAssignments(facts: DocumentFacts, param: (value: unknown) => string): string {
  if (facts.converted_from_id !== null) throw new Error(`document ${facts.id} was converted from another: settleDocumentMoney settles both`);
  return moneyAssignments(facts, param);
}

const isSalesOrder = (row: DocumentFacts) => row.document_type === 'sales_order';

/**
 * Derives and stores the money figures of the documents, then of the sales orders among them and
 * of those their invoices bill (a sales order shows what was paid through its invoices, so it
 * follows them). The payments capability passes its reader of the payment figures; without one the
 * stored figures stand. `known`: facts the caller read in this transaction (readDocumentFacts) and
 * that still hold, as they are not read again. Returns the headers it wrote as they now stand
 * (their wire columns, and whether the document is live, i.e. not deleted), by id.
 */
export async function settleDocumentMoney(
  db: Db,
  entityId: string,
  ids: readonly string[],
  readPayments?: PaymentFiguresReader,
  known: readonly DocumentFacts[] = [],
): Promise<ReadonlyMap<string, OrderRow & { live: boolean }>> {
  const settled = new Map<string, OrderRow & { live: boolean }>();
  const rows = await settleRows(db, entityId, [...new Set(ids)], (row) => !isSalesOrder(row), readPayments, known, settled);
  const billed = new Set(rows.flatMap((row) => (row.document_type === 'invoice' && row.converted_from_id ? [row.converted_from_id] : [])));
  const salesOrders = rows.filter(isSalesOrder);
  // A sales order's facts read above still hold unless an invoice settled above bills it (its figures follow its invoices').
  const unchanged = salesOrders.filter((row) => !billed.has(row.id));
  await settleRows(db, entityId, [...new Set([...salesOrders.map((row) => row.id), ...billed])], isSalesOrder, readPayments, unchanged, settled);
  return settled;
}

// ---------------------------------------------------------------------------------------------
// The documents a customer payment or credit moves money on

/** A document as the payment and credit paths read it, locked. */
export interface PayableDocument {
  id: string;
  document_type: DocumentType;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  customer_account_id: string | null;
  order_total: string;
  tax_total: string;
  amount_paid: string;
  amount_refunded: string;
  amount_voided: string;
  balance_due: string;
  ach_previous_status: OrderStatus | null;
  amount_credited: string;
  order_date: Date | string;
  created_at: Date | string;
  /**
   * A sales order: what it can still take as a deposit, its total less what its live invoices
   * bill and less the deposit it holds (null on other documents).
   */
  unbilled_open: string | null;
}

/** The documents, locked FOR UPDATE in id order (so two payments never deadlock); an archived one is 409 order_archived. */
export async function lockPayableDocuments(db: Db, entityId: string, where: string, params: unknown[]): Promise<PayableDocument[]> {
  const orders = await db.query<PayableDocument & { is_archived: boolean }>(
    `SELECT o.id, o.document_type, o.order_status, o.payment_status, o.customer_account_id, o.order_total, o.tax_total, o.amount_paid, o.amount_refunded,
       o.amount_voided, o.balance_due, o.amount_credited, o.ach_previous_status, o.order_date, o.created_at, o.is_archived,
       CASE WHEN o.document_type = 'sales_order' THEN
         o.order_total - o.amount_paid + coalesce((SELECT sum(i.amount_paid) FROM orders i WHERE ${LIVE_INVOICE_OF('o')}), 0)
           - coalesce((SELECT sum(i.order_total) FROM orders i WHERE ${LIVE_INVOICE_OF('o')}), 0)
       END AS unbilled_open
     FROM orders o WHERE o.entity_id = $1 AND o.deleted_at IS NULL AND ${where} ORDER BY o.id FOR UPDATE OF o`,
    [entityId, ...params],
  );
  // An archived document takes no money move: its balance_due is forced to 0 while it is archived.
  if (orders.some((order) => order.is_archived)) throw archivedError('order_id');
  return orders;
}

/** The documents a pending ACH payment pays wait in awaiting_ach_clearance, remembering the status they had. */
export async function holdForAchClearance(db: Db, entityId: string, orders: readonly PayableDocument[]): Promise<void> {
  for (const order of orders) {
    const move = achClearanceTransition(order.order_status, 'payment_pending');
    if (!move.allowed) {
      throw new ApiError('order_not_payable', {
        param: 'payment_method',
        hint: `A ${order.document_type} that is ${order.order_status} cannot wait for ACH clearance.`,
        details: { payable_amount: 0, current_status: order.order_status, document_type: order.document_type },
      });
    }
    await db.query(`UPDATE orders SET ach_previous_status = order_status, order_status = $3, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
      entityId,
      order.id,
      move.next,
    ]);
  }
}

/** An ACH payment cleared or failed: its documents go back to the status they had before they waited, and their figures are settled. */
export async function releaseFromAchClearance(db: Db, entityId: string, orders: readonly PayableDocument[], readPayments: PaymentFiguresReader): Promise<void> {
  for (const order of orders) {
    const move = achClearanceTransition(order.order_status, 'payment_settled', order.ach_previous_status);
    if (move.allowed) {
      await db.query(`UPDATE orders SET order_status = $3, ach_previous_status = NULL, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
        entityId,
        order.id,
        move.next,
      ]);
    }
  }
  await settleDocumentMoney(
    db,
    entityId,
    orders.map((order) => order.id),
    readPayments,
  );
}
