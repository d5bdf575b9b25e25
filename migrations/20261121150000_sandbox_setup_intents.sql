-- Up Migration
-- The sandbox payment processor's state (issue 5): setup intents created for E12 and the payment
-- methods their test-helper confirmation yields. Kept in PostgreSQL, not in process memory, so the
-- create, confirm, attach and detach calls of one intent may run in different Lambdas (the sandbox
-- stage). Only the sandbox adapter reads or writes it; Stripe keeps its own state.
CREATE TABLE sandbox_setup_intents (
  id text NOT NULL,
  entity_id uuid NOT NULL REFERENCES entities(id),
  account_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('card', 'us_bank_account')),
  status text NOT NULL CHECK (status IN ('requires_payment_method', 'requires_action', 'succeeded')),
  client_secret text NOT NULL,
  processor_customer_id text NOT NULL,
  -- Set by the test-helper confirmation: the Stripe test token and the method it yielded.
  payment_method_token text,
  payment_method_id text,
  payment_method_detached boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (entity_id, id),
  CHECK ((payment_method_id IS NULL) = (payment_method_token IS NULL)),
  FOREIGN KEY (entity_id, account_id) REFERENCES accounts (entity_id, id)
);
CREATE UNIQUE INDEX sandbox_setup_intents_payment_method ON sandbox_setup_intents (entity_id, payment_method_id) WHERE payment_method_id IS NOT NULL;

ALTER TABLE sandbox_setup_intents ENABLE ROW LEVEL SECURITY;
ALTER TABLE sandbox_setup_intents FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sandbox_setup_intents TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE ON sandbox_setup_intents TO app_user;

-- Down Migration
DROP TABLE sandbox_setup_intents;
