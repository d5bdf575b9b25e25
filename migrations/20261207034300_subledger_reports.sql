-- Up Migration

-- AR aging and inventory valuation as of any date (docs/decisions.md, "AR aging and inventory
-- valuation as of a date"). Each report starts from what is open today and takes back what
-- happened after the date, so it reads what is open plus what moved since, never the whole history.

-- Open invoices and credit memos with credit left: the start of the AR aging and of the credit-memo credit.
CREATE INDEX orders_open_receivables ON orders (entity_id, document_type)
  INCLUDE (customer_account_id, balance_due, order_date, due_date, order_status, journal_entry_id, deleted_at)
  WHERE document_type IN ('invoice', 'return') AND balance_due <> 0;
-- Sales orders that hold or held a deposit.
CREATE INDEX orders_sales_order_deposits ON orders (entity_id) WHERE document_type = 'sales_order' AND (amount_received <> 0 OR amount_refunded <> 0);
-- Invoices billed from a sales order, by date: those posted after the as-of date held their deposit as customer credit then.
CREATE INDEX orders_converted_invoices_date ON orders (entity_id, order_date) WHERE document_type = 'invoice' AND converted_from_id IS NOT NULL;
-- Credit memo moves after a date.
CREATE INDEX credit_memo_moves_date ON credit_memo_moves (entity_id, move_date) INCLUDE (kind, credit_memo_id, invoice_id, amount);

-- Payments received after a date, refunds after a date, payments still holding unapplied money.
CREATE INDEX payments_date ON payments (entity_id, payment_date) INCLUDE (status, account_id, payment_method);
CREATE INDEX payments_unapplied ON payments (entity_id) INCLUDE (account_id, payment_date, unapplied_amount) WHERE unapplied_amount > 0;
CREATE INDEX refunds_date ON refunds (entity_id, refund_date) INCLUDE (payment_id);

-- Stock movements after a date, and the draws each made.
CREATE INDEX inventory_transactions_occurred ON inventory_transactions (entity_id, occurred_at) INCLUDE (product_id, location_id, quantity);

-- A payment's money applied to a document on a date of its own (applied_date later than the
-- receipt: E8, apply-credit, a multi-invoice payment applied later). One row per application
-- entry and document; payment_applications keeps the sum per document, this keeps the dates, so
-- the AR aging as of a date between the receipt and the application sees the money as unapplied.
CREATE TABLE payment_application_moves (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  payment_id uuid NOT NULL,
  order_id uuid NOT NULL,
  amount numeric(19,2) NOT NULL CHECK (amount > 0),
  applied_date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, payment_id) REFERENCES payments (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id)
);
CREATE INDEX payment_application_moves_date ON payment_application_moves (entity_id, applied_date) INCLUDE (payment_id, order_id, amount);
ALTER TABLE payment_application_moves ENABLE ROW LEVEL SECURITY;
ALTER TABLE payment_application_moves FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON payment_application_moves TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT ON payment_application_moves TO app_user;

-- Existing later applications: the posted application entries of payments applied to one
-- document (a payment applied to several recorded no split by date; it stays dated with its receipt).
INSERT INTO payment_application_moves (id, entity_id, payment_id, order_id, amount, applied_date)
SELECT gen_random_uuid(), e.entity_id, e.source_id, a.order_id, l.credit, e.entry_date
  FROM journal_entries e
  JOIN journal_lines l ON l.entity_id = e.entity_id AND l.entry_id = e.id AND l.credit > 0
  JOIN gl_accounts g ON g.entity_id = l.entity_id AND g.id = l.account_id AND g.system_key = 'accounts_receivable'
  JOIN payments p ON p.entity_id = e.entity_id AND p.id = e.source_id
  JOIN payment_applications a ON a.entity_id = p.entity_id AND a.payment_id = p.id
 WHERE e.source_type = 'payment_application' AND e.status = 'posted' AND e.reversal_of_id IS NULL
   AND (SELECT count(*) FROM payment_applications o WHERE o.entity_id = p.entity_id AND o.payment_id = p.id) = 1;

-- Down Migration
DROP TABLE payment_application_moves;
DROP INDEX inventory_transactions_occurred, refunds_date, payments_unapplied, payments_date, credit_memo_moves_date,
  orders_converted_invoices_date, orders_sales_order_deposits, orders_open_receivables;
