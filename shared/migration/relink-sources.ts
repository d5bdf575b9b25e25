/**
 * Relinks migrated inventory transactions to the orders they belong to: one query for which sources
 * are live orders (orders' liveOrderIds), then one set-based statement of inventory's for all items
 * (relinkMigratedTransactions), whatever their number.
 */
import type { Db } from '../db/database';
import { ERROR_CATALOG, errorKey } from '../errors';
import { relinkMigratedTransactions, type RelinkRow } from '../inventory/import-batch';
import { liveOrderIds } from '../orders/import-batch';
import type { RelinkItemResult, RelinkRequest, RelinkResult } from './schemas/relink';

function toResult(row: RelinkRow): RelinkItemResult {
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
  const live = await liveOrderIds(
    db,
    entityId,
    request.items.map((item) => item.source_id),
  );
  const rows = await relinkMigratedTransactions(
    db,
    entityId,
    request.items.map((item) => ({ ...item, source_ok: live.has(item.source_id.toLowerCase()) })),
  );
  const counts = { relinked: 0, already_linked: 0, not_found: 0, failed: 0 };
  for (const row of rows) {
    if (row.code === 'relink_transaction_not_found') counts.not_found++;
    else if (row.code) counts.failed++;
    else if (row.relinked) counts.relinked++;
    else counts.already_linked++;
  }
  return { object: 'migration_itx_source_relink_result', total: rows.length, ...counts, results: rows.map(toResult) };
}
