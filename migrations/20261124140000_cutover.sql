-- Up Migration

-- The cutover of a migration: an entity's writes are frozen (entity_freezes), a database snapshot
-- is taken (db_snapshots, run by the cutover state machine), and every freeze, unfreeze and
-- snapshot request is kept in the cutover log.

-- One row while an entity is frozen; deleted by unfreeze. The token is what the snapshot request
-- must quote, so a snapshot is tied to the freeze that is in force.
CREATE TABLE entity_freezes (
  entity_id uuid PRIMARY KEY REFERENCES entities(id),
  freeze_token uuid NOT NULL,
  cutover_log_id uuid NOT NULL,
  frozen_at timestamptz NOT NULL DEFAULT now(),
  frozen_by_key_id uuid
);

CREATE TABLE cutover_log (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  action text NOT NULL CHECK (action IN ('freeze', 'unfreeze', 'snapshot')),
  freeze_token uuid,
  api_key_id uuid,
  request_id text,
  description text CHECK (length(description) <= 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE INDEX cutover_log_list ON cutover_log (entity_id, created_at DESC, id DESC);

CREATE TABLE db_snapshots (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  -- The database snapshot identifier (RDS rules: a letter first, letters, digits and single hyphens).
  snapshot_id text NOT NULL UNIQUE CHECK (snapshot_id ~ '^[a-z][a-z0-9]*(-[a-z0-9]+)*$' AND length(snapshot_id) <= 255),
  db_instance_id text NOT NULL,
  status text NOT NULL DEFAULT 'creating' CHECK (status IN ('creating', 'available', 'failed')),
  percent_progress integer NOT NULL DEFAULT 0 CHECK (percent_progress BETWEEN 0 AND 100),
  description text NOT NULL CHECK (length(description) <= 1000),
  env text NOT NULL CHECK (env IN ('dev', 'staging', 'prod')),
  dev_stub boolean NOT NULL,
  cutover_log_id uuid NOT NULL,
  freeze_token uuid NOT NULL,
  failure_reason text,
  started_at timestamptz NOT NULL DEFAULT now(),
  estimated_completion_at timestamptz NOT NULL,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, cutover_log_id) REFERENCES cutover_log (entity_id, id)
);
CREATE INDEX db_snapshots_list ON db_snapshots (entity_id, created_at DESC, id DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['entity_freezes', 'cutover_log', 'db_snapshots'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, DELETE ON entity_freezes TO app_user;
GRANT SELECT, INSERT ON cutover_log TO app_user;
GRANT SELECT, INSERT, UPDATE (status, percent_progress, failure_reason, completed_at, updated_at) ON db_snapshots TO app_user;

-- The freeze check of every mutating request without migration:admin. The data layer runs it in
-- the batch that opens the request's transaction (after the role and entity are set, so row level
-- security confines it): no round trip of its own. SQLSTATE BOF01 becomes 409 entity_frozen.
CREATE FUNCTION assert_entity_writable() RETURNS void
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, public
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM entity_freezes WHERE entity_id = current_entity_id()) THEN
    RAISE EXCEPTION 'entity is frozen for cutover' USING ERRCODE = 'BOF01';
  END IF;
END
$$;
GRANT EXECUTE ON FUNCTION assert_entity_writable() TO app_user;

-- Down Migration
DROP FUNCTION assert_entity_writable();
DROP TABLE db_snapshots, cutover_log, entity_freezes;
