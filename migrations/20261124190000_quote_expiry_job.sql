-- Up Migration

-- The quote expiry job (shared/orders/expire-quotes.ts): expired_at marks a quote whose lapse has
-- been announced (order.expired), set once by the job; moving expires_at (PATCH) clears it, so a
-- revived quote that lapses again is announced again. is_expired stays the read-time rule.
ALTER TABLE orders ADD COLUMN expired_at timestamptz,
  ADD CONSTRAINT orders_expired_at_quotes CHECK (expired_at IS NULL OR document_type = 'quote');

-- What the job looks for: unmarked quotes with a deadline.
CREATE INDEX orders_quotes_expiring ON orders (expires_at)
  WHERE document_type = 'quote' AND expires_at IS NOT NULL AND expired_at IS NULL AND deleted_at IS NULL;

-- The job finds the entities with lapsed quotes across entities (only these columns).
CREATE POLICY worker_quote_expiry_due ON orders FOR SELECT TO app_worker USING (true);
GRANT SELECT (entity_id, document_type, order_status, expires_at, expired_at, deleted_at) ON orders TO app_worker;

-- Down Migration

REVOKE SELECT (entity_id, document_type, order_status, expires_at, expired_at, deleted_at) ON orders FROM app_worker;
DROP POLICY worker_quote_expiry_due ON orders;
DROP INDEX orders_quotes_expiring;
ALTER TABLE orders DROP CONSTRAINT orders_expired_at_quotes, DROP COLUMN expired_at;
