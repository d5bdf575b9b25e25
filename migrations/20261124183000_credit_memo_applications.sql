-- Up Migration

-- Prepayments follow the invoice: a sales order's deposit moves to the invoice made from it when
-- that invoice is posted, so a payment's application to the sales order shrinks, and goes when
-- all of it moved.
GRANT DELETE ON payment_applications TO app_user;

-- Credit-memo credit beyond its invoice: applied to another invoice of the same account, or
-- refunded. One row per move; the return's amount_credited counts what was applied (its source
-- invoice included) and credit_refunded what was refunded, so its balance_due (minus the credit
-- left) is -(order_total - amount_credited - credit_refunded).
ALTER TABLE orders ADD COLUMN credit_refunded numeric(19,2) NOT NULL DEFAULT 0 CHECK (credit_refunded >= 0);

CREATE TABLE credit_memo_moves (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  credit_memo_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('application', 'refund')),
  invoice_id uuid,
  amount numeric(19,2) NOT NULL CHECK (amount > 0),
  cash_gl_account_id uuid,
  move_date date NOT NULL,
  journal_entry_id uuid NOT NULL,
  created_by_user_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK ((kind = 'application') = (invoice_id IS NOT NULL)),
  CHECK ((kind = 'refund') = (cash_gl_account_id IS NOT NULL)),
  FOREIGN KEY (entity_id, credit_memo_id) REFERENCES orders (entity_id, id),
  FOREIGN KEY (entity_id, invoice_id) REFERENCES orders (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id)
);
CREATE INDEX credit_memo_moves_memo ON credit_memo_moves (entity_id, credit_memo_id, created_at);
CREATE INDEX credit_memo_moves_invoice ON credit_memo_moves (entity_id, invoice_id) WHERE invoice_id IS NOT NULL;

ALTER TABLE credit_memo_moves ENABLE ROW LEVEL SECURITY;
ALTER TABLE credit_memo_moves FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON credit_memo_moves TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT ON credit_memo_moves TO app_user;

-- Down Migration

DROP TABLE credit_memo_moves;
ALTER TABLE orders DROP COLUMN credit_refunded;
REVOKE DELETE ON payment_applications FROM app_user;
