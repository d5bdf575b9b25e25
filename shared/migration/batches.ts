/**
 * SQL for import batches: opening, reading (with live counts per resource type), listing and
 * completing a batch, and the check a create request that names a batch goes through.
 *
 * The counts are not stored: each is a count of the rows that carry the batch id now, through the
 * partial (entity_id, migration_batch_id) index of each table, for a page of batches at once.
 */
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { BATCH_RESOURCE_TYPES, type BatchResourceType, type MigrationBatch, type MigrationBatchCreate } from './schemas/batch';
import { importedCatalogCount } from '../catalog/import-batch';
import { IMPORTED_ORDERS_COUNT } from '../orders/import-batch';
import { importedPartiesCount } from '../parties/parties';

/** How many records of each type a batch `b.id` holds, as each owner counts them. */
const COUNTS: Record<BatchResourceType, string> = {
  orders: IMPORTED_ORDERS_COUNT,
  pricing_policies: importedCatalogCount('pricing_policies'),
  products: importedCatalogCount('products'),
  accounts: importedPartiesCount('account'),
  vendors: importedPartiesCount('vendor'),
};

const BATCH_COLUMNS = `b.id, 'migration_batch' AS object, b.entity_id, b.external_source, b.description, b.status, b.removed_counts, b.metadata,
  b.completed_at, b.rolled_back_at, b.created_at, b.updated_at`;

type BatchRow = Omit<MigrationBatch, 'counts' | 'removed_counts'> & { removed_counts: Partial<Record<BatchResourceType, number>> };
export type BatchCounts = Record<BatchResourceType, number>;

export const zeroCounts = (): BatchCounts => Object.fromEntries(BATCH_RESOURCE_TYPES.map((type) => [type, 0])) as BatchCounts;

/** Rows of each resource type that carry the batch ids, one statement for the whole page. */
async function liveCounts(db: Db, entityId: string, batchIds: string[]): Promise<Map<string, BatchCounts>> {
  if (batchIds.length === 0) return new Map();
  const counts = BATCH_RESOURCE_TYPES.map((type) => `(${COUNTS[type]}) AS ${type}`);
  const rows = await db.query<{ id: string } & BatchCounts>(`SELECT b.id, ${counts.join(', ')} FROM unnest($2::uuid[]) AS b(id)`, [entityId, batchIds]);
  return new Map(rows.map(({ id, ...rest }) => [id, rest]));
}

async function withCounts(db: Db, entityId: string, rows: BatchRow[]): Promise<MigrationBatch[]> {
  const counts = await liveCounts(
    db,
    entityId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, counts: counts.get(row.id) ?? zeroCounts(), removed_counts: { ...zeroCounts(), ...row.removed_counts } }));
}

export async function createMigrationBatch(db: Db, entityId: string, input: MigrationBatchCreate): Promise<MigrationBatch> {
  const row = await db.one<BatchRow>(
    `INSERT INTO migration_batches AS b (id, entity_id, external_source, description, metadata) VALUES ($1, $2, $3, $4, $5) RETURNING ${BATCH_COLUMNS}`,
    [newId(), entityId, input.external_source, input.description ?? null, input.metadata ?? {}],
  );
  return { ...row, counts: zeroCounts(), removed_counts: zeroCounts() };
}

async function batchRow(db: Db, entityId: string, batchId: string, lock: boolean): Promise<BatchRow> {
  const row = await db.maybeOne<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM migration_batches b WHERE b.entity_id = $1 AND b.id = $2 ${lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    batchId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such migration batch in this entity.' });
  return row;
}

export async function getMigrationBatch(db: Db, entityId: string, batchId: string, options: { lock?: boolean } = {}): Promise<MigrationBatch> {
  return (await withCounts(db, entityId, [await batchRow(db, entityId, batchId, options.lock ?? false)]))[0];
}

export async function listMigrationBatches(
  db: Db,
  entityId: string,
  filters: { status?: MigrationBatch['status'] },
  page: PageRequest,
): Promise<Page<MigrationBatch>> {
  const where = ['b.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.status !== undefined) {
    params.push(filters.status);
    where.push(`b.status = $${params.length}`);
  }
  const result = await keysetPage<BatchRow>(db, { table: 'migration_batches', alias: 'b', select: BATCH_COLUMNS, where, params }, page);
  return { ...result, data: await withCounts(db, entityId, result.data) };
}

/** open → completed: the batch takes no more records. Completing a completed batch changes nothing. */
export async function completeMigrationBatch(db: Db, entityId: string, batchId: string): Promise<{ batch: MigrationBatch; changed: boolean }> {
  const before = await batchRow(db, entityId, batchId, true);
  if (before.status === 'rolled_back') throw new ApiError('migration_batch_closed', { param: 'id', details: { current_status: before.status } });
  if (before.status === 'completed') return { batch: await getMigrationBatch(db, entityId, batchId), changed: false };
  await db.query(`UPDATE migration_batches SET status = 'completed', completed_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2`, [
    entityId,
    batchId,
  ]);
  return { batch: await getMigrationBatch(db, entityId, batchId), changed: true };
}

/**
 * A create request as a record of an import batch is written: when it names `migration_batch_id`,
 * the batch must be one of this entity and mode (else 404 on migration_batch_id) and open (else
 * 409 migration_batch_closed); the record then gets imported_at (the transaction's time, its
 * created_at, unless the request gives one) and the batch's external_source where the request
 * names no source (`sourceField`: source_platform on orders). The batch row is share-locked, so a
 * concurrent complete or rollback waits for this request. Without a batch the input is unchanged.
 */
export async function asBatchRecord<T extends { migration_batch_id?: string; imported_at?: string }>(
  db: Db,
  entityId: string,
  input: T,
  sourceField: 'external_source' | 'source_platform' = 'external_source',
): Promise<T & { imported_at?: string }> {
  if (input.migration_batch_id === undefined) return input;
  const batch = await db.maybeOne<{ status: MigrationBatch['status']; external_source: string; now: Date }>(
    'SELECT status, external_source, now() AS now FROM migration_batches WHERE entity_id = $1 AND id = $2 FOR SHARE',
    [entityId, input.migration_batch_id],
  );
  if (!batch) throw new ApiError('not_found', { param: 'migration_batch_id', hint: 'No such migration batch in this entity.' });
  if (batch.status !== 'open') throw new ApiError('migration_batch_closed', { param: 'migration_batch_id', details: { current_status: batch.status } });
  const source = (input as Record<string, unknown>)[sourceField];
  return { ...input, imported_at: input.imported_at ?? batch.now.toISOString(), ...(source === undefined ? { [sourceField]: batch.external_source } : {}) };
}
