/**
 * Relinks migrated inventory transactions to the orders they belong to: one query for which sources
 * are live orders (orders' liveOrderIds), then one set-based statement of inventory's for all items
 * (relinkMigratedTransactions), whatever their number.
 */
import type { Db } from '../db/database';
import { ERROR_CATALOG, errorKey } from '../errors';
import { relinkMigratedTransactions, type RelinkRow } from '../inventory/import-batch';
import { liveOrderIds } from '../orders/import-batch';
import { id } from '../schemas/common';
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

const uuid = id();

export async function relinkSources(db: Db, entityId: string, request: RelinkRequest): Promise<RelinkResult> {
  // A source_id that is not a uuid can name no order: its item is rejected like an unknown order.
  const items = request.items.map((item) => {
    const parsed = uuid.safeParse(item.source_id);
    return { external_id: item.external_id, source_id: parsed.success ? parsed.data : item.source_id, isUuid: parsed.success };
  });
  const live = await liveOrderIds(
    db,
    entityId,
    items.filter((item) => item.isUuid).map((item) => item.source_id),
  );
  const rows = await relinkMigratedTransactions(
    db,
    entityId,
    items.map((item) => ({ external_id: item.external_id, source_id: item.source_id, source_ok: item.isUuid && live.has(item.source_id) })),
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
