-- Up Migration

-- Vendor returns: received goods of a purchase order going back to the vendor. A return has lines
-- (purchase order line, quantity, location); each line's stock leaves through a vendor_return
-- inventory transaction at its FIFO cost, and the return issues one vendor credit
-- (source_type vendor_return, source_id the return) at the purchase order's unit cost. What a
-- purchase order line has returned is the sum of its return lines, read under the purchase order's
-- row lock, so a line never returns more than it received.

CREATE TABLE vendor_returns (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  return_number text NOT NULL,
  order_id uuid NOT NULL,
  vendor_id uuid NOT NULL,
  returned_at timestamptz NOT NULL,
  credit_amount numeric(19,2) NOT NULL CHECK (credit_amount >= 0),
  inventory_cost numeric(27,8) NOT NULL CHECK (inventory_cost >= 0),
  vendor_credit_id uuid,
  journal_entry_id uuid,
  reason text CHECK (length(reason) <= 1000),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_by_user_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, return_number),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id),
  FOREIGN KEY (entity_id, vendor_id) REFERENCES vendors (entity_id, id),
  FOREIGN KEY (entity_id, vendor_credit_id) REFERENCES vendor_credits (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX vendor_returns_order ON vendor_returns (entity_id, order_id, created_at, id);

CREATE TABLE vendor_return_lines (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  vendor_return_id uuid NOT NULL,
  order_line_id uuid NOT NULL,
  product_id uuid NOT NULL,
  location_id uuid NOT NULL,
  quantity numeric(19,4) NOT NULL CHECK (quantity > 0),
  unit_credit numeric(19,4) NOT NULL CHECK (unit_credit >= 0),
  inventory_cost numeric(27,8) NOT NULL CHECK (inventory_cost >= 0),
  inventory_transaction_id uuid NOT NULL,
  sort_order integer NOT NULL,
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, vendor_return_id) REFERENCES vendor_returns (entity_id, id),
  FOREIGN KEY (entity_id, order_line_id) REFERENCES order_lines (entity_id, id),
  FOREIGN KEY (entity_id, inventory_transaction_id) REFERENCES inventory_transactions (entity_id, id)
);
CREATE INDEX vendor_return_lines_return ON vendor_return_lines (entity_id, vendor_return_id, sort_order);
CREATE INDEX vendor_return_lines_order_line ON vendor_return_lines (entity_id, order_line_id) INCLUDE (quantity);

ALTER TABLE vendor_returns ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendor_returns FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON vendor_returns TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE ON vendor_returns TO app_user;
ALTER TABLE vendor_return_lines ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendor_return_lines FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON vendor_return_lines TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT ON vendor_return_lines TO app_user;

-- The stock leaving for the vendor has its own transaction type (not demand, not an adjustment).
ALTER TABLE inventory_transactions DROP CONSTRAINT inventory_transactions_transaction_type_check;
ALTER TABLE inventory_transactions ADD CONSTRAINT inventory_transactions_transaction_type_check
  CHECK (transaction_type IN ('receive', 'adjust', 'transfer', 'sale_fulfillment', 'return', 'build_consume', 'build_produce', 'vendor_return'));

-- Down Migration
ALTER TABLE inventory_transactions DROP CONSTRAINT inventory_transactions_transaction_type_check;
ALTER TABLE inventory_transactions ADD CONSTRAINT inventory_transactions_transaction_type_check
  CHECK (transaction_type IN ('receive', 'adjust', 'transfer', 'sale_fulfillment', 'return', 'build_consume', 'build_produce'));
DROP TABLE vendor_return_lines;
DROP TABLE vendor_returns;
