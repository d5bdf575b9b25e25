-- Up Migration
-- Account payment methods (E12, E19): a customer account's saved cards and ACH debit accounts, as
-- tokens of the payment processor plus display details (brand, last four, expiry, bank name).
-- Card and bank numbers are never stored: the processor's client library collects them.
CREATE TABLE account_payment_methods (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  account_id uuid NOT NULL,
  -- Which adapter saved it (sandbox or stripe); the id below is only meaningful there.
  processor text NOT NULL CHECK (processor IN ('sandbox', 'stripe')),
  processor_payment_method_id text NOT NULL,
  -- The setup intent it came from: attaching the same intent twice is refused.
  processor_setup_intent_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('card', 'ach')),
  card_brand text,
  last_four text CHECK (last_four ~ '^[0-9]{4}$'),
  bank_name text,
  account_type text,
  routing_last_four text CHECK (routing_last_four ~ '^[0-9]{4}$'),
  funding_type text,
  verification_status text,
  exp_month integer CHECK (exp_month BETWEEN 1 AND 12),
  exp_year integer CHECK (exp_year BETWEEN 2000 AND 2200),
  is_default boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  -- A removed method is never the default.
  CHECK (is_active OR NOT is_default),
  FOREIGN KEY (entity_id, account_id) REFERENCES accounts (entity_id, id)
);
CREATE UNIQUE INDEX account_payment_methods_one_default ON account_payment_methods (entity_id, account_id) WHERE is_default;
CREATE UNIQUE INDEX account_payment_methods_processor_id ON account_payment_methods (entity_id, processor, processor_payment_method_id);
CREATE UNIQUE INDEX account_payment_methods_setup_intent ON account_payment_methods (entity_id, processor, processor_setup_intent_id);
CREATE INDEX account_payment_methods_list ON account_payment_methods (entity_id, created_at DESC, id DESC);
CREATE INDEX account_payment_methods_account ON account_payment_methods (entity_id, account_id, created_at DESC, id DESC);

-- The processor's customer behind each account, created on the first setup intent: one per
-- processor and key mode (a processor's test mode and live mode do not share customers).
CREATE TABLE account_processor_customers (
  entity_id uuid NOT NULL REFERENCES entities(id),
  account_id uuid NOT NULL,
  processor text NOT NULL CHECK (processor IN ('sandbox', 'stripe')),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  processor_customer_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (entity_id, account_id, processor, mode),
  FOREIGN KEY (entity_id, account_id) REFERENCES accounts (entity_id, id)
);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['account_payment_methods', 'account_processor_customers'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;
-- Methods are soft-removed (is_active false), never deleted; customers are written once.
GRANT SELECT, INSERT, UPDATE ON account_payment_methods TO app_user;
GRANT SELECT, INSERT ON account_processor_customers TO app_user;

-- Down Migration
DROP TABLE account_processor_customers, account_payment_methods;
