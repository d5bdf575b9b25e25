-- Up Migration

-- Roles are cluster-wide: create them only when missing (and tolerate a concurrent creator).
-- None of them logs in, owns anything or bypasses row level security; a login role is granted
-- membership (the deploy step does this on Aurora) and each transaction switches with SET LOCAL ROLE.
--   app_user           every API request, confined to one entity by app.entity_id
--   app_authenticator  the authorizer: finds a key by its hash before the entity is known
--   app_worker         background jobs that cross entities (outbox sweeper, schedulers)
DO $$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['app_user', 'app_authenticator', 'app_worker'] LOOP
    BEGIN
      EXECUTE format('CREATE ROLE %I NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE', r);
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
    EXECUTE format('GRANT %I TO CURRENT_USER', r);
  END LOOP;
END $$;

GRANT USAGE ON SCHEMA public TO app_user, app_authenticator, app_worker;

-- The entity of the current transaction; NULL (so no row matches) when none was set.
CREATE FUNCTION current_entity_id() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.entity_id', true), '')::uuid $$;

CREATE TABLE entities (
  id uuid PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9]{2,32}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  email text NOT NULL,
  name text NOT NULL,
  permissions text[] NOT NULL DEFAULT '{}',
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX users_email_unique ON users (entity_id, lower(email));

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  created_by_user_id uuid NOT NULL,
  name text,
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  -- SHA-256 of the whole secret; the secret itself is never stored.
  key_hash text NOT NULL UNIQUE,
  redacted_key text NOT NULL,
  scopes text[] NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  rolled_from_key_id uuid REFERENCES api_keys(id),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX api_keys_list ON api_keys (entity_id, created_at DESC, id DESC);

CREATE TABLE locations (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL,
  address1 text, address2 text, city text, state text, postal_code text, country text, phone text,
  is_active boolean NOT NULL DEFAULT true,
  is_default boolean NOT NULL DEFAULT false,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX locations_name_unique ON locations (entity_id, lower(name));
CREATE UNIQUE INDEX locations_one_default ON locations (entity_id) WHERE is_default;
CREATE INDEX locations_list ON locations (entity_id, created_at DESC, id DESC);

CREATE TABLE manufacturers (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL,
  website text,
  notes text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX manufacturers_name_unique ON manufacturers (entity_id, lower(name));
CREATE INDEX manufacturers_list ON manufacturers (entity_id, created_at DESC, id DESC);

-- Transactional outbox: written in the request's transaction, published after commit.
CREATE TABLE event_outbox (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
CREATE INDEX event_outbox_unpublished ON event_outbox (created_at, id) WHERE published_at IS NULL;
CREATE INDEX event_outbox_list ON event_outbox (entity_id, created_at DESC, id DESC);

-- Row level security: enabled and forced on every tenant table.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'api_keys', 'locations', 'manufacturers', 'event_outbox'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;
ALTER TABLE entities ENABLE ROW LEVEL SECURITY;
ALTER TABLE entities FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON entities TO app_user USING (id = current_entity_id()) WITH CHECK (id = current_entity_id());

-- The authorizer reads keys, their entity and user across entities, and stamps last_used_at.
CREATE POLICY authenticator_lookup ON api_keys FOR SELECT TO app_authenticator USING (true);
CREATE POLICY authenticator_touch ON api_keys FOR UPDATE TO app_authenticator USING (true) WITH CHECK (true);
CREATE POLICY authenticator_lookup ON entities FOR SELECT TO app_authenticator USING (true);
CREATE POLICY authenticator_lookup ON users FOR SELECT TO app_authenticator USING (true);
GRANT SELECT ON api_keys, entities, users TO app_authenticator;
GRANT UPDATE (last_used_at) ON api_keys TO app_authenticator;

-- The outbox sweeper publishes what a crashed request left behind, for every entity.
CREATE POLICY worker_sweep ON event_outbox TO app_worker USING (true) WITH CHECK (true);
GRANT SELECT, UPDATE (published_at) ON event_outbox TO app_worker;

GRANT SELECT, INSERT, UPDATE ON entities TO app_user;
GRANT SELECT, INSERT, UPDATE ON users TO app_user;
GRANT SELECT, INSERT, UPDATE ON api_keys TO app_user;
GRANT SELECT, INSERT, UPDATE, DELETE ON locations, manufacturers TO app_user;
GRANT SELECT, INSERT ON event_outbox TO app_user;
GRANT UPDATE (published_at) ON event_outbox TO app_user;

-- Down Migration
DROP TABLE event_outbox, manufacturers, locations, api_keys, users, entities;
DROP FUNCTION current_entity_id();
