-- Up Migration

-- Vendor credits (E16) and AP payments (POST /v1/ap-payments), and what AP aging (E23) reads.
--
-- A vendor credit is issued for an amount (4 decimals on the wire, whole cents because the ledger
-- posts cents) and keeps its unapplied balance in remaining_amount. It is spent by AP payments,
-- voided (its unapplied balance only) or expired by the scheduled job; voided_amount and
-- forfeited_amount keep what each of those took, so amount = applied + voided + forfeited +
-- remaining at every moment.
--
-- An AP payment pays bills of one vendor: cash from a bank account and vendor credits. Each
-- (bill, cash or credit) amount is one row of ap_payment_applications, dated the payment's date
-- (applied_on); a void stamps voided_on with the reversal's date. The balance of a bill as of a
-- date is bill_total minus the rows applied on or before it and not voided on or before it.

CREATE TABLE vendor_credits (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  credit_number text NOT NULL,
  vendor_id uuid NOT NULL,
  amount numeric(19,4) NOT NULL CHECK (amount > 0),
  remaining_amount numeric(19,4) NOT NULL CHECK (remaining_amount >= 0),
  voided_amount numeric(19,4) NOT NULL DEFAULT 0 CHECK (voided_amount >= 0),
  forfeited_amount numeric(19,4) NOT NULL DEFAULT 0 CHECK (forfeited_amount >= 0),
  source_type text NOT NULL CHECK (source_type ~ '^[a-z][a-z0-9_]{0,49}$'),
  source_id uuid,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'partially_applied', 'applied', 'voided', 'expired')),
  credit_date date NOT NULL,
  expires_at timestamptz,
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  memo text CHECK (length(memo) <= 1000),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_by_user_id uuid,
  journal_entry_id uuid,
  voided_by uuid,
  voided_at timestamptz,
  void_reason text CHECK (length(void_reason) <= 1000),
  void_journal_entry_id uuid,
  expired_at timestamptz,
  expiry_journal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, credit_number),
  CHECK (remaining_amount + voided_amount + forfeited_amount <= amount),
  FOREIGN KEY (entity_id, vendor_id) REFERENCES vendors (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, voided_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, void_journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, expiry_journal_entry_id) REFERENCES journal_entries (entity_id, id)
);
CREATE INDEX vendor_credits_list ON vendor_credits (entity_id, created_at DESC, id DESC);
CREATE INDEX vendor_credits_vendor ON vendor_credits (entity_id, vendor_id, created_at DESC, id DESC);
-- What the expiry job looks for: credits with a balance and a deadline.
CREATE INDEX vendor_credits_expiring ON vendor_credits (expires_at) WHERE expires_at IS NOT NULL AND status IN ('open', 'partially_applied');

ALTER TABLE vendor_credits ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendor_credits FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON vendor_credits TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE ON vendor_credits TO app_user;
-- The expiry job finds the entities with expired credits across entities (only these columns).
CREATE POLICY worker_expiry_due ON vendor_credits FOR SELECT TO app_worker USING (true);
GRANT SELECT (entity_id, status, expires_at) ON vendor_credits TO app_worker;

CREATE TABLE ap_payments (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  payment_number text NOT NULL,
  vendor_id uuid NOT NULL,
  bank_account_id uuid,
  gl_account_id uuid,
  method text NOT NULL CHECK (method IN ('check', 'ach', 'wire', 'card')),
  reference text CHECK (length(reference) <= 100),
  payment_date date NOT NULL,
  amount numeric(19,2) NOT NULL CHECK (amount >= 0),
  credit_total numeric(19,2) NOT NULL DEFAULT 0 CHECK (credit_total >= 0),
  status text NOT NULL DEFAULT 'posted' CHECK (status IN ('posted', 'voided')),
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  memo text CHECK (length(memo) <= 1000),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_by_user_id uuid,
  journal_entry_id uuid,
  voided_by uuid,
  voided_at timestamptz,
  void_date date,
  void_reason text CHECK (length(void_reason) <= 1000),
  void_journal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, payment_number),
  CHECK (amount + credit_total > 0),
  FOREIGN KEY (entity_id, vendor_id) REFERENCES vendors (entity_id, id),
  FOREIGN KEY (entity_id, gl_account_id) REFERENCES gl_accounts (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, voided_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, void_journal_entry_id) REFERENCES journal_entries (entity_id, id)
);
CREATE INDEX ap_payments_list ON ap_payments (entity_id, created_at DESC, id DESC);
CREATE INDEX ap_payments_vendor ON ap_payments (entity_id, vendor_id, created_at DESC, id DESC);
CREATE INDEX ap_payments_date ON ap_payments (entity_id, payment_date);

ALTER TABLE ap_payments ENABLE ROW LEVEL SECURITY;
ALTER TABLE ap_payments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ap_payments TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE ON ap_payments TO app_user;

CREATE TABLE ap_payment_applications (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  payment_id uuid NOT NULL,
  bill_id uuid NOT NULL,
  -- null: the payment's cash; else the vendor credit spent on the bill
  vendor_credit_id uuid,
  amount numeric(19,2) NOT NULL CHECK (amount > 0),
  applied_on date NOT NULL,
  voided_on date,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK (voided_on IS NULL OR voided_on >= applied_on),
  FOREIGN KEY (entity_id, payment_id) REFERENCES ap_payments (entity_id, id),
  FOREIGN KEY (entity_id, bill_id) REFERENCES vendor_bills (entity_id, id),
  FOREIGN KEY (entity_id, vendor_credit_id) REFERENCES vendor_credits (entity_id, id)
);
CREATE INDEX ap_payment_applications_payment ON ap_payment_applications (entity_id, payment_id);
CREATE INDEX ap_payment_applications_bill ON ap_payment_applications (entity_id, bill_id, applied_on) INCLUDE (amount, voided_on);
CREATE INDEX ap_payment_applications_credit ON ap_payment_applications (entity_id, vendor_credit_id) WHERE vendor_credit_id IS NOT NULL;
-- AP aging as of a past date corrects today's amount_paid by the rows dated after that date only.
CREATE INDEX ap_payment_applications_applied ON ap_payment_applications (entity_id, applied_on) INCLUDE (bill_id, amount, voided_on);
CREATE INDEX ap_payment_applications_voided ON ap_payment_applications (entity_id, voided_on) INCLUDE (bill_id, amount, applied_on) WHERE voided_on IS NOT NULL;

ALTER TABLE ap_payment_applications ENABLE ROW LEVEL SECURITY;
ALTER TABLE ap_payment_applications FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ap_payment_applications TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE ON ap_payment_applications TO app_user;

-- AP aging as of a date reads the posted bills dated on or before it that were not paid off by
-- then (paid_off_on: the date a paid bill reached paid; null while it is not paid, or when
-- unknown, which only costs a little speed), and for those the applications dated after the date.
ALTER TABLE vendor_bills ADD COLUMN paid_off_on date;
CREATE INDEX vendor_bills_aging ON vendor_bills (entity_id, bill_date) INCLUDE (id, vendor_id, due_date, bill_total, amount_paid, status, paid_off_on)
  WHERE journal_entry_id IS NOT NULL;
CREATE INDEX vendor_bills_voided_posted ON vendor_bills (entity_id, id) INCLUDE (void_journal_entry_id)
  WHERE journal_entry_id IS NOT NULL AND void_journal_entry_id IS NOT NULL;

-- Down Migration
DROP INDEX vendor_bills_voided_posted;
DROP INDEX vendor_bills_aging;
ALTER TABLE vendor_bills DROP COLUMN paid_off_on;
DROP TABLE ap_payment_applications;
DROP TABLE ap_payments;
DROP TABLE vendor_credits;
