/**
 * Inventory's part in the migration tools: the stock movements that keep an imported order or
 * product when an import batch is rolled back (shared/migration/batch-rollback.ts; a reference query
 * selects (target, by_id) for the entity $1 and the target ids $2), and relinking migrated
 * transactions to their orders (shared/migration/relink-sources.ts).
 */
import type { Db } from '../db/database';

export const INVENTORY_REFERENCES = {
  /** Stock movements of the order. */
  movementsOfOrders: 'SELECT reference_id AS target, id AS by_id FROM inventory_transactions WHERE entity_id = $1 AND reference_id = ANY($2)',
  /** Stock movements of the product. */
  movementsOfProducts: 'SELECT product_id AS target, id AS by_id FROM inventory_transactions WHERE entity_id = $1 AND product_id = ANY($2)',
} as const;

export interface RelinkRow {
  external_id: string;
  source_id: string;
  transaction_id: string | null;
  relinked: boolean;
  code: 'relink_duplicate_external_id' | 'relink_source_not_found' | 'relink_transaction_not_found' | null;
}

/**
 * One set-based statement for all items, in their order: each item's migrated transaction (matched
 * by reference_type `source_migration` and its source-system id, transaction_id) gets the item's
 * source as reference_id. Only reference_id is written: the application role may UPDATE no other
 * column of inventory_transactions, so quantities, costs, balances and cost layers cannot move.
 * An external id named twice, or a source the caller found unusable (source_ok false: not a uuid,
 * or no order of the entity), links nothing; a source is cast to uuid only once found usable.
 */
export function relinkMigratedTransactions(
  db: Db,
  entityId: string,
  items: readonly { external_id: string; source_id: string; source_ok: boolean }[],
): Promise<RelinkRow[]> {
  return db.query<RelinkRow>(
    `WITH input AS (
  SELECT i.ord, i.external_id, i.source_id, i.source_ok
    FROM unnest($2::text[], $3::text[], $4::boolean[]) WITH ORDINALITY AS i(external_id, source_id, source_ok, ord)
),
checked AS (
  SELECT input.*, count(*) OVER (PARTITION BY input.external_id) AS occurrences
    FROM input
),
matched AS (
  SELECT c.ord, c.source_id::uuid AS source_id, t.id AS transaction_id
    FROM checked c
    JOIN inventory_transactions t
      ON t.entity_id = $1 AND t.reference_type = 'source_migration' AND t.transaction_id = c.external_id
   WHERE c.occurrences = 1 AND c.source_ok
),
updated AS (
  UPDATE inventory_transactions t
     SET reference_id = m.source_id
    FROM matched m
   WHERE t.entity_id = $1 AND t.id = m.transaction_id AND t.reference_id IS DISTINCT FROM m.source_id
  RETURNING t.id
)
SELECT c.external_id, c.source_id, m.transaction_id,
       (u.id IS NOT NULL) AS relinked,
       CASE WHEN c.occurrences > 1 THEN 'relink_duplicate_external_id'
            WHEN NOT c.source_ok THEN 'relink_source_not_found'
            WHEN m.transaction_id IS NULL THEN 'relink_transaction_not_found'
       END AS code
  FROM checked c
  LEFT JOIN matched m ON m.ord = c.ord
  LEFT JOIN updated u ON u.id = m.transaction_id
 ORDER BY c.ord, m.transaction_id`,
    [entityId, items.map((item) => item.external_id), items.map((item) => item.source_id), items.map((item) => item.source_ok)],
  );
}
