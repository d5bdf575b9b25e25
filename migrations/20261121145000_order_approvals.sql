-- Up Migration

-- Order approval rules (E9) and the approval routing of sales orders. A rule names a customer
-- account, a sales channel or both (both: that customer's orders in that channel), a threshold
-- and an approver. A sales order confirmed with order_total over the threshold of an active rule
-- that matches it is held (on_hold, hold_type 'approval') until that approver, or a user with the
-- orders.approve permission, approves (→ confirmed) or rejects it (→ back to draft).
-- A sales channel is an id the integrator assigns (no table): orders carry it as sales_channel_id.

CREATE TABLE order_approval_rules (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  account_id uuid,
  sales_channel_id uuid,
  threshold_amount numeric(19,2) NOT NULL CHECK (threshold_amount >= 0),
  approver_user_id uuid NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  created_by_user_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK (account_id IS NOT NULL OR sales_channel_id IS NOT NULL),
  FOREIGN KEY (entity_id, account_id) REFERENCES accounts (entity_id, id),
  FOREIGN KEY (entity_id, approver_user_id) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX order_approval_rules_list ON order_approval_rules (entity_id, created_at DESC, id DESC);
CREATE INDEX order_approval_rules_account ON order_approval_rules (entity_id, account_id) WHERE is_active;
CREATE INDEX order_approval_rules_channel ON order_approval_rules (entity_id, sales_channel_id) WHERE is_active;

ALTER TABLE order_approval_rules ENABLE ROW LEVEL SECURITY;
ALTER TABLE order_approval_rules FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON order_approval_rules TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON order_approval_rules TO app_user;

ALTER TABLE orders
  ADD COLUMN sales_channel_id uuid,
  ADD COLUMN approval_rule_id uuid,
  ADD COLUMN approver_user_id uuid,
  ADD COLUMN approval_requested_at timestamptz,
  ADD COLUMN approved_by uuid,
  ADD COLUMN approved_at timestamptz,
  ADD COLUMN rejected_by uuid,
  ADD COLUMN rejected_at timestamptz,
  ADD COLUMN rejection_reason text CHECK (length(rejection_reason) <= 1000),
  ADD FOREIGN KEY (entity_id, approval_rule_id) REFERENCES order_approval_rules (entity_id, id),
  ADD FOREIGN KEY (entity_id, approver_user_id) REFERENCES users (entity_id, id),
  ADD FOREIGN KEY (entity_id, approved_by) REFERENCES users (entity_id, id),
  ADD FOREIGN KEY (entity_id, rejected_by) REFERENCES users (entity_id, id);
CREATE INDEX orders_approval_rule ON orders (entity_id, approval_rule_id) WHERE approval_rule_id IS NOT NULL;

-- Down Migration
ALTER TABLE orders DROP COLUMN rejection_reason, DROP COLUMN rejected_at, DROP COLUMN rejected_by, DROP COLUMN approved_at, DROP COLUMN approved_by,
  DROP COLUMN approval_requested_at, DROP COLUMN approver_user_id, DROP COLUMN approval_rule_id, DROP COLUMN sales_channel_id;
DROP TABLE order_approval_rules;
