-- Up Migration

-- Catalog and parties: units of measure, products (kits are products with component rows),
-- options, customer accounts, vendors, product-vendor relationships, pricing levels and policies,
-- tags. Every reference between tenant rows is a composite (entity_id, x_id) foreign key, so no row
-- can point at another entity's row even if application code forgot a filter.

-- Units of measure are grouped by type (count, weight, ...). Each type has exactly one base unit
-- (conversion_factor 1); every other unit of the type states how many base units it holds.
CREATE TABLE units_of_measure (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  abbreviation text NOT NULL CHECK (length(abbreviation) BETWEEN 1 AND 20),
  uom_type text NOT NULL CHECK (uom_type ~ '^[a-z][a-z0-9_]{0,39}$'),
  is_base boolean NOT NULL DEFAULT false,
  conversion_factor numeric(19,8) NOT NULL CHECK (conversion_factor > 0),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK (NOT is_base OR conversion_factor = 1)
);
CREATE UNIQUE INDEX units_of_measure_abbreviation_unique ON units_of_measure (entity_id, lower(abbreviation));
CREATE UNIQUE INDEX units_of_measure_one_base ON units_of_measure (entity_id, uom_type) WHERE is_base;
CREATE INDEX units_of_measure_list ON units_of_measure (entity_id, created_at DESC, id DESC);

CREATE TABLE products (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  sku text NOT NULL CHECK (length(sku) BETWEEN 1 AND 100),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
  description text,
  product_type text NOT NULL CHECK (product_type IN ('simple', 'kit', 'bundle', 'service')),
  manufacturer_id uuid,
  uom_id uuid,
  list_price numeric(19,4),
  cost numeric(19,4),
  reorder_point numeric(19,4) CHECK (reorder_point >= 0),
  is_active boolean NOT NULL DEFAULT true,
  metadata jsonb NOT NULL DEFAULT '{}',
  external_source text,
  external_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, manufacturer_id) REFERENCES manufacturers (entity_id, id),
  FOREIGN KEY (entity_id, uom_id) REFERENCES units_of_measure (entity_id, id)
);
CREATE UNIQUE INDEX products_sku_unique ON products (entity_id, lower(sku));
CREATE UNIQUE INDEX products_external_unique ON products (entity_id, external_source, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX products_list ON products (entity_id, created_at DESC, id DESC);
-- Prefix search on SKU (lower(sku) LIKE 'abc%') without a scan.
CREATE INDEX products_sku_prefix ON products (entity_id, lower(sku) text_pattern_ops);
CREATE INDEX products_manufacturer ON products (entity_id, manufacturer_id) WHERE manufacturer_id IS NOT NULL;
CREATE INDEX products_uom ON products (entity_id, uom_id) WHERE uom_id IS NOT NULL;

CREATE TABLE kit_components (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  parent_product_id uuid NOT NULL,
  component_product_id uuid NOT NULL,
  quantity_per_kit numeric(19,4) NOT NULL CHECK (quantity_per_kit > 0),
  sequence integer NOT NULL,
  is_assembled boolean NOT NULL DEFAULT false,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, parent_product_id, component_product_id),
  CHECK (parent_product_id <> component_product_id),
  FOREIGN KEY (entity_id, parent_product_id) REFERENCES products (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, component_product_id) REFERENCES products (entity_id, id)
);
CREATE INDEX kit_components_component ON kit_components (entity_id, component_product_id);

CREATE TABLE product_options (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  product_id uuid NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  option_values text[] NOT NULL DEFAULT '{}',
  sequence integer NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX product_options_name_unique ON product_options (entity_id, product_id, lower(name));

-- Customer accounts and vendors share a shape: parties that documents point at.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  account_number text,
  email text,
  phone text,
  address1 text, address2 text, city text, state text, postal_code text, country text,
  tax_exempt boolean NOT NULL DEFAULT false,
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  notes text,
  is_archived boolean NOT NULL DEFAULT false,
  archived_at timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  external_source text,
  external_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX accounts_number_unique ON accounts (entity_id, lower(account_number)) WHERE account_number IS NOT NULL;
CREATE UNIQUE INDEX accounts_external_unique ON accounts (entity_id, external_source, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX accounts_list ON accounts (entity_id, created_at DESC, id DESC);

CREATE TABLE vendors (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  account_number text,
  email text,
  phone text,
  address1 text, address2 text, city text, state text, postal_code text, country text,
  tax_exempt boolean NOT NULL DEFAULT false,
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  notes text,
  is_archived boolean NOT NULL DEFAULT false,
  archived_at timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  external_source text,
  external_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX vendors_number_unique ON vendors (entity_id, lower(account_number)) WHERE account_number IS NOT NULL;
CREATE UNIQUE INDEX vendors_external_unique ON vendors (entity_id, external_source, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX vendors_list ON vendors (entity_id, created_at DESC, id DESC);

CREATE TABLE product_vendors (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  product_id uuid NOT NULL,
  vendor_id uuid NOT NULL,
  vendor_sku text,
  vendor_cost numeric(19,4) CHECK (vendor_cost >= 0),
  lead_time_days integer CHECK (lead_time_days >= 0),
  order_multiple numeric(19,4) NOT NULL DEFAULT 1 CHECK (order_multiple > 0),
  minimum_order_quantity numeric(19,4) CHECK (minimum_order_quantity >= 0),
  is_preferred boolean NOT NULL DEFAULT false,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, product_id, vendor_id),
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id) ON DELETE CASCADE,
  FOREIGN KEY (entity_id, vendor_id) REFERENCES vendors (entity_id, id)
);
CREATE UNIQUE INDEX product_vendors_one_preferred ON product_vendors (entity_id, product_id) WHERE is_preferred;
CREATE INDEX product_vendors_vendor ON product_vendors (entity_id, vendor_id);

CREATE TABLE pricing_levels (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  description text,
  is_active boolean NOT NULL DEFAULT true,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX pricing_levels_name_unique ON pricing_levels (entity_id, lower(name));
CREATE INDEX pricing_levels_list ON pricing_levels (entity_id, created_at DESC, id DESC);

CREATE TABLE pricing_policies (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  product_id uuid NOT NULL,
  pricing_level_id uuid,
  account_id uuid,
  pricing_type text NOT NULL DEFAULT 'regular' CHECK (pricing_type ~ '^[a-z][a-z0-9_]{0,39}$'),
  min_quantity numeric(19,4) NOT NULL DEFAULT 1 CHECK (min_quantity > 0),
  sell_price numeric(19,4) NOT NULL CHECK (sell_price >= 0),
  list_price numeric(19,4),
  adjustment numeric(19,4),
  margin_pct numeric(9,2),
  is_active boolean NOT NULL DEFAULT true,
  is_default boolean NOT NULL DEFAULT false,
  imported_at timestamptz,
  external_source text,
  external_id text,
  migration_batch_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id),
  FOREIGN KEY (entity_id, pricing_level_id) REFERENCES pricing_levels (entity_id, id),
  FOREIGN KEY (entity_id, account_id) REFERENCES accounts (entity_id, id)
);
-- One price per tier: the same product, level, account, type and minimum quantity cannot be priced twice.
CREATE UNIQUE INDEX pricing_policies_tier_unique ON pricing_policies (
  entity_id, product_id, COALESCE(pricing_level_id, '00000000-0000-0000-0000-000000000000'::uuid),
  COALESCE(account_id, '00000000-0000-0000-0000-000000000000'::uuid), pricing_type, min_quantity
) WHERE is_active;
CREATE INDEX pricing_policies_list ON pricing_policies (entity_id, created_at DESC, id DESC);
CREATE INDEX pricing_policies_product ON pricing_policies (entity_id, product_id);

CREATE TABLE tags (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  color text CHECK (color ~ '^#[0-9a-f]{6}$'),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id)
);
CREATE UNIQUE INDEX tags_name_unique ON tags (entity_id, lower(name));
CREATE INDEX tags_list ON tags (entity_id, created_at DESC, id DESC);

-- A tag on any resource: resource_id is polymorphic (no foreign key), so the data layer checks that
-- the resource exists in the entity before a row is written, and deletes a resource's rows with it.
CREATE TABLE tag_assignments (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  tag_id uuid NOT NULL,
  resource_type text NOT NULL CHECK (resource_type IN ('account', 'product', 'vendor', 'order', 'invoice', 'return', 'purchase_order', 'vendor_bill', 'contact', 'package')),
  resource_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, resource_type, resource_id, tag_id),
  FOREIGN KEY (entity_id, tag_id) REFERENCES tags (entity_id, id) ON DELETE CASCADE
);
CREATE INDEX tag_assignments_tag ON tag_assignments (entity_id, tag_id);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['units_of_measure', 'products', 'kit_components', 'product_options', 'accounts', 'vendors', 'product_vendors',
                           'pricing_levels', 'pricing_policies', 'tags', 'tag_assignments'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON units_of_measure, products, kit_components, product_options, product_vendors, tags, tag_assignments TO app_user;
-- Parties are archived, never deleted; pricing levels and policies are deactivated.
GRANT SELECT, INSERT, UPDATE ON accounts, vendors, pricing_levels, pricing_policies TO app_user;

-- Down Migration
DROP TABLE tag_assignments, tags, pricing_policies, pricing_levels, product_vendors, vendors, accounts, product_options, kit_components, products, units_of_measure;
