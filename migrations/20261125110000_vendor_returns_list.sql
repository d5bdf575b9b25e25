-- Up Migration

-- GET /v1/vendor-returns lists an entity's returns newest first, on (created_at, id), and narrows
-- them to one vendor or one purchase order (vendor_returns_order serves that filter already).
CREATE INDEX vendor_returns_list ON vendor_returns (entity_id, created_at DESC, id DESC);
CREATE INDEX vendor_returns_vendor ON vendor_returns (entity_id, vendor_id, created_at DESC, id DESC);

-- Down Migration

DROP INDEX vendor_returns_vendor;
DROP INDEX vendor_returns_list;
