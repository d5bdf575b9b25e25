-- Up Migration

-- Per-key throttling on AWS. Every account (both of its entity rows) is on a usage tier, whose
-- API Gateway usage plan sets each key's rate and burst (tiers in the stage config). Each API key
-- gets an API Gateway API key of its own in that plan, created by the usage-key sync job: its id is
-- kept here, null until the job has created it (the authorizer then names the tier's shared
-- pending key instead).
ALTER TABLE entities ADD COLUMN usage_tier text NOT NULL DEFAULT 'standard' CHECK (usage_tier ~ '^[a-z][a-z0-9_]{0,31}$');
ALTER TABLE api_keys ADD COLUMN usage_key_id text;

-- What the sync job looks for: live keys without their gateway key yet.
CREATE INDEX api_keys_usage_key_pending ON api_keys (created_at, id) WHERE usage_key_id IS NULL AND revoked_at IS NULL;

-- The sync job (app_worker) reads those keys across entities with their account's tier, and records
-- the gateway key it created; nothing else of a key or an entity.
CREATE POLICY worker_usage_keys ON api_keys FOR SELECT TO app_worker USING (true);
CREATE POLICY worker_usage_keys_record ON api_keys FOR UPDATE TO app_worker USING (true) WITH CHECK (true);
CREATE POLICY worker_usage_tiers ON entities FOR SELECT TO app_worker USING (true);
GRANT SELECT (id, entity_id, usage_key_id, revoked_at, expires_at, created_at) ON api_keys TO app_worker;
GRANT UPDATE (usage_key_id) ON api_keys TO app_worker;
GRANT SELECT (id, usage_tier) ON entities TO app_worker;
