-- Up Migration

-- Sales and purchase documents (issue 5, first slice): one orders table for quotes, sales orders,
-- invoices, returns and purchase orders; their lines; order-level adjustments (discounts, fees) and
-- the per-line share of each (line_adjustments); tax rates lines point at; an audit of override
-- edits. Unit prices and quantities keep 4 decimals, money amounts and totals 2 (cents). Every
-- reference between tenant rows is a composite (entity_id, x_id) foreign key.

CREATE TABLE tax_rates (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- A percentage: 8.25 means 8.25 %.
  rate numeric(7,4) NOT NULL CHECK (rate >= 0 AND rate <= 100),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX tax_rates_name_unique ON tax_rates (entity_id, lower(name));
CREATE INDEX tax_rates_list ON tax_rates (entity_id, created_at DESC, id DESC);

CREATE TABLE orders (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  order_number text NOT NULL,
  document_type text NOT NULL CHECK (document_type IN ('quote', 'sales_order', 'invoice', 'return', 'purchase_order')),
  order_status text NOT NULL DEFAULT 'draft'
    CHECK (order_status IN ('draft', 'confirmed', 'partially_fulfilled', 'fulfilled', 'cancelled', 'voided', 'awaiting_ach_clearance', 'on_hold')),
  payment_status text NOT NULL DEFAULT 'unpaid'
    CHECK (payment_status IN ('unpaid', 'partially_paid', 'paid', 'overpaid', 'refunded', 'partially_refunded', 'voided')),
  fulfillment_status text NOT NULL DEFAULT 'unfulfilled' CHECK (fulfillment_status IN ('unfulfilled', 'partially_fulfilled', 'fulfilled')),
  -- The party: a customer account on sales documents, a vendor on purchase orders (account_id in the API).
  customer_account_id uuid,
  vendor_id uuid,
  location_id uuid,
  po_number text,
  order_date timestamptz NOT NULL DEFAULT now(),
  due_date timestamptz,
  subtotal numeric(19,2) NOT NULL DEFAULT 0,
  discount_total numeric(19,2) NOT NULL DEFAULT 0,
  shipping_total numeric(19,2) NOT NULL DEFAULT 0 CHECK (shipping_total >= 0),
  tax_total numeric(19,2) NOT NULL DEFAULT 0,
  fee_total numeric(19,2) NOT NULL DEFAULT 0,
  order_total numeric(19,2) NOT NULL DEFAULT 0,
  list_price_total numeric(19,2) NOT NULL DEFAULT 0,
  pricing_savings numeric(19,2) NOT NULL DEFAULT 0,
  amount_paid numeric(19,2) NOT NULL DEFAULT 0,
  balance_due numeric(19,2) NOT NULL DEFAULT 0,
  tax_exempt boolean NOT NULL DEFAULT false,
  delivery_option text CHECK (delivery_option IN ('ship', 'pick_up', 'local_delivery')),
  notes text,
  internal_notes text,
  invoice_number text,
  invoice_type text CHECK (invoice_type IN ('order', 'manual', 'proforma', 'correction')),
  is_on_hold boolean NOT NULL DEFAULT false,
  hold_type text,
  ship_complete boolean NOT NULL DEFAULT false,
  source_platform text,
  external_order_id text,
  external_order_number text,
  metadata jsonb NOT NULL DEFAULT '{}',
  revision_count integer NOT NULL DEFAULT 0,
  duplicated_from_id uuid,
  created_by_user_id uuid,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, order_number),
  CHECK ((document_type = 'purchase_order') = (vendor_id IS NOT NULL)),
  CHECK (customer_account_id IS NULL OR vendor_id IS NULL),
  FOREIGN KEY (entity_id, customer_account_id) REFERENCES accounts (entity_id, id),
  FOREIGN KEY (entity_id, vendor_id) REFERENCES vendors (entity_id, id),
  FOREIGN KEY (entity_id, location_id) REFERENCES locations (entity_id, id),
  FOREIGN KEY (entity_id, duplicated_from_id) REFERENCES orders (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX orders_list ON orders (entity_id, document_type, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX orders_created ON orders (entity_id, created_at DESC, id DESC);
CREATE INDEX orders_customer ON orders (entity_id, customer_account_id) WHERE customer_account_id IS NOT NULL;
CREATE INDEX orders_vendor ON orders (entity_id, vendor_id) WHERE vendor_id IS NOT NULL;
CREATE INDEX orders_location ON orders (entity_id, location_id) WHERE location_id IS NOT NULL;
CREATE UNIQUE INDEX orders_external_unique ON orders (entity_id, document_type, coalesce(source_platform, ''), external_order_id)
  WHERE external_order_id IS NOT NULL AND deleted_at IS NULL;

CREATE TABLE order_lines (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  order_id uuid NOT NULL,
  product_id uuid NOT NULL,
  variant_id uuid,
  product_vendor_id uuid,
  -- A kit component line under its kit's line: carried for fulfillment and demand, priced on the parent.
  kit_parent_line_id uuid,
  sku text NOT NULL,
  title text NOT NULL,
  quantity numeric(19,4) NOT NULL CHECK (quantity > 0),
  quantity_fulfilled numeric(19,4) NOT NULL DEFAULT 0 CHECK (quantity_fulfilled >= 0),
  quantity_returned numeric(19,4) NOT NULL DEFAULT 0 CHECK (quantity_returned >= 0),
  received_floor numeric(19,4) NOT NULL DEFAULT 0 CHECK (received_floor >= 0),
  list_price numeric(19,4) NOT NULL DEFAULT 0,
  sell_rate numeric(19,4) NOT NULL CHECK (sell_rate >= 0),
  -- True when the caller set sell_rate; otherwise quantity changes re-price from the catalog.
  price_overridden boolean NOT NULL DEFAULT false,
  coupon_adjustment numeric(19,2) NOT NULL DEFAULT 0 CHECK (coupon_adjustment >= 0),
  discount_amount numeric(19,2) NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
  discount_percent numeric(7,4) CHECK (discount_percent >= 0 AND discount_percent <= 100),
  tax_rate_id uuid,
  tax_rate numeric(7,4),
  is_tax_exempt boolean NOT NULL DEFAULT false,
  product_tax_code text,
  -- Derived by the totals engine on every change of the order.
  pricing_rule_adjustment numeric(19,4) NOT NULL DEFAULT 0,
  line_subtotal numeric(19,2) NOT NULL DEFAULT 0,
  tax_amount numeric(19,2) NOT NULL DEFAULT 0,
  line_total numeric(19,2) NOT NULL DEFAULT 0,
  unit_cost numeric(19,4),
  weight numeric(19,4) CHECK (weight >= 0),
  is_drop_ship boolean NOT NULL DEFAULT false,
  drop_ship_vendor_id uuid,
  drop_ship_po_id uuid,
  notes text,
  sort_order integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id),
  FOREIGN KEY (entity_id, product_vendor_id) REFERENCES product_vendors (entity_id, id),
  FOREIGN KEY (entity_id, kit_parent_line_id) REFERENCES order_lines (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, tax_rate_id) REFERENCES tax_rates (entity_id, id),
  FOREIGN KEY (entity_id, drop_ship_vendor_id) REFERENCES vendors (entity_id, id),
  FOREIGN KEY (entity_id, drop_ship_po_id) REFERENCES orders (entity_id, id)
);
CREATE INDEX order_lines_order ON order_lines (entity_id, order_id, sort_order, id);
CREATE INDEX order_lines_product ON order_lines (entity_id, product_id);
CREATE INDEX order_lines_drop_ship_po ON order_lines (entity_id, drop_ship_po_id) WHERE drop_ship_po_id IS NOT NULL;

CREATE TABLE order_adjustments (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  order_id uuid NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  effect_type text NOT NULL CHECK (effect_type IN ('discount', 'fee')),
  discount_type text NOT NULL CHECK (discount_type IN ('percentage', 'fixed_amount')),
  value numeric(19,4) NOT NULL CHECK (value >= 0 AND (discount_type <> 'percentage' OR value <= 100)),
  -- The money effect as the totals engine last computed it.
  amount numeric(19,2) NOT NULL DEFAULT 0,
  notes text,
  created_by_user_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX order_adjustments_order ON order_adjustments (entity_id, order_id, created_at, id);

-- Each line's share of an order-level discount (the line item's `adjustments` array).
CREATE TABLE line_adjustments (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  order_id uuid NOT NULL,
  line_id uuid NOT NULL,
  source_type text NOT NULL,
  source_id uuid NOT NULL,
  source_label text NOT NULL,
  per_unit_amount numeric(19,4) NOT NULL,
  quantity numeric(19,4) NOT NULL,
  line_amount numeric(19,2) NOT NULL,
  proration_ratio numeric(12,10) NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, line_id, source_type, source_id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, line_id) REFERENCES order_lines (entity_id, id) ON DELETE CASCADE
);
CREATE INDEX line_adjustments_order ON line_adjustments (entity_id, order_id);

-- Edits of closed documents made with override true (orders.revision_override): who, why, what.
CREATE TABLE order_revisions (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  order_id uuid NOT NULL,
  line_id uuid,
  user_id uuid NOT NULL,
  api_key_id uuid,
  reason text,
  lock_reason text NOT NULL,
  changes jsonb NOT NULL,
  revision_number integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, order_id) REFERENCES orders (entity_id, id),
  FOREIGN KEY (entity_id, user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX order_revisions_order ON order_revisions (entity_id, order_id, created_at DESC, id DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['tax_rates', 'orders', 'order_lines', 'order_adjustments', 'line_adjustments', 'order_revisions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

-- Orders are soft-deleted (deleted_at), never removed: numbers stay taken and history stays whole.
GRANT SELECT, INSERT, UPDATE ON tax_rates, orders TO app_user;
GRANT SELECT, INSERT, UPDATE, DELETE ON order_lines, order_adjustments, line_adjustments TO app_user;
GRANT SELECT, INSERT ON order_revisions TO app_user;

-- Down Migration
DROP TABLE order_revisions, line_adjustments, order_adjustments, order_lines, orders, tax_rates;
