-- Up Migration

-- Order lifecycle (issue 5, second slice): conversions link a document to its source (quote to
-- sales order, sales order to invoice, line to line so unbilled quantities can be computed), a
-- posted invoice keeps its AR journal entry (reversed on void), and a hold keeps its reason.

ALTER TABLE orders
  ADD COLUMN converted_from_id uuid,
  ADD COLUMN journal_entry_id uuid,
  ADD COLUMN hold_reason text CHECK (length(hold_reason) <= 1000),
  ADD FOREIGN KEY (entity_id, converted_from_id) REFERENCES orders (entity_id, id),
  ADD FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id);
CREATE INDEX orders_converted_from ON orders (entity_id, converted_from_id) WHERE converted_from_id IS NOT NULL;

ALTER TABLE order_lines
  ADD COLUMN source_line_id uuid,
  ADD FOREIGN KEY (entity_id, source_line_id) REFERENCES order_lines (entity_id, id);
CREATE INDEX order_lines_source ON order_lines (entity_id, source_line_id) WHERE source_line_id IS NOT NULL;

-- Down Migration
ALTER TABLE order_lines DROP COLUMN source_line_id;
ALTER TABLE orders DROP COLUMN hold_reason, DROP COLUMN journal_entry_id, DROP COLUMN converted_from_id;
