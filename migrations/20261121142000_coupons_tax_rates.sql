-- Up Migration

-- Coupons and tax rate endpoints (issue 5). A coupon is a code a customer document redeems: applied
-- through POST /v1/orders/{id}/apply-coupon it becomes an order-level discount adjustment that names
-- the coupon (coupon_id) and is prorated into the lines' coupon_adjustment. One coupon_redemptions row
-- per redemption is what the usage limits count (times_redeemed is kept equal to their number under
-- the coupon's row lock); a document converted from one that redeemed a coupon keeps the discount
-- without a new redemption. Tax rates gain the fields their endpoints expose.

CREATE TABLE coupons (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  code text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{1,50}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  discount_type text NOT NULL CHECK (discount_type IN ('percentage', 'fixed_amount')),
  value numeric(19,4) NOT NULL CHECK (value > 0 AND (discount_type <> 'percentage' OR value <= 100)),
  valid_from timestamptz,
  valid_until timestamptz,
  max_redemptions integer CHECK (max_redemptions > 0),
  max_redemptions_per_account integer CHECK (max_redemptions_per_account > 0),
  times_redeemed integer NOT NULL DEFAULT 0 CHECK (times_redeemed >= 0),
  min_order_subtotal numeric(19,2) CHECK (min_order_subtotal >= 0),
  is_active boolean NOT NULL DEFAULT true,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until > valid_from)
);
CREATE UNIQUE INDEX coupons_code_unique ON coupons (entity_id, lower(code));
CREATE INDEX coupons_list ON coupons (entity_id, created_at DESC, id DESC);

ALTER TABLE order_adjustments
  ADD COLUMN coupon_id uuid,
  ADD FOREIGN KEY (entity_id, coupon_id) REFERENCES coupons (entity_id, id);
-- A coupon discounts a document once.
CREATE UNIQUE INDEX order_adjustments_coupon_unique ON order_adjustments (entity_id, order_id, coupon_id) WHERE coupon_id IS NOT NULL;
CREATE INDEX order_adjustments_coupon ON order_adjustments (entity_id, coupon_id) WHERE coupon_id IS NOT NULL;

CREATE TABLE coupon_redemptions (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  coupon_id uuid NOT NULL,
  order_id uuid NOT NULL,
  adjustment_id uuid NOT NULL,
  account_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, adjustment_id),
  FOREIGN KEY (entity_id, coupon_id) REFERENCES coupons (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id),
  -- Removing the coupon's adjustment from the order releases the redemption.
  FOREIGN KEY (entity_id, adjustment_id) REFERENCES order_adjustments (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, account_id) REFERENCES accounts (entity_id, id)
);
CREATE INDEX coupon_redemptions_account ON coupon_redemptions (entity_id, coupon_id, account_id);

ALTER TABLE tax_rates
  ADD COLUMN description text CHECK (length(description) <= 1000),
  ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}';
CREATE INDEX order_lines_tax_rate ON order_lines (entity_id, tax_rate_id) WHERE tax_rate_id IS NOT NULL;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['coupons', 'coupon_redemptions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON coupons, coupon_redemptions TO app_user;
-- Unused tax rates can be deleted (a rate lines use is only deactivated).
GRANT DELETE ON tax_rates TO app_user;

-- Down Migration
REVOKE DELETE ON tax_rates FROM app_user;
DROP INDEX order_lines_tax_rate;
ALTER TABLE tax_rates DROP COLUMN metadata, DROP COLUMN description;
DROP TABLE coupon_redemptions;
ALTER TABLE order_adjustments DROP COLUMN coupon_id;
DROP TABLE coupons;
