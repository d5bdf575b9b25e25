-- Up Migration

-- Purchase orders (issue 5): sending a purchase order records when and to whom; a drop-ship
-- purchase order's line names the sales line it ships (the sales line names the purchase order in
-- drop_ship_po_id); receipts post to a new system account, received_not_billed (debit inventory or
-- COGS, credit received-not-billed; the vendor bill later clears it against accounts payable).

ALTER TABLE orders
  ADD COLUMN sent_at timestamptz,
  ADD COLUMN sent_to text CHECK (length(sent_to) <= 320);

ALTER TABLE order_lines
  ADD COLUMN drop_ship_source_line_id uuid,
  ADD FOREIGN KEY (entity_id, drop_ship_source_line_id) REFERENCES order_lines (entity_id, id);
CREATE INDEX order_lines_drop_ship_source ON order_lines (entity_id, drop_ship_source_line_id) WHERE drop_ship_source_line_id IS NOT NULL;

-- Existing entities that already have their system accounts get the new one now. Only a role that
-- bypasses row level security can see every entity; otherwise the application creates it the first
-- time a posting names it (ensureSystemAccounts), as for any entity created before the ledger.
DO $$
BEGIN
  IF (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) THEN
    INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype, system_key)
    SELECT gen_random_uuid(), e.id,
           CASE WHEN EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND lower(g.code) = '2050') THEN '2050-S' ELSE '2050' END,
           'Received Not Billed', 'liability', 'other_current_liability', 'received_not_billed'
      FROM entities e
     WHERE EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND g.system_key IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = e.id AND g.system_key = 'received_not_billed')
    ON CONFLICT DO NOTHING;
  END IF;
END $$;

-- Down Migration
DELETE FROM gl_accounts g WHERE g.system_key = 'received_not_billed'
  AND NOT EXISTS (SELECT 1 FROM journal_lines l WHERE l.entity_id = g.entity_id AND l.account_id = g.id);
ALTER TABLE order_lines DROP COLUMN drop_ship_source_line_id;
ALTER TABLE orders DROP COLUMN sent_to, DROP COLUMN sent_at;
