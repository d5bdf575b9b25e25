-- Up Migration

-- Product search (?q=) through its indexes under row level security.
-- The request's query runs as app_user under the tenant_isolation policy, and the planner may turn
-- a condition into an index condition ahead of a policy's filter only when its operators are
-- leakproof; LIKE, lower() and pg_trgm's operators are not (marking them needs a real superuser,
-- which Aurora does not give). So product_search_ids() finds the matching ids outside that
-- barrier, through products_sku_prefix and products_name_trgm, and the request's query then
-- filters with id = ANY(ids), whose uuid equality is leakproof and uses the primary key.
--
-- Why this keeps tenants apart:
-- - The function runs as app_product_search: it logs in as nobody, owns nothing but the function,
--   has no BYPASSRLS and may read four columns of products. Its one policy lets it see every row,
--   and the function applies the tenant_isolation predicate itself (entity_id =
--   current_entity_id(), the caller's transaction setting, never an argument); with no entity set
--   it matches nothing.
-- - It returns ids only, and the caller reads products through its own policy: an id of another
--   entity could not be turned into a row even if one were returned.
-- - The pattern is bound as a literal with %L (quoted, never spliced), so the planner sees it and
--   picks the trigram or prefix index for a rare term and a scan for a common one.
DO $$
BEGIN
  BEGIN
    CREATE ROLE app_product_search NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  GRANT app_product_search TO CURRENT_USER;
END $$;

GRANT USAGE ON SCHEMA public TO app_product_search;
GRANT SELECT (id, entity_id, sku, name) ON products TO app_product_search;
CREATE POLICY product_search ON products FOR SELECT TO app_product_search USING (true);

-- At most max_ids ids of the current entity's products whose lower(sku) starts with, or whose
-- lower(name) contains, the search term; prefix_pattern and contains_pattern are the LIKE patterns
-- built by the caller from the escaped, lower-cased term. A result of max_ids ids means "many":
-- the caller then filters in the ordered scan instead, which finds a page of a common term fast.
CREATE FUNCTION product_search_ids(prefix_pattern text, contains_pattern text, max_ids int) RETURNS uuid[]
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, public
AS $$
DECLARE
  ids uuid[];
BEGIN
  EXECUTE format(
    'SELECT array(SELECT id FROM public.products
                  WHERE entity_id = public.current_entity_id()
                    AND (lower(sku) LIKE %L OR lower(name) LIKE %L)
                  LIMIT %s)',
    prefix_pattern, contains_pattern, greatest(max_ids, 0))
  INTO ids;
  RETURN ids;
END $$;

ALTER FUNCTION product_search_ids(text, text, int) OWNER TO app_product_search;
REVOKE ALL ON FUNCTION product_search_ids(text, text, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION product_search_ids(text, text, int) TO app_user;

-- Down Migration

DROP FUNCTION product_search_ids(text, text, int);
DROP POLICY product_search ON products;
REVOKE SELECT (id, entity_id, sku, name) ON products FROM app_product_search;
REVOKE USAGE ON SCHEMA public FROM app_product_search;
