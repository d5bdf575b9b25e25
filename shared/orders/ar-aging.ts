/**
 * The orders capability's part of the AR aging as of any date, rebuilt from history rather than
 * read from today's balances (the route composes it with the payments capability's,
 * shared/payments/receivables-history.ts, which it takes as a parameter).
 *
 * An invoice is in receivables on date D when its AR entry (dated order_date) is on or before D and
 * it is neither draft, cancelled nor voided now (a void reverses the entry on the entry's own date,
 * so a voided invoice was never in receivables). Its balance on D is today's balance_due plus
 * what it took after D: payments (the payments capability's figure) and credit memo applications
 * dated after D (move_date). A credit memo's credit on D is its credit left today plus what it gave
 * (applied or refunded) after D, for credit memos posted (order_date) on or before D.
 *
 * The invoices that can be open on D are those open today and those that took money after D
 * (last_applied_on, kept by the money writer, after D), so the query starts from those and never
 * reads the paid history, nor the applications to invoices dated after D.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';

/** The payments capability's history as of a date: SQL over $1 (entity), $2 (date) and its own $3.. parameters. */
export interface ReceivablesHistory {
  params: readonly unknown[];
  /** (order_id, amount): what the document's payments hold now minus what they held on the date; `appliedAfterSql` selects the documents that took money after it. */
  receivedAfterSql: (appliedAfterSql: string) => string;
}

export const AGING_BUCKETS = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export type AgingBasis = 'due_date' | 'invoice_date';

/** The first moment after the as-of date ($2), in UTC: documents dated before it are dated on or before the date. */
const END_OF_DATE = `(($2::date + 1)::timestamp AT TIME ZONE 'UTC')`;

/** The UTC calendar date the aging counts from. An invoice without a due date is due on its date. */
const agingDate = (basis: AgingBasis) =>
  basis === 'invoice_date' ? `(o.order_date AT TIME ZONE 'UTC')::date` : `(coalesce(o.due_date, o.order_date) AT TIME ZONE 'UTC')::date`;

/** The invoices that count on $2: posted on or before it, not draft, cancelled or voided. */
const COUNTS_ON_DATE = `o.document_type = 'invoice' AND o.journal_entry_id IS NOT NULL AND o.deleted_at IS NULL
  AND o.order_status NOT IN ('draft', 'cancelled', 'voided') AND o.order_date < ${END_OF_DATE}`;

/**
 * The posted invoices dated on or before $2 that took money after it (their latest application,
 * last_applied_on, is after it), from the orders_invoices_last_applied index: as of today none, a
 * year back those paid on since, rather than every invoice paid in the year.
 */
const APPLIED_AFTER_DATE = `SELECT o.id FROM orders o
  WHERE o.entity_id = $1 AND o.document_type = 'invoice' AND o.journal_entry_id IS NOT NULL AND o.last_applied_on > $2::date AND o.order_date < ${END_OF_DATE}`;

/**
 * Each open invoice on $2 with its balance then and its days past the aging date: the invoices
 * open today (one index-only scan of the open receivables) with what they took after the date
 * added back, and the invoices paid off today that took money after it.
 */
function openInvoicesSql(basis: AgingBasis, history: ReceivablesHistory, accountFilter = '', moreColumns = ''): string {
  const columns = `o.id, o.customer_account_id AS account_id, $2::date - ${agingDate(basis)} AS days_past${moreColumns}`;
  return `WITH applied_after AS (
      ${APPLIED_AFTER_DATE}
    ), later AS (
      SELECT order_id, sum(amount) AS amount FROM (
        ${history.receivedAfterSql('SELECT id FROM applied_after')}
        UNION ALL
        SELECT m.invoice_id, m.amount FROM applied_after t JOIN credit_memo_moves m ON m.entity_id = $1 AND m.invoice_id = t.id
         WHERE m.kind = 'application' AND m.move_date > $2::date
      ) moves GROUP BY order_id
    )
    SELECT ${columns}, o.balance_due + coalesce(l.amount, 0) AS balance
      FROM orders o LEFT JOIN later l ON l.order_id = o.id
     WHERE o.entity_id = $1 AND o.document_type IN ('invoice', 'return') AND o.balance_due <> 0 AND ${COUNTS_ON_DATE}
       AND o.balance_due + coalesce(l.amount, 0) <> 0 ${accountFilter}
    UNION ALL
    SELECT ${columns}, l.amount
      FROM later l JOIN orders o ON o.entity_id = $1 AND o.id = l.order_id
     WHERE o.balance_due = 0 AND ${COUNTS_ON_DATE} AND l.amount <> 0 ${accountFilter}`;
}

/** The bucket index (into AGING_BUCKETS) of a number of days past the aging date. */
const BUCKET_OF_DAYS = (days: string) =>
  `CASE WHEN ${days} <= 0 THEN 0 WHEN ${days} <= 30 THEN 1 WHEN ${days} <= 60 THEN 2 WHEN ${days} <= 90 THEN 3 ELSE 4 END`;

export function bucketOfDays(days: number): AgingBucket {
  return days <= 0 ? 'current' : days <= 30 ? 'days_1_30' : days <= 60 ? 'days_31_60' : days <= 90 ? 'days_61_90' : 'days_over_90';
}

export interface ArAgingPageRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

const AMOUNT_COLUMNS = [...AGING_BUCKETS, 'total', 'unapplied_credits'] as const;

/** Per customer (and, in the totals row, over all of them): the buckets, their total and the unapplied credit, as numeric text. */
export type ArAgingAmounts = Record<(typeof AMOUNT_COLUMNS)[number], string>;

export interface ArAgingPage {
  customers: (ArAgingAmounts & { id: string; name: string })[];
  totals: ArAgingAmounts;
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Parts a report passes in from the other capabilities, SQL over $1 (entity), $2 (date) and the
 * history's own parameters: what customer payments held outside receivables on the date
 * (account_id, amount), and the customer accounts' names (id, name).
 */
export interface ArAgingSources {
  history: ReceivablesHistory;
  customerMoneySql: string;
  customerNamesSql: string;
}

/**
 * One page of the AR aging's customers, by name then id, with the totals over every customer, in
 * one statement: the customers' buckets and credit are summed once (materialized), the page is a
 * keyset over (name, id) from the cursor customer, and the totals row sums them all, so every page
 * carries the same totals. A cursor that is not a customer of the aging is a 400 on its parameter.
 */
export async function arAgingPage(
  db: Db,
  entityId: string,
  asOfDate: string,
  basis: AgingBasis,
  sources: ArAgingSources,
  page: ArAgingPageRequest,
): Promise<ArAgingPage> {
  if (page.starting_after && page.ending_before) {
    throw new ApiError('parameter_invalid', { param: 'ending_before', hint: 'Pass starting_after or ending_before, not both.' });
  }
  const { history } = sources;
  const backwards = page.ending_before !== undefined;
  const cursor = page.ending_before ?? page.starting_after ?? null;
  const cursorParam = `$${3 + history.params.length}`;
  const limitParam = `$${4 + history.params.length}`;
  const direction = backwards ? 'DESC' : 'ASC';
  const amounts = AMOUNT_COLUMNS.map((column) => `${column}::text`).join(', ');
  const sums = AMOUNT_COLUMNS.map((column) => `sum(${column})::text AS ${column}`).join(', ');
  const rows = await db.query<ArAgingAmounts & { id: string | null; name: string | null; n: string | null; cursor_found: boolean | null }>(
    `WITH amounts AS (
       SELECT account_id, ${BUCKET_OF_DAYS('days_past')} AS bucket, balance AS amount FROM (${openInvoicesSql(basis, history)}) open
       UNION ALL
       SELECT account_id, -1, amount FROM (${MEMO_CREDIT_SQL}) memo
       UNION ALL
       SELECT account_id, -1, amount FROM (${sources.customerMoneySql}) money
     ), per_account AS (
       SELECT a.account_id,
              ${AGING_BUCKETS.map((bucket, index) => `coalesce(sum(a.amount) FILTER (WHERE a.bucket = ${index}), 0) AS ${bucket}`).join(',\n              ')},
              coalesce(sum(a.amount) FILTER (WHERE a.bucket >= 0), 0) AS total,
              coalesce(sum(a.amount) FILTER (WHERE a.bucket = -1), 0) AS unapplied_credits
         FROM amounts a GROUP BY a.account_id
     ), customers AS MATERIALIZED (
       -- Summed per account before the names are joined: a few thousand rows to join rather than every invoice.
       SELECT p.account_id AS id, n.name, ${AMOUNT_COLUMNS.map((column) => `p.${column}`).join(', ')}
         FROM per_account p JOIN (${sources.customerNamesSql}) n ON n.id = p.account_id
     ), shown AS (
       SELECT * FROM customers
        WHERE unapplied_credits <> 0 OR ${AGING_BUCKETS.map((bucket) => `${bucket} <> 0`).join(' OR ')}
     ), page AS (
       SELECT s.*, row_number() OVER (ORDER BY s.name ${direction}, s.id ${direction}) AS n FROM shown s
        WHERE ${cursorParam}::uuid IS NULL OR (s.name, s.id) ${backwards ? '<' : '>'} (SELECT c.name, c.id FROM shown c WHERE c.id = ${cursorParam}::uuid)
        ORDER BY s.name ${direction}, s.id ${direction}
        LIMIT ${limitParam}
     )
     SELECT id, name, n::text, ${amounts}, NULL::boolean AS cursor_found FROM page
     UNION ALL
     SELECT NULL, NULL, NULL, ${sums}, ${cursorParam}::uuid IS NULL OR EXISTS (SELECT 1 FROM shown WHERE id = ${cursorParam}::uuid) FROM customers`,
    [entityId, asOfDate, ...history.params, cursor, page.limit + 1],
  );
  const totalsRow = rows.find((row) => row.id === null)!;
  if (!totalsRow.cursor_found) {
    throw new ApiError('parameter_invalid', {
      param: backwards ? 'ending_before' : 'starting_after',
      hint: 'The cursor is not the id of a customer in this AR aging (same as_of_date and aging_basis).',
    });
  }
  // Sums over no customer are null.
  const totals = Object.fromEntries(AMOUNT_COLUMNS.map((column) => [column, totalsRow[column] ?? '0'])) as ArAgingAmounts;
  // A UNION ALL keeps no order: the page's rows carry their place (n).
  const inOrder = rows.filter((row) => row.id !== null).sort((a, b) => Number(a.n) - Number(b.n));
  const hasMore = inOrder.length > page.limit;
  const shown = inOrder.slice(0, page.limit);
  if (backwards) shown.reverse();
  const customers = shown.map(({ id, name, current, days_1_30, days_31_60, days_61_90, days_over_90, total, unapplied_credits }) => ({
    id: id!,
    name: name!,
    current,
    days_1_30,
    days_31_60,
    days_61_90,
    days_over_90,
    total,
    unapplied_credits,
  }));
  const edge = backwards ? customers[0] : customers.at(-1);
  return { customers, totals, has_more: hasMore, next_cursor: hasMore && edge ? edge.id : null };
}

export interface OpenInvoiceRow {
  id: string;
  account_id: string;
  invoice_number: string | null;
  order_number: string;
  invoice_date: string;
  due_date: string | null;
  days_past: number;
  balance: string;
}

/** The open invoices on the date of the given customer accounts, oldest aging date first. */
export async function openInvoicesOf(
  db: Db,
  entityId: string,
  asOfDate: string,
  basis: AgingBasis,
  history: ReceivablesHistory,
  accountIds: readonly string[],
): Promise<OpenInvoiceRow[]> {
  const accounts = `$${3 + history.params.length}`;
  return db.query<OpenInvoiceRow>(
    // The invoice's own columns are read with it (not joined back to orders afterwards, which the
    // planner answers by hashing every order of the entity).
    `SELECT id, account_id, days_past, balance, invoice_number, order_number, invoice_date, due_date
       FROM (${openInvoicesSql(
         basis,
         history,
         `AND o.customer_account_id = ANY(${accounts}::uuid[])`,
         `, o.invoice_number, o.order_number, o.order_date, (o.order_date AT TIME ZONE 'UTC')::date::text AS invoice_date,
            (o.due_date AT TIME ZONE 'UTC')::date::text AS due_date`,
       )}) open
      ORDER BY days_past DESC, order_date, id`,
    [entityId, asOfDate, ...history.params, [...accountIds]],
  );
}

/** Credit-memo credit left on $2 per credit memo (account_id, amount): credit memos posted on or before it, plus what they gave after it. */
const MEMO_CREDIT_COUNTS = `o.document_type = 'return' AND o.journal_entry_id IS NOT NULL AND o.deleted_at IS NULL
  AND o.order_status NOT IN ('draft', 'cancelled') AND o.order_date < ${END_OF_DATE}`;
const MEMO_CREDIT_SQL = `WITH later AS (
    SELECT m.credit_memo_id AS id, sum(m.amount) AS amount FROM credit_memo_moves m
     WHERE m.entity_id = $1 AND m.move_date > $2::date GROUP BY m.credit_memo_id
  )
  SELECT o.customer_account_id AS account_id, coalesce(l.amount, 0) - o.balance_due AS amount
    FROM orders o LEFT JOIN later l ON l.id = o.id
   WHERE o.entity_id = $1 AND o.document_type IN ('invoice', 'return') AND o.balance_due <> 0 AND ${MEMO_CREDIT_COUNTS}
  UNION ALL
  SELECT o.customer_account_id, l.amount FROM later l JOIN orders o ON o.entity_id = $1 AND o.id = l.id
   WHERE o.balance_due = 0 AND ${MEMO_CREDIT_COUNTS}`;

/**
 * SQL over $1 (entity) and $2 (date) selecting the ids of the documents whose payments were a
 * customer deposit on the date rather than a receivable: sales orders that hold or held a deposit,
 * and invoices billed from a sales order and posted after the date (posting moved the sales
 * order's deposit onto them, after the date).
 */
export const DEPOSIT_HOLDERS_SQL = `
  SELECT o.id FROM orders o WHERE o.entity_id = $1 AND o.document_type = 'sales_order' AND (o.amount_received <> 0 OR o.amount_refunded <> 0)
  UNION ALL
  SELECT o.id FROM orders o WHERE o.entity_id = $1 AND o.document_type = 'invoice' AND o.converted_from_id IS NOT NULL
     AND o.order_date >= ${END_OF_DATE}`;
