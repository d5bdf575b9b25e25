-- Up Migration

-- The inventory account ties to the stock valuation to the cent (docs/decisions.md, "Inventory
-- valuation in cents"). Each FIFO cost layer carries the cents it is worth (remaining_value): a
-- receipt's layer is quantity × unit cost rounded half away from zero to the cent, a draw takes a
-- share of the layer's cents in proportion to the units it takes (the last units take exactly what
-- is left), and a transferred or built layer carries exactly the cents that left its source. A
-- balance's inventory_value is the sum of its layers' cents, and every movement posts the change.
ALTER TABLE inventory_cost_layers ADD COLUMN remaining_value numeric(19,2);
UPDATE inventory_cost_layers SET remaining_value = round(remaining_quantity * unit_cost, 2);
ALTER TABLE inventory_cost_layers
  ALTER COLUMN remaining_value SET NOT NULL,
  ADD CONSTRAINT inventory_cost_layers_remaining_value CHECK (remaining_value >= 0 AND (remaining_quantity > 0 OR remaining_value = 0));

-- The cents each draw took from its layer.
ALTER TABLE inventory_layer_draws ADD COLUMN value numeric(19,2);
UPDATE inventory_layer_draws SET value = round(cost, 2);
ALTER TABLE inventory_layer_draws ALTER COLUMN value SET NOT NULL;

GRANT UPDATE (remaining_quantity, remaining_value) ON inventory_cost_layers TO app_user;

-- Stock counted in or written off posts against a system account of its own, Inventory Shrinkage
-- and Adjustments (as QuickBooks' Inventory Shrinkage), an expense of subtype cost_of_goods_sold.
-- Existing entities that already have their system accounts get it now; otherwise
-- ensureSystemAccounts creates it on first use.
DO $$
BEGIN
  IF (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) THEN
    INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype, system_key)
    SELECT gen_random_uuid(), e.id,
           CASE WHEN EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND lower(g.code) = '5200') THEN '5200-S' ELSE '5200' END,
           'Inventory Shrinkage and Adjustments', 'expense', 'cost_of_goods_sold', 'inventory_adjustments'
      FROM entities e
     WHERE EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND g.system_key IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND g.system_key = 'inventory_adjustments')
    ON CONFLICT DO NOTHING;
  END IF;
END $$;

-- Down Migration
DELETE FROM gl_accounts g WHERE g.system_key = 'inventory_adjustments'
  AND NOT EXISTS (SELECT 1 FROM journal_lines l WHERE l.entity_id = g.entity_id AND l.account_id = g.id);
REVOKE UPDATE (remaining_value) ON inventory_cost_layers FROM app_user;
ALTER TABLE inventory_layer_draws DROP COLUMN value;
ALTER TABLE inventory_cost_layers DROP CONSTRAINT inventory_cost_layers_remaining_value, DROP COLUMN remaining_value;
