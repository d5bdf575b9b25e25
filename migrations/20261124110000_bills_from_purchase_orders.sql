-- Up Migration

-- Vendor bills from purchase orders (three-way match). A purchase order line carries what it
-- received at cost (received_cost, added up by every receipt) and how many of its units are on
-- bills that are not voided (billed_quantity, kept by the bill routes under the line's row lock).
-- A bill's item line names the purchase order line it bills (po_line_id); at posting it records
-- the received-not-billed amount it cleared (receipt_cost), the cost of the receipts it matches.
-- Any difference between the billed amount and receipt_cost posts to a new system account,
-- purchase_price_variance.

ALTER TABLE order_lines
  ADD COLUMN received_cost numeric(27,8) NOT NULL DEFAULT 0 CHECK (received_cost >= 0),
  ADD COLUMN billed_quantity numeric(19,4) NOT NULL DEFAULT 0 CHECK (billed_quantity >= 0);

-- Lines received before this migration: their stocked receipts are in the inventory ledger (the
-- receive movements of the order name the line in metadata); drop-ship lines cost their unit cost.
UPDATE order_lines l SET received_cost = coalesce(
    (SELECT sum(t.total_cost) FROM inventory_transactions t
      WHERE t.entity_id = l.entity_id AND t.reference_type = 'order' AND t.reference_id = l.order_id
        AND t.transaction_type = 'receive' AND t.metadata->>'line_id' = l.id::text),
    CASE WHEN l.drop_ship_source_line_id IS NOT NULL THEN l.quantity_fulfilled * coalesce(l.unit_cost, 0) ELSE 0 END)
 FROM orders o
 WHERE o.entity_id = l.entity_id AND o.id = l.order_id AND o.document_type = 'purchase_order' AND l.quantity_fulfilled > 0;

ALTER TABLE vendor_bill_lines
  ADD COLUMN po_line_id uuid,
  ADD COLUMN receipt_cost numeric(19,2),
  ADD FOREIGN KEY (entity_id, po_line_id) REFERENCES order_lines (entity_id, id);
CREATE INDEX vendor_bill_lines_po_line ON vendor_bill_lines (entity_id, po_line_id) WHERE po_line_id IS NOT NULL;
CREATE INDEX vendor_bills_po ON vendor_bills (entity_id, po_id) WHERE po_id IS NOT NULL;

-- Existing entities that already have their system accounts get the new one now (as the
-- received_not_billed migration did); otherwise ensureSystemAccounts creates it on first use.
DO $$
BEGIN
  IF (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) THEN
    INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype, system_key)
    SELECT gen_random_uuid(), e.id,
           CASE WHEN EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND lower(g.code) = '5100') THEN '5100-S' ELSE '5100' END,
           'Purchase Price Variance', 'expense', 'cost_of_goods_sold', 'purchase_price_variance'
      FROM entities e
     WHERE EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND g.system_key IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND g.system_key = 'purchase_price_variance')
    ON CONFLICT DO NOTHING;
  END IF;
END $$;

-- Down Migration
DELETE FROM gl_accounts g WHERE g.system_key = 'purchase_price_variance'
  AND NOT EXISTS (SELECT 1 FROM journal_lines l WHERE l.entity_id = g.entity_id AND l.account_id = g.id);
DROP INDEX vendor_bills_po;
ALTER TABLE vendor_bill_lines DROP COLUMN receipt_cost, DROP COLUMN po_line_id;
ALTER TABLE order_lines DROP COLUMN billed_quantity, DROP COLUMN received_cost;
