-- Up Migration

-- AR aging and inventory valuation as of any date (docs/decisions.md, "AR aging and inventory
-- valuation as of a date"). Each report starts from what is open today and takes back what
-- happened after the date, so it reads what is open plus what moved since, never the whole history.

-- Open invoices and credit memos with credit left: the start of the AR aging and of the credit-memo credit.
CREATE INDEX orders_open_receivables ON orders (entity_id, document_type) INCLUDE (customer_account_id, balance_due)
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

-- Down Migration
DROP INDEX inventory_transactions_occurred, refunds_date, payments_unapplied, payments_date, credit_memo_moves_date,
  orders_converted_invoices_date, orders_sales_order_deposits, orders_open_receivables;
