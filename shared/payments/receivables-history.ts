/**
 * What customer payments did to receivables and to customer credit after a date: the payments
 * capability's part of the AR aging as of a date (the route composes it with the orders
 * capability's, shared/orders/ar-aging.ts).
 *
 * A payment holds money from the date its receipt entry is dated: its payment_date, or for an ACH
 * payment the cleared_date of its clearing entry. Its applications are dated with it, except the
 * parts applied later on an applied_date of their own (payment_application_moves): until then that
 * money was unapplied. A refund takes its money back on refund_date. A voided payment never held money on
 * any date (its reversal is dated like its receipt), nor did an ACH payment that failed (it never
 * posted). Voided and failed payments are therefore left out of every date.
 */
import type { Db } from '../db/database';
import { entriesDatedThrough } from '../ledger/ledger-reads';

/** Payments that hold money now. */
const LIVE = `p.status IN ('undeposited', 'deposited')`;

/** The AR history a report composes: SQL over $1 (entity), $2 (as-of date) and $3 (its own parameter). */
export interface PaymentsAfterDate {
  /** The value of $3: the ACH payments made on or before the date that cleared after it. */
  params: [string[]];
  /**
   * (order_id, amount) rows: per document, what its payments hold now minus what they held on the
   * date (applications of payments received after it, less credit refunded after it), one or more
   * rows per document. Today's amount_received less this is the amount received as of the date.
   * Applications of payments received after the date are looked up only on `appliedAfterSql`, the
   * orders capability's documents (ids) that took money after the date (by their last_applied_on),
   * so the query never reads the applications of a year of payments to invoices dated later.
   */
  receivedAfterSql: (appliedAfterSql: string) => string;
  /**
   * (account_id, amount) rows: the customer money payments held on the date outside receivables:
   * unapplied money (including what was applied after the date) and what they paid on `holdersSql`, the orders capability's documents holding
   * deposits then (sales orders, and invoices posted after the date that took a sales order's
   * deposit), less the refunds dated on or before it.
   */
  customerMoneySql: (holdersSql: string) => string;
}

/** Payments received on or before the date (ACH: cleared on or before it) that hold money now. */
const HELD_ON_DATE = `${LIVE} AND p.payment_date <= $2::date AND NOT p.id = ANY($3::uuid[])`;

/** The parts of applications of payments held on the date that were applied after it, per payment and document. */
const APPLIED_AFTER = `
  SELECT m.payment_id, m.order_id, sum(m.amount) AS amount
    FROM payment_application_moves m JOIN payments p ON p.entity_id = m.entity_id AND p.id = m.payment_id
   WHERE m.entity_id = $1 AND m.applied_date > $2::date AND ${HELD_ON_DATE}
   GROUP BY m.payment_id, m.order_id`;

const receivedAfter = (appliedAfterSql: string) => `
  SELECT d.id AS order_id, x.amount FROM (${appliedAfterSql}) d
   CROSS JOIN LATERAL (SELECT sum(a.amount_applied) AS amount
                         FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
                        WHERE a.entity_id = $1 AND a.order_id = d.id AND ${LIVE} AND p.payment_date > $2::date) x
   WHERE x.amount IS NOT NULL
  UNION ALL
  SELECT a.order_id, sum(a.amount_applied)
    FROM payments p JOIN payment_applications a ON a.entity_id = p.entity_id AND a.payment_id = p.id
   WHERE p.entity_id = $1 AND p.id = ANY($3::uuid[]) AND ${LIVE}
   GROUP BY a.order_id
  UNION ALL
  SELECT order_id, sum(amount) FROM (${APPLIED_AFTER}) later GROUP BY order_id
  UNION ALL
  SELECT l.order_id, -sum(l.credit_amount)
    FROM refunds r JOIN refund_lines l ON l.entity_id = r.entity_id AND l.refund_id = r.id
   WHERE r.entity_id = $1 AND r.refund_date > $2::date AND l.order_id IS NOT NULL
   GROUP BY l.order_id`;

const customerMoney = (holdersSql: string) => `
  SELECT p.account_id, p.unapplied_amount AS amount FROM payments p
   WHERE p.entity_id = $1 AND p.unapplied_amount > 0 AND ${HELD_ON_DATE}
  UNION ALL
  SELECT p.account_id, l.credit_amount
    FROM refunds r JOIN refund_lines l ON l.entity_id = r.entity_id AND l.refund_id = r.id
    JOIN payments p ON p.entity_id = r.entity_id AND p.id = r.payment_id
   WHERE r.entity_id = $1 AND r.refund_date > $2::date AND l.order_id IS NULL AND ${HELD_ON_DATE}
  UNION ALL
  SELECT p.account_id, later.amount FROM (${APPLIED_AFTER}) later JOIN payments p ON p.entity_id = $1 AND p.id = later.payment_id
  UNION ALL
  SELECT p.account_id, a.amount_applied - coalesce(later.amount, 0) - coalesce((
      SELECT sum(l.credit_amount + l.allowance_amount)
        FROM refund_lines l JOIN refunds r ON r.entity_id = l.entity_id AND r.id = l.refund_id
       WHERE l.entity_id = a.entity_id AND l.order_id = a.order_id AND r.payment_id = a.payment_id AND r.refund_date <= $2::date), 0)
    FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
    LEFT JOIN (${APPLIED_AFTER}) later ON later.payment_id = a.payment_id AND later.order_id = a.order_id
   WHERE a.entity_id = $1 AND a.order_id IN (${holdersSql}) AND ${HELD_ON_DATE}`;

/**
 * The ACH payments made on or before the date that hold money now but cleared after it: their
 * clearing entries are the only record of the cleared date.
 */
async function achClearedAfter(db: Db, entityId: string, asOfDate: string): Promise<string[]> {
  const cleared = await db.query<{ id: string; journal_entry_id: string }>(
    `SELECT p.id, p.journal_entry_id FROM payments p
      WHERE p.entity_id = $1 AND p.payment_method = 'ach' AND ${LIVE} AND p.payment_date <= $2::date`,
    [entityId, asOfDate],
  );
  if (cleared.length === 0) return [];
  const through = new Set(
    await entriesDatedThrough(
      db,
      entityId,
      cleared.map((row) => row.journal_entry_id),
      asOfDate,
    ),
  );
  return cleared.filter((row) => !through.has(row.journal_entry_id)).map((row) => row.id);
}

/** The payments capability's part of the AR history as of a date. */
export async function paymentsAfterDate(db: Db, entityId: string, asOfDate: string): Promise<PaymentsAfterDate> {
  return { params: [await achClearedAfter(db, entityId, asOfDate)], receivedAfterSql: receivedAfter, customerMoneySql: customerMoney };
}
