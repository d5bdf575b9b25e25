/**
 * The payment figures of sales documents, from the payments capability's own tables, and the one way
 * this capability settles a document's money: it records its fact (an application, a refund line, a
 * payment's status) and hands these figures to the orders capability's writer (orders/document-money.ts).
 */
import type { Db } from '../db/database';
import { settleDocumentMoney, type PaymentFigures, type PaymentFiguresReader } from '../orders/document-money';

/**
 * Per document: received = Σ applications of payments that hold money (undeposited, deposited) −
 * Σ the customer credit refunds gave back; refunded = Σ refund lines (credit and allowances);
 * voided = Σ applications of voided payments; last_applied_on = the latest receipt date (payment_date) or
 * later application date (applied_date) of the payments that hold money. Every id asked for gets a row.
 */
export const readPaymentFigures: PaymentFiguresReader = async (db, entityId, ids) => {
  const rows = await db.query<PaymentFigures & { id: string }>(
    `SELECT d.id,
       coalesce((SELECT sum(a.amount_applied) FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
         WHERE a.entity_id = $1 AND a.order_id = d.id AND p.status IN ('undeposited', 'deposited')), 0)
       - coalesce((SELECT sum(r.credit_amount) FROM refund_lines r WHERE r.entity_id = $1 AND r.order_id = d.id), 0) AS received,
       coalesce((SELECT sum(r.credit_amount + r.allowance_amount) FROM refund_lines r WHERE r.entity_id = $1 AND r.order_id = d.id), 0) AS refunded,
       coalesce((SELECT sum(a.amount_applied) FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
         WHERE a.entity_id = $1 AND a.order_id = d.id AND p.status = 'voided'), 0) AS voided,
       (SELECT max(day)::text FROM (
          SELECT p.payment_date AS day FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
           WHERE a.entity_id = $1 AND a.order_id = d.id AND p.status IN ('undeposited', 'deposited')
          UNION ALL
          SELECT m.applied_date FROM payment_application_moves m JOIN payments p ON p.entity_id = m.entity_id AND p.id = m.payment_id
           WHERE m.entity_id = $1 AND m.order_id = d.id AND p.status IN ('undeposited', 'deposited')) days) AS last_applied_on
     FROM unnest($2::uuid[]) AS d (id)`,
    [entityId, ids],
  );
  return new Map(rows.map(({ id, ...figures }) => [id, figures]));
};

/** Settles the documents' money figures after a payment fact changed on them (and the sales orders their invoices bill). */
export async function settlePaidDocuments(db: Db, entityId: string, ids: readonly string[]): Promise<void> {
  await settleDocumentMoney(db, entityId, ids, readPaymentFigures);
}
