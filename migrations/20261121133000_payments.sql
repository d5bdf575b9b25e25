-- Up Migration

-- Payments and cash (issue 5): customer payments received against one document (order_id) or
-- applied to several invoices (payment_applications), and bank deposits grouping undeposited
-- receipts (deposits, deposit_lines). Money is in cents (numeric(19,2)). Every reference between
-- tenant rows is a composite (entity_id, x_id) foreign key, so nothing points across entities.

CREATE TABLE payments (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  -- The paying customer account.
  account_id uuid NOT NULL,
  amount numeric(19,2) NOT NULL CHECK (amount > 0),
  -- What no application uses yet: unapplied customer credit.
  unapplied_amount numeric(19,2) NOT NULL CHECK (unapplied_amount >= 0 AND unapplied_amount <= amount),
  payment_method text NOT NULL CHECK (payment_method IN ('check', 'cash', 'card', 'ach', 'other')),
  payment_date date NOT NULL,
  check_number text,
  check_date date,
  external_reference text,
  notes text,
  -- undeposited: in undeposited funds; deposited: grouped into a bank deposit.
  status text NOT NULL DEFAULT 'undeposited' CHECK (status IN ('undeposited', 'deposited')),
  -- Set on a single-document payment (POST /v1/orders/{id}/payments); null on multi-invoice ones.
  order_id uuid,
  journal_entry_id uuid NOT NULL,
  deposit_id uuid,
  created_by_user_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK ((status = 'deposited') = (deposit_id IS NOT NULL)),
  FOREIGN KEY (entity_id, account_id) REFERENCES accounts (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX payments_list ON payments (entity_id, created_at DESC, id DESC);
CREATE INDEX payments_account ON payments (entity_id, account_id, created_at DESC, id DESC);
CREATE INDEX payments_order ON payments (entity_id, order_id) WHERE order_id IS NOT NULL;
CREATE INDEX payments_undeposited ON payments (entity_id, created_at DESC, id DESC) WHERE status = 'undeposited';

CREATE TABLE payment_applications (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  payment_id uuid NOT NULL,
  order_id uuid NOT NULL,
  amount_applied numeric(19,2) NOT NULL CHECK (amount_applied > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, payment_id, order_id),
  FOREIGN KEY (entity_id, payment_id) REFERENCES payments (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id)
);
CREATE INDEX payment_applications_order ON payment_applications (entity_id, order_id);
CREATE INDEX payment_applications_list ON payment_applications (entity_id, created_at DESC, id DESC);

CREATE TABLE deposits (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  -- The bank account's identity (gl_accounts.bank_account_id) and the GL account it resolved to.
  bank_account_id uuid NOT NULL,
  gl_account_id uuid NOT NULL,
  deposit_date date NOT NULL,
  memo text,
  status text NOT NULL DEFAULT 'posted' CHECK (status IN ('posted')),
  total_amount numeric(19,2) NOT NULL CHECK (total_amount > 0),
  line_count integer NOT NULL CHECK (line_count > 0),
  journal_entry_id uuid NOT NULL,
  created_by_user_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, gl_account_id) REFERENCES gl_accounts (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX deposits_list ON deposits (entity_id, created_at DESC, id DESC);

ALTER TABLE payments ADD FOREIGN KEY (entity_id, deposit_id) REFERENCES deposits (entity_id, id);

CREATE TABLE deposit_lines (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  deposit_id uuid NOT NULL,
  payment_id uuid NOT NULL,
  amount numeric(19,2) NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  -- A receipt is deposited once, whatever runs concurrently.
  UNIQUE (entity_id, payment_id),
  FOREIGN KEY (entity_id, deposit_id) REFERENCES deposits (entity_id, id),
  FOREIGN KEY (entity_id, payment_id) REFERENCES payments (entity_id, id)
);
CREATE INDEX deposit_lines_deposit ON deposit_lines (entity_id, deposit_id);
CREATE INDEX deposit_lines_list ON deposit_lines (entity_id, created_at DESC, id DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['payments', 'payment_applications', 'deposits', 'deposit_lines'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

-- Payments change only by application (unapplied_amount) and deposit (status, deposit_id);
-- applications, deposits and their lines are append-only.
GRANT SELECT, INSERT, UPDATE ON payments TO app_user;
GRANT SELECT, INSERT ON payment_applications, deposits, deposit_lines TO app_user;

-- Down Migration
DROP TABLE deposit_lines, payment_applications;
ALTER TABLE payments DROP COLUMN deposit_id;
DROP TABLE deposits, payments;
