-- Up Migration

-- Issue 3, last slice: committed and on_order are computed from open order lines (never stored),
-- so the stored inventory_balances.committed column, which nothing ever wrote, is dropped; the
-- indexes serve that computation (open orders of an entity, a kit line's component lines). Order
-- lines gain the unit of measure a purchase order line buys in (E28 checks it before a unit is
-- deleted).

ALTER TABLE inventory_balances DROP COLUMN committed;

-- Open documents are a small share of an entity's orders: the partial index finds them directly.
CREATE INDEX orders_open ON orders (entity_id, document_type)
  WHERE deleted_at IS NULL AND order_status IN ('confirmed', 'partially_fulfilled', 'on_hold');
CREATE INDEX order_lines_kit_parent ON order_lines (entity_id, kit_parent_line_id) WHERE kit_parent_line_id IS NOT NULL;

ALTER TABLE order_lines
  ADD COLUMN unit_of_measure_id uuid,
  ADD FOREIGN KEY (entity_id, unit_of_measure_id) REFERENCES units_of_measure (entity_id, id);
CREATE INDEX order_lines_unit_of_measure ON order_lines (entity_id, unit_of_measure_id) WHERE unit_of_measure_id IS NOT NULL;

-- Down Migration
DROP INDEX order_lines_unit_of_measure;
ALTER TABLE order_lines DROP COLUMN unit_of_measure_id;
DROP INDEX order_lines_kit_parent;
DROP INDEX orders_open;
ALTER TABLE inventory_balances ADD COLUMN committed numeric(19,4) NOT NULL DEFAULT 0 CHECK (committed >= 0);
GRANT UPDATE (committed) ON inventory_balances TO app_user;
