-- Up Migration

-- Archiving closed documents: hidden from lists unless asked for, read-only until unarchived.
-- Quote expiry: expires_at on quotes; a quote past it (still draft or confirmed) reads is_expired
-- and cannot be converted or confirmed (a read-time rule: no job has to run first).
ALTER TABLE orders
  ADD COLUMN is_archived boolean NOT NULL DEFAULT false,
  ADD COLUMN archived_at timestamptz,
  ADD COLUMN expires_at timestamptz,
  ADD CONSTRAINT orders_archived_at CHECK (is_archived = (archived_at IS NOT NULL)),
  ADD CONSTRAINT orders_expires_at_quotes CHECK (expires_at IS NULL OR document_type = 'quote');

-- Down Migration

ALTER TABLE orders DROP CONSTRAINT orders_expires_at_quotes, DROP CONSTRAINT orders_archived_at,
  DROP COLUMN expires_at, DROP COLUMN archived_at, DROP COLUMN is_archived;
