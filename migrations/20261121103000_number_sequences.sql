-- Up Migration

-- Human-facing numbers (order, bill, credit, journal entry numbers) are sequential per entity and
-- gap-free: the counter row is locked by the transaction that takes a number, so a rollback
-- returns the number and two writers queue instead of skipping.
CREATE TABLE number_sequences (
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL,
  last_value bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (entity_id, name)
);
ALTER TABLE number_sequences ENABLE ROW LEVEL SECURITY;
ALTER TABLE number_sequences FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON number_sequences TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE ON number_sequences TO app_user;

-- Down Migration
DROP TABLE number_sequences;
