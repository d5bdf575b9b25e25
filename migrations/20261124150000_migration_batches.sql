-- Up Migration

-- Import batches: a migration team opens a batch, creates records that name it (migration_batch_id),
-- and can roll back what nothing references yet before cutover. Products, customer accounts,
-- vendors, pricing policies and orders carry the batch id and imported_at; the composite foreign
-- key keeps a record from naming another entity's (or the other mode's) batch.

CREATE TABLE migration_batches (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  external_source text NOT NULL CHECK (length(external_source) BETWEEN 1 AND 100),
  description text CHECK (length(description) <= 1000),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'rolled_back')),
  completed_at timestamptz,
  rolled_back_at timestamptz,
  -- What rollbacks removed so far, per resource type ({"products": 3, ...}): the batch's counts
  -- are live (records that carry the batch id now), so what left is kept here.
  removed_counts jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE INDEX migration_batches_list ON migration_batches (entity_id, created_at DESC, id DESC);

ALTER TABLE migration_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE migration_batches FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON migration_batches TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE ON migration_batches TO app_user;

ALTER TABLE products ADD COLUMN migration_batch_id uuid, ADD COLUMN imported_at timestamptz,
  ADD CONSTRAINT products_migration_batch_fk FOREIGN KEY (entity_id, migration_batch_id) REFERENCES migration_batches (entity_id, id);
ALTER TABLE accounts ADD COLUMN migration_batch_id uuid, ADD COLUMN imported_at timestamptz,
  ADD CONSTRAINT accounts_migration_batch_fk FOREIGN KEY (entity_id, migration_batch_id) REFERENCES migration_batches (entity_id, id);
ALTER TABLE vendors ADD COLUMN migration_batch_id uuid, ADD COLUMN imported_at timestamptz,
  ADD CONSTRAINT vendors_migration_batch_fk FOREIGN KEY (entity_id, migration_batch_id) REFERENCES migration_batches (entity_id, id);
ALTER TABLE orders ADD COLUMN migration_batch_id uuid, ADD COLUMN imported_at timestamptz,
  ADD CONSTRAINT orders_migration_batch_fk FOREIGN KEY (entity_id, migration_batch_id) REFERENCES migration_batches (entity_id, id);
ALTER TABLE pricing_policies
  ADD CONSTRAINT pricing_policies_migration_batch_fk FOREIGN KEY (entity_id, migration_batch_id) REFERENCES migration_batches (entity_id, id);

CREATE INDEX products_migration_batch ON products (entity_id, migration_batch_id) WHERE migration_batch_id IS NOT NULL;
CREATE INDEX accounts_migration_batch ON accounts (entity_id, migration_batch_id) WHERE migration_batch_id IS NOT NULL;
CREATE INDEX vendors_migration_batch ON vendors (entity_id, migration_batch_id) WHERE migration_batch_id IS NOT NULL;
CREATE INDEX orders_migration_batch ON orders (entity_id, migration_batch_id) WHERE migration_batch_id IS NOT NULL;
CREATE INDEX pricing_policies_migration_batch ON pricing_policies (entity_id, migration_batch_id) WHERE migration_batch_id IS NOT NULL;

-- An external id is unique per (entity, external_source) for each resource type; a missing source
-- counts as the empty one, so a re-run without external_source is caught too. Pricing policies
-- get the rule they lacked.
DROP INDEX products_external_unique;
CREATE UNIQUE INDEX products_external_unique ON products (entity_id, coalesce(external_source, ''), external_id) WHERE external_id IS NOT NULL;
DROP INDEX accounts_external_unique;
CREATE UNIQUE INDEX accounts_external_unique ON accounts (entity_id, coalesce(external_source, ''), external_id) WHERE external_id IS NOT NULL;
DROP INDEX vendors_external_unique;
CREATE UNIQUE INDEX vendors_external_unique ON vendors (entity_id, coalesce(external_source, ''), external_id) WHERE external_id IS NOT NULL;
CREATE UNIQUE INDEX pricing_policies_external_unique ON pricing_policies (entity_id, coalesce(external_source, ''), external_id) WHERE external_id IS NOT NULL;

-- Rolling a batch back deletes its records. Accounts, vendors, pricing policies and orders are
-- otherwise archived, deactivated or soft-deleted, never deleted: the restrictive policy lets
-- app_user delete only rows that carry a batch id.
GRANT DELETE ON accounts, vendors, pricing_policies, orders TO app_user;
CREATE POLICY migration_rollback_only ON accounts AS RESTRICTIVE FOR DELETE TO app_user USING (migration_batch_id IS NOT NULL);
CREATE POLICY migration_rollback_only ON vendors AS RESTRICTIVE FOR DELETE TO app_user USING (migration_batch_id IS NOT NULL);
CREATE POLICY migration_rollback_only ON pricing_policies AS RESTRICTIVE FOR DELETE TO app_user USING (migration_batch_id IS NOT NULL);
CREATE POLICY migration_rollback_only ON orders AS RESTRICTIVE FOR DELETE TO app_user USING (migration_batch_id IS NOT NULL);

-- Down Migration
DROP POLICY migration_rollback_only ON orders;
DROP POLICY migration_rollback_only ON pricing_policies;
DROP POLICY migration_rollback_only ON vendors;
DROP POLICY migration_rollback_only ON accounts;
REVOKE DELETE ON accounts, vendors, pricing_policies, orders FROM app_user;
DROP INDEX pricing_policies_external_unique;
DROP INDEX vendors_external_unique;
CREATE UNIQUE INDEX vendors_external_unique ON vendors (entity_id, external_source, external_id) WHERE external_id IS NOT NULL;
DROP INDEX accounts_external_unique;
CREATE UNIQUE INDEX accounts_external_unique ON accounts (entity_id, external_source, external_id) WHERE external_id IS NOT NULL;
DROP INDEX products_external_unique;
CREATE UNIQUE INDEX products_external_unique ON products (entity_id, external_source, external_id) WHERE external_id IS NOT NULL;
DROP INDEX pricing_policies_migration_batch, orders_migration_batch, vendors_migration_batch, accounts_migration_batch, products_migration_batch;
ALTER TABLE pricing_policies DROP CONSTRAINT pricing_policies_migration_batch_fk;
ALTER TABLE orders DROP COLUMN migration_batch_id, DROP COLUMN imported_at;
ALTER TABLE vendors DROP COLUMN migration_batch_id, DROP COLUMN imported_at;
ALTER TABLE accounts DROP COLUMN migration_batch_id, DROP COLUMN imported_at;
ALTER TABLE products DROP COLUMN migration_batch_id, DROP COLUMN imported_at;
DROP TABLE migration_batches;
