-- Up Migration

-- AR aging as of an earlier date adds back what invoices took after it. An invoice's
-- last_applied_on (the latest date its live payments applied money to it, by receipt or by a
-- later application, or a credit memo was applied to it; null while nothing was) says which
-- invoices took any, so the report looks up the applications of those invoices alone instead of
-- reading every application of the payments received after the date (a year back, a year of
-- payments, most of them for invoices dated later). Kept by the orders capability's money writer
-- (settleDocumentMoney) from the payments capability's figure and the credit memo moves.
ALTER TABLE orders ADD COLUMN last_applied_on date;
UPDATE orders o SET last_applied_on = x.last_applied_on
  FROM (SELECT entity_id, order_id, max(day) AS last_applied_on FROM (
          SELECT a.entity_id, a.order_id, p.payment_date AS day
            FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
           WHERE p.status IN ('undeposited', 'deposited')
          UNION ALL
          SELECT m.entity_id, m.order_id, m.applied_date FROM payment_application_moves m
            JOIN payments p ON p.entity_id = m.entity_id AND p.id = m.payment_id
           WHERE p.status IN ('undeposited', 'deposited')
          UNION ALL
          SELECT m.entity_id, m.invoice_id, m.move_date FROM credit_memo_moves m WHERE m.kind = 'application'
        ) days GROUP BY entity_id, order_id) x
 WHERE x.entity_id = o.entity_id AND x.order_id = o.id AND o.document_type = 'invoice';
-- Posted invoices by the date of their latest application, with their date: those dated by the
-- as-of date that took money after it.
CREATE INDEX orders_invoices_last_applied ON orders (entity_id, last_applied_on) INCLUDE (id, order_date)
  WHERE document_type = 'invoice' AND journal_entry_id IS NOT NULL AND last_applied_on IS NOT NULL;
-- ACH payments by date: the AR aging reads those made by the as-of date to find the ones that
-- cleared after it, without reading every other payment made by then.
CREATE INDEX payments_ach_date ON payments (entity_id, payment_date) INCLUDE (journal_entry_id, status) WHERE payment_method = 'ach';
-- Open invoices and credit memos with credit left, now covering the id too, so the AR aging and
-- the credit-memo credit read them in one index-only scan rather than a scan of every order.
DROP INDEX orders_open_receivables;
CREATE INDEX orders_open_receivables ON orders (entity_id, document_type)
  INCLUDE (id, customer_account_id, balance_due, order_date, due_date, order_status, journal_entry_id, deleted_at)
  WHERE document_type IN ('invoice', 'return') AND balance_due <> 0;
-- A document's later applications, read when its money is settled.
CREATE INDEX payment_application_moves_order ON payment_application_moves (entity_id, order_id);

-- Down Migration
DROP INDEX orders_open_receivables;
CREATE INDEX orders_open_receivables ON orders (entity_id, document_type)
  INCLUDE (customer_account_id, balance_due, order_date, due_date, order_status, journal_entry_id, deleted_at)
  WHERE document_type IN ('invoice', 'return') AND balance_due <> 0;
DROP INDEX payments_ach_date, payment_application_moves_order, orders_invoices_last_applied;
ALTER TABLE orders DROP COLUMN last_applied_on;
