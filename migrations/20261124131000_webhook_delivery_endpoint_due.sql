-- Up Migration

-- The due deliveries of one endpoint, oldest first: a dispatcher whose slot for an endpoint
-- frees up claims that endpoint's backlog through this index, without scanning past the due
-- deliveries of every other endpoint (a slow endpoint's backlog must not slow the others' claims).
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';

-- Down Migration
DROP INDEX webhook_deliveries_endpoint_due;
