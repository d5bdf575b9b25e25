-- Up Migration

-- Product search (?q=) matches lower(sku) by prefix (products_sku_prefix) or lower(name) anywhere
-- in it ('%term%'), which no B-tree serves: a search that matches nothing reads every product of
-- the entity. A trigram GIN index answers '%term%' for terms of 3 characters or
-- more; pg_trgm is a trusted extension (the database owner may create it), ships with Aurora
-- PostgreSQL and with PGlite (loaded in local/embedded.ts).
-- Known limit (issue 14): under row level security the planner may use an index only for leakproof
-- operators before the policy's filter, and LIKE and lower() are not leakproof, so the request's
-- query (role app_user) still filters the entity's products one by one. A search function outside
-- the policy barrier that applies the policy's own predicate is the next step (docs/decisions.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX products_name_trgm ON products USING gin (lower(name) gin_trgm_ops);

-- Down Migration

DROP INDEX products_name_trgm;
