/**
 * Relinks migrated inventory transactions to the orders they belong to: one set-based statement
 * per request, whatever the number of items (the arrays travel as two parameters and are unnested).
 *
 * Only rows with reference_type `source_migration` are matched, by their source-system id
 * (transaction_id). Only reference_id is written: the application role may UPDATE no other column
 * of inventory_transactions, so quantities, costs, balances and cost layers cannot move.
 */
import type { Db } from '../db/database';
import { ERROR_CATALOG, errorKey, type ErrorCode } from '../errors';
import type { RelinkItemResult, RelinkRequest, RelinkResult } from './schemas/relink';

type ItemCode = Extract<ErrorCode, 'relink_duplicate_external_id' | 'relink_source_not_found' | 'relink_transaction_not_found'>;

interface ResultRow {
  external_id: string;
  source_id: string;
  transaction_id: string | null;
  relinked: boolean;
  code: ItemCode | null;
}

const RELINK_STATEMENT = `
WITH input AS (
  SELECT i.ord, i.external_id, i.source_id
    FROM unnest($2::text[], $3::uuid[]) WITH ORDINALITY AS i(external_id, source_id, ord)
),
checked AS (
  SELECT input.*,
         count(*) OVER (PARTITION BY input.external_id) AS occurrences,
         EXISTS (SELECT 1 FROM orders o WHERE o.entity_id = $1 AND o.id = input.source_id AND o.deleted_at IS NULL) AS source_ok
    FROM input
),
matched AS (
  SELECT c.ord, c.source_id, t.id AS transaction_id
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
 ORDER BY c.ord, m.transaction_id`;

function toResult(row: ResultRow): RelinkItemResult {
  const refusal = row.code ? { error: errorKey(row.code), hint: ERROR_CATALOG[row.code].hint } : undefined;
  return {
    external_id: row.external_id,
    inventory_transaction_id: row.transaction_id,
    source_id: row.source_id,
    relinked: row.relinked,
    error: refusal?.error ?? null,
    code: row.code,
    hint: refusal?.hint ?? null,
  };
}

export async function relinkSources(db: Db, entityId: string, request: RelinkRequest): Promise<RelinkResult> {
  const rows = await db.query<ResultRow>(RELINK_STATEMENT, [
    entityId,
    request.items.map((item) => item.external_id),
    request.items.map((item) => item.source_id),
  ]);
  const counts = { relinked: 0, already_linked: 0, not_found: 0, failed: 0 };
  for (const row of rows) {
    if (row.code === 'relink_transaction_not_found') counts.not_found++;
    else if (row.code) counts.failed++;
    else if (row.relinked) counts.relinked++;
    else counts.already_linked++;
  }
  return { object: 'migration_itx_source_relink_result', total: rows.length, ...counts, results: rows.map(toResult) };
}
