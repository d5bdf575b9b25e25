-- Up Migration

-- Accounts payable, first slice: vendor bills (E13, E21, E22) and their lines, and the payment
-- terms a bill's due_date is computed from. Statuses: draft → pending_approval → approved (or
-- rejected, editable again) → open on posting → partially_paid → paid; voided reverses the posting.
-- `open` is not in the spec's status enum, but the spec's E13 says posting makes the bill open.

CREATE TABLE payment_terms (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  net_days integer NOT NULL CHECK (net_days BETWEEN 0 AND 3650),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);

ALTER TABLE payment_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE payment_terms FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON payment_terms TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON payment_terms TO app_user;

CREATE TABLE vendor_bills (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  bill_number text NOT NULL,
  vendor_id uuid NOT NULL,
  po_id uuid,
  payment_term_id uuid,
  vendor_invoice_number text CHECK (length(vendor_invoice_number) BETWEEN 1 AND 100),
  status text NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'pending_approval', 'approved', 'rejected', 'open', 'partially_paid', 'paid', 'voided')),
  bill_date date NOT NULL,
  due_date date NOT NULL,
  subtotal numeric(19,2) NOT NULL DEFAULT 0,
  tax_total numeric(19,2) NOT NULL DEFAULT 0 CHECK (tax_total >= 0),
  shipping_total numeric(19,2) NOT NULL DEFAULT 0 CHECK (shipping_total >= 0),
  bill_total numeric(19,2) NOT NULL DEFAULT 0,
  amount_paid numeric(19,2) NOT NULL DEFAULT 0 CHECK (amount_paid >= 0),
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  notes text CHECK (length(notes) <= 5000),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_by_user_id uuid,
  submitted_by uuid,
  submitted_at timestamptz,
  approved_by uuid,
  approved_at timestamptz,
  rejected_by uuid,
  rejected_at timestamptz,
  rejection_reason text CHECK (length(rejection_reason) <= 1000),
  posted_by uuid,
  posted_at timestamptz,
  skip_permission_check boolean NOT NULL DEFAULT false,
  journal_entry_id uuid,
  voided_by uuid,
  voided_at timestamptz,
  void_journal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, bill_number),
  CHECK (amount_paid <= bill_total),
  FOREIGN KEY (entity_id, vendor_id) REFERENCES vendors (entity_id, id),
  FOREIGN KEY (entity_id, po_id) REFERENCES orders (entity_id, id),
  FOREIGN KEY (entity_id, payment_term_id) REFERENCES payment_terms (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, submitted_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, approved_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, rejected_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, posted_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, voided_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, journal_entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, void_journal_entry_id) REFERENCES journal_entries (entity_id, id)
);
-- A vendor's invoice number identifies one live bill; a voided bill frees it for the corrected one.
CREATE UNIQUE INDEX vendor_bills_vendor_invoice_unique ON vendor_bills (entity_id, vendor_id, lower(vendor_invoice_number))
  WHERE vendor_invoice_number IS NOT NULL AND status <> 'voided';
CREATE INDEX vendor_bills_list ON vendor_bills (entity_id, created_at DESC, id DESC);
CREATE INDEX vendor_bills_vendor ON vendor_bills (entity_id, vendor_id, created_at DESC, id DESC);
CREATE INDEX vendor_bills_due ON vendor_bills (entity_id, due_date) WHERE status IN ('open', 'partially_paid');

ALTER TABLE vendor_bills ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendor_bills FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON vendor_bills TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON vendor_bills TO app_user;

CREATE TABLE vendor_bill_lines (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  bill_id uuid NOT NULL,
  line_type text NOT NULL CHECK (line_type IN ('expense', 'item')),
  -- expense lines: the GL account debited
  account_id uuid,
  -- item lines: the product, quantity and unit cost
  product_id uuid,
  quantity numeric(19,4) CHECK (quantity > 0),
  unit_cost numeric(19,4) CHECK (unit_cost >= 0),
  amount numeric(19,2) NOT NULL CHECK (amount >= 0),
  description text CHECK (length(description) <= 1000),
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK ((line_type = 'expense' AND account_id IS NOT NULL AND product_id IS NULL AND quantity IS NULL AND unit_cost IS NULL)
      OR (line_type = 'item' AND product_id IS NOT NULL AND quantity IS NOT NULL AND unit_cost IS NOT NULL AND account_id IS NULL)),
  FOREIGN KEY (entity_id, bill_id) REFERENCES vendor_bills (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, account_id) REFERENCES gl_accounts (entity_id, id),
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id)
);
CREATE INDEX vendor_bill_lines_bill ON vendor_bill_lines (entity_id, bill_id, sort_order, created_at, id);

ALTER TABLE vendor_bill_lines ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendor_bill_lines FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON vendor_bill_lines TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON vendor_bill_lines TO app_user;

-- Down Migration
DROP TABLE vendor_bill_lines;
DROP TABLE vendor_bills;
DROP TABLE payment_terms;
