-- Up Migration

-- Refunds, payment voiding and ACH clearance (issue 5). See docs/decisions.md "Refunds, voided
-- payments and ACH clearance".
--
-- payments.status gains pending (an ACH debit not yet cleared: no journal entry yet, so
-- journal_entry_id becomes nullable), voided (reversed before deposit) and failed (an ACH return).
-- amount_refunded is what refunds gave back; the payment is refundable up to amount minus it.
-- payment_applications.amount_refunded is the part of one application a refund took back, and
-- orders.amount_refunded the refunds a document received (it drives payment_status
-- partially_refunded and refunded). orders.ach_previous_status is the order_status a document
-- returns to when its ACH payment clears or fails.

ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments
  ADD CONSTRAINT payments_status_check CHECK (status IN ('pending', 'undeposited', 'deposited', 'voided', 'failed')),
  ALTER COLUMN journal_entry_id DROP NOT NULL,
  ADD COLUMN amount_refunded numeric(19,2) NOT NULL DEFAULT 0,
  ADD COLUMN cleared_at timestamptz,
  ADD COLUMN voided_at timestamptz,
  ADD COLUMN failed_at timestamptz,
  ADD COLUMN failure_reason text CHECK (length(failure_reason) <= 500),
  ADD COLUMN reversal_journal_entry_id uuid,
  ADD CONSTRAINT payments_amount_refunded_check CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
  -- Only a pending (uncleared ACH) or failed payment has no journal entry.
  ADD CONSTRAINT payments_journal_entry_check CHECK (journal_entry_id IS NOT NULL OR status IN ('pending', 'failed')),
  ADD FOREIGN KEY (entity_id, reversal_journal_entry_id) REFERENCES journal_entries (entity_id, id);
CREATE INDEX payments_pending ON payments (entity_id, created_at DESC, id DESC) WHERE status = 'pending';

ALTER TABLE payment_applications
  ADD COLUMN amount_refunded numeric(19,2) NOT NULL DEFAULT 0,
  ADD CONSTRAINT payment_applications_amount_refunded_check CHECK (amount_refunded >= 0 AND amount_refunded <= amount_applied);

ALTER TABLE orders
  ADD COLUMN amount_refunded numeric(19,2) NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0),
  ADD COLUMN ach_previous_status text
    CHECK (ach_previous_status IN ('draft', 'confirmed', 'partially_fulfilled', 'fulfilled', 'cancelled', 'voided', 'awaiting_ach_clearance', 'on_hold'));

CREATE TABLE refunds (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  payment_id uuid NOT NULL,
  amount numeric(19,2) NOT NULL CHECK (amount > 0),
  reason text CHECK (length(reason) <= 500),
  refund_date date NOT NULL,
  -- Where the money left from: undeposited_funds, or the bank account of the payment's deposit.
  cash_gl_account_id uuid NOT NULL,
  journal_entry_id uuid NOT NULL,
  created_by_user_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, payment_id) REFERENCES payments (entity_id, id),
  FOREIGN KEY (entity_id, cash_gl_account_id) REFERENCES gl_accounts (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX refunds_list ON refunds (entity_id, created_at DESC, id DESC);
CREATE INDEX refunds_payment ON refunds (entity_id, payment_id);

-- How one refund splits: customer credit given back (order_id null: the payment's unapplied
-- credit; or a document's credit part) debits AR; the allowance part of an invoice reverses the sale.
CREATE TABLE refund_lines (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  refund_id uuid NOT NULL,
  order_id uuid,
  credit_amount numeric(19,2) NOT NULL CHECK (credit_amount >= 0),
  allowance_amount numeric(19,2) NOT NULL CHECK (allowance_amount >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK (credit_amount + allowance_amount > 0),
  CHECK (order_id IS NOT NULL OR allowance_amount = 0),
  FOREIGN KEY (entity_id, refund_id) REFERENCES refunds (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id)
);
CREATE INDEX refund_lines_refund ON refund_lines (entity_id, refund_id);
CREATE INDEX refund_lines_list ON refund_lines (entity_id, created_at DESC, id DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['refunds', 'refund_lines'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

-- Refunds and their lines are append-only; an application changes only by refund (amount_refunded).
GRANT SELECT, INSERT ON refunds, refund_lines TO app_user;
GRANT UPDATE ON payment_applications TO app_user;

-- Down Migration
DROP TABLE refund_lines, refunds;
REVOKE UPDATE ON payment_applications FROM app_user;
ALTER TABLE orders DROP COLUMN ach_previous_status, DROP COLUMN amount_refunded;
ALTER TABLE payment_applications DROP COLUMN amount_refunded;
DROP INDEX payments_pending;
ALTER TABLE payments DROP CONSTRAINT payments_journal_entry_check, DROP CONSTRAINT payments_amount_refunded_check,
  DROP COLUMN reversal_journal_entry_id, DROP COLUMN failure_reason, DROP COLUMN failed_at, DROP COLUMN voided_at, DROP COLUMN cleared_at,
  DROP COLUMN amount_refunded, DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ALTER COLUMN journal_entry_id SET NOT NULL,
  ADD CONSTRAINT payments_status_check CHECK (status IN ('undeposited', 'deposited'));
