-- Up Migration

-- Returns (issue 5): a return (RMA) made from a shipped sales order or a posted invoice names its
-- source document (source_order_id) and each return line its source line (the existing
-- order_lines.source_line_id, which conversions already use); a line says whether the goods go
-- back on the shelf (restock) and why they came back. amount_credited is credit-memo money: on an
-- invoice, the credits applied to it (balance_due = order_total − amount_paid − amount_credited);
-- on a return, the part of its credit applied to its source invoice (the rest is customer credit,
-- a negative balance_due on the return). No new table, so the existing tenant_isolation policies
-- and grants of orders and order_lines cover these columns.

ALTER TABLE orders
  ADD COLUMN source_order_id uuid,
  ADD COLUMN amount_credited numeric(19,2) NOT NULL DEFAULT 0 CHECK (amount_credited >= 0),
  ADD FOREIGN KEY (entity_id, source_order_id) REFERENCES orders (entity_id, id);
CREATE INDEX orders_source_order ON orders (entity_id, source_order_id) WHERE source_order_id IS NOT NULL;

ALTER TABLE order_lines
  ADD COLUMN restock boolean NOT NULL DEFAULT true,
  ADD COLUMN return_reason text CHECK (length(return_reason) <= 500);

-- Down Migration
ALTER TABLE order_lines DROP COLUMN return_reason, DROP COLUMN restock;
ALTER TABLE orders DROP COLUMN amount_credited, DROP COLUMN source_order_id;
