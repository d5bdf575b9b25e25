-- Up Migration

-- Purchase-order approval. Order approval rules gain a document_type: sales_order rules route by
-- customer account and/or sales channel as before; purchase_order rules route by vendor (vendor_id)
-- or, with no vendor, every purchase order of the entity. A purchase order submitted (or confirmed)
-- with order_total strictly over the threshold of a matching active rule is held for approval
-- (on_hold, hold_type 'approval') as sales orders are; approved_total records the total the
-- approval covered, so a purchase order that grew past it needs approval again before it is sent.

ALTER TABLE order_approval_rules
  ADD COLUMN document_type text NOT NULL DEFAULT 'sales_order' CHECK (document_type IN ('sales_order', 'purchase_order')),
  ADD COLUMN vendor_id uuid,
  ADD FOREIGN KEY (entity_id, vendor_id) REFERENCES vendors (entity_id, id),
  DROP CONSTRAINT order_approval_rules_check,
  ADD CONSTRAINT order_approval_rules_dimensions CHECK (
    (document_type = 'sales_order' AND (account_id IS NOT NULL OR sales_channel_id IS NOT NULL) AND vendor_id IS NULL)
    OR (document_type = 'purchase_order' AND account_id IS NULL AND sales_channel_id IS NULL));
CREATE INDEX order_approval_rules_purchase ON order_approval_rules (entity_id, vendor_id) WHERE is_active AND document_type = 'purchase_order';

ALTER TABLE orders ADD COLUMN approved_total numeric(19,2);

-- Down Migration
ALTER TABLE orders DROP COLUMN approved_total;
DROP INDEX order_approval_rules_purchase;
UPDATE orders o SET approval_rule_id = NULL
  FROM order_approval_rules r WHERE r.entity_id = o.entity_id AND r.id = o.approval_rule_id AND r.document_type = 'purchase_order';
DELETE FROM order_approval_rules WHERE document_type = 'purchase_order';
ALTER TABLE order_approval_rules DROP CONSTRAINT order_approval_rules_dimensions,
  ADD CONSTRAINT order_approval_rules_check CHECK (account_id IS NOT NULL OR sales_channel_id IS NOT NULL),
  DROP COLUMN vendor_id, DROP COLUMN document_type;
