-- Up Migration

-- Webhooks and the events API (issue 12). The event outbox doubles as the durable event feed
-- (GET /v1/entities/{entity_id}/events): these indexes serve its filters by type and by the id of
-- the object concerned with the same (created_at, id) keyset order as the list index. Events older
-- than the retention window (EVENT_RETENTION_DAYS, at least 90) are deleted by the outbox sweeper.

CREATE INDEX event_outbox_type ON event_outbox (entity_id, type, created_at DESC, id DESC);
CREATE INDEX event_outbox_object ON event_outbox (entity_id, ((payload -> 'data' -> 'object' ->> 'id')), created_at DESC, id DESC);
CREATE INDEX event_outbox_age ON event_outbox (created_at);
GRANT DELETE ON event_outbox TO app_worker;

-- A webhook endpoint: where events of the types it subscribes to are POSTed, signed with its
-- secret. The secret is kept (the API signs with it); a rolled secret stays valid, and is signed
-- with too, until previous_secret_expires_at.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  description text CHECK (length(description) <= 1000),
  enabled_events text[] NOT NULL CHECK (cardinality(enabled_events) >= 1),
  status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text CHECK (disabled_reason IN ('user', 'gone', 'failing')),
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK ((status = 'enabled') = (disabled_reason IS NULL))
);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints (entity_id, created_at DESC, id DESC);

ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_endpoints FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON webhook_endpoints TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_endpoints TO app_user;

-- Deliveries: one row per (endpoint, event) to send, the retry queue. A dispatcher claims due rows
-- with FOR UPDATE SKIP LOCKED and leases them (next_attempt_at moves past the HTTP timeout), so
-- concurrent dispatchers never send one row twice at once and a crashed one's rows come back.
-- `payload` is set only for a test ping, which is not an event of the feed; other deliveries send
-- the outbox row's payload.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  endpoint_id uuid NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('event', 'resend', 'test')),
  payload jsonb,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, endpoint_id) REFERENCES webhook_endpoints (entity_id, id) ON DELETE CASCADE,
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
-- The bus delivers at least once: an event is queued for an endpoint once.
CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (endpoint_id, event_id) WHERE kind = 'event';
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

-- Every attempt, for GET .../webhook-endpoints/{id}/deliveries.
CREATE TABLE webhook_delivery_attempts (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  delivery_id uuid NOT NULL,
  endpoint_id uuid NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  attempt_number integer NOT NULL CHECK (attempt_number >= 1),
  succeeded boolean NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  response_excerpt text CHECK (octet_length(response_excerpt) <= 1024),
  error text,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (entity_id, delivery_id) REFERENCES webhook_deliveries (entity_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_delivery_attempts_list ON webhook_delivery_attempts (entity_id, endpoint_id, created_at DESC, id DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['webhook_deliveries', 'webhook_delivery_attempts'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;
GRANT SELECT, INSERT, UPDATE ON webhook_deliveries, webhook_delivery_attempts TO app_user;
-- The dispatcher claims due deliveries of every entity; the attempt itself runs in the entity's scope.
CREATE POLICY worker_dispatch ON webhook_deliveries TO app_worker USING (true) WITH CHECK (true);
GRANT SELECT, UPDATE (next_attempt_at) ON webhook_deliveries TO app_worker;
-- The retention sweep deletes finished deliveries (their attempts go with them) with the events.
CREATE POLICY worker_prune ON webhook_delivery_attempts FOR DELETE TO app_worker USING (true);
GRANT DELETE ON webhook_deliveries, webhook_delivery_attempts TO app_worker;
GRANT SELECT ON webhook_delivery_attempts TO app_worker;

-- Down Migration
DROP TABLE webhook_delivery_attempts, webhook_deliveries;
DROP TABLE webhook_endpoints;
REVOKE DELETE ON event_outbox FROM app_worker;
DROP INDEX event_outbox_age;
DROP INDEX event_outbox_object;
DROP INDEX event_outbox_type;
