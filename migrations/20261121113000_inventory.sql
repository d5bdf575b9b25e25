-- Up Migration

-- Inventory per product and location: an immutable transaction log, FIFO cost layers, the draws
-- each outflow took from them, and one balance row per (product, location) that every movement
-- updates under a row lock in the same transaction, so concurrent movements never lose an update.

CREATE TABLE inventory_balances (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  product_id uuid NOT NULL,
  location_id uuid NOT NULL,
  on_hand numeric(19,4) NOT NULL DEFAULT 0,
  committed numeric(19,4) NOT NULL DEFAULT 0 CHECK (committed >= 0),
  -- The stock conditions last evaluated, so events fire when a condition starts to hold and never repeat.
  is_low boolean NOT NULL DEFAULT false,
  is_out boolean NOT NULL DEFAULT false,
  first_activity_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  UNIQUE (entity_id, product_id, location_id),
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id),
  FOREIGN KEY (entity_id, location_id) REFERENCES locations (entity_id, id)
);
CREATE INDEX inventory_balances_list ON inventory_balances (entity_id, created_at DESC, id DESC);
CREATE INDEX inventory_balances_location ON inventory_balances (entity_id, location_id);

-- Immutable: app_user may insert and read; the only column it may change is reference_id, which
-- the migration relink tool (E29) sets on rows marked reference_type = 'source_migration'.
CREATE TABLE inventory_transactions (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  product_id uuid NOT NULL,
  location_id uuid NOT NULL,
  transaction_type text NOT NULL CHECK (transaction_type IN ('receive', 'adjust', 'transfer', 'sale_fulfillment', 'return', 'build_consume', 'build_produce')),
  quantity numeric(19,4) NOT NULL CHECK (quantity <> 0),
  unit_cost numeric(19,4) NOT NULL CHECK (unit_cost >= 0),
  -- quantity (4 decimals) times unit costs (4 decimals) is exact at 8 decimals: no rounding drift.
  total_cost numeric(27,8) NOT NULL,
  uom_id uuid,
  reference_type text CHECK (reference_type ~ '^[a-z][a-z0-9_]{0,39}$'),
  reference_id uuid,
  -- The source system's transaction id on migrated rows (E29 matches on it).
  transaction_id text,
  group_id uuid,
  reason text,
  notes text,
  metadata jsonb NOT NULL DEFAULT '{}',
  occurred_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id),
  FOREIGN KEY (entity_id, location_id) REFERENCES locations (entity_id, id),
  FOREIGN KEY (entity_id, uom_id) REFERENCES units_of_measure (entity_id, id)
);
CREATE INDEX inventory_transactions_list ON inventory_transactions (entity_id, created_at DESC, id DESC);
-- Demand windows read decrements of one product by date.
CREATE INDEX inventory_transactions_demand ON inventory_transactions (entity_id, product_id, occurred_at) INCLUDE (location_id, transaction_type, quantity);
CREATE INDEX inventory_transactions_migrated ON inventory_transactions (entity_id, transaction_id) WHERE reference_type = 'source_migration';
CREATE INDEX inventory_transactions_uom ON inventory_transactions (entity_id, uom_id) WHERE uom_id IS NOT NULL;

CREATE TABLE inventory_cost_layers (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  product_id uuid NOT NULL,
  location_id uuid NOT NULL,
  transaction_id uuid NOT NULL,
  unit_cost numeric(19,4) NOT NULL CHECK (unit_cost >= 0),
  original_quantity numeric(19,4) NOT NULL CHECK (original_quantity > 0),
  remaining_quantity numeric(19,4) NOT NULL CHECK (remaining_quantity >= 0 AND remaining_quantity <= original_quantity),
  received_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, product_id) REFERENCES products (entity_id, id),
  FOREIGN KEY (entity_id, location_id) REFERENCES locations (entity_id, id),
  FOREIGN KEY (entity_id, transaction_id) REFERENCES inventory_transactions (entity_id, id)
);
CREATE INDEX inventory_cost_layers_open ON inventory_cost_layers (entity_id, product_id, location_id, received_at, id) WHERE remaining_quantity > 0;

CREATE TABLE inventory_layer_draws (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  transaction_id uuid NOT NULL,
  layer_id uuid NOT NULL,
  quantity numeric(19,4) NOT NULL CHECK (quantity > 0),
  unit_cost numeric(19,4) NOT NULL,
  cost numeric(27,8) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  FOREIGN KEY (entity_id, transaction_id) REFERENCES inventory_transactions (entity_id, id),
  FOREIGN KEY (entity_id, layer_id) REFERENCES inventory_cost_layers (entity_id, id)
);
CREATE INDEX inventory_layer_draws_transaction ON inventory_layer_draws (entity_id, transaction_id);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['inventory_balances', 'inventory_transactions', 'inventory_cost_layers', 'inventory_layer_draws'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE (on_hand, committed, is_low, is_out, first_activity_at, updated_at) ON inventory_balances TO app_user;
GRANT SELECT, INSERT, UPDATE (reference_id) ON inventory_transactions TO app_user;
GRANT SELECT, INSERT, UPDATE (remaining_quantity) ON inventory_cost_layers TO app_user;
GRANT SELECT, INSERT ON inventory_layer_draws TO app_user;

-- Down Migration
DROP TABLE inventory_layer_draws, inventory_cost_layers, inventory_transactions, inventory_balances;
