-- Up Migration

-- products.sku_key: lower(sku), stored, so a page in SKU order can start at its cursor through the
-- index. Requests read products under the tenant_isolation policy, and the planner turns a
-- condition into an index condition ahead of a policy's filter only when all its functions are
-- leakproof: lower() is not (marking it needs a real superuser, which Aurora does not give), text
-- comparison is. On the expression index, `lower(sku) > cursor` was a filter, and a page at the
-- middle of 50,000 products read the 25,000 index entries before it; on the column it is the
-- index condition. The unique index moves to the column (same name, same rule: one SKU per entity
-- whatever its case), so the SKU order and the duplicate-SKU error stay as they were.
ALTER TABLE products ADD COLUMN sku_key text GENERATED ALWAYS AS (lower(sku)) STORED;
DROP INDEX products_sku_unique;
CREATE UNIQUE INDEX products_sku_unique ON products (entity_id, sku_key);

-- Down Migration

DROP INDEX products_sku_unique;
ALTER TABLE products DROP COLUMN sku_key;
CREATE UNIQUE INDEX products_sku_unique ON products (entity_id, lower(sku));
