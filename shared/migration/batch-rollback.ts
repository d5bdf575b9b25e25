/**
 * Rolling an import batch back: its records that nothing else references yet are deleted, the
 * others are kept and reported with a reason, so a bad import can be undone before cutover.
 *
 * Resource types go in dependency order (orders, then pricing policies, then products, accounts
 * and vendors), so a product that only the batch's own orders used is free by the time products
 * are removed. Per type, the reasons to keep a record are found with one set-based statement; the
 * rest are deleted with one statement inside a savepoint. A reference no rule foresaw makes that
 * statement fail on a foreign key: the savepoint is rolled back and the records are deleted one
 * by one (each in its own savepoint), the ones still referenced being kept with reason
 * `referenced` and the referencing table. The ledger and stock never move: an order that left
 * draft, or has stock movements, journal entries or payments, and a product with stock movements,
 * are kept.
 */
import type { Db } from '../db/database';
import { isForeignKeyViolation } from '../db/database';
import { ApiError } from '../errors';
import { getMigrationBatch, zeroCounts, type BatchCounts } from './batches';
import type { BatchResourceType, MigrationBatch, MigrationBatchRollback, RollbackReason } from './schemas/batch';
import { BATCH_RESOURCE_TYPES } from './schemas/batch';
import { CATALOG_REFERENCES, deleteImportedCatalogRecords, deleteTagAssignmentsOf, lockCatalogRecordsOfImportBatch } from '../catalog/import-batch';
import { INVENTORY_REFERENCES } from '../inventory/import-batch';
import { LEDGER_REFERENCES } from '../ledger/import-batch';
import { deleteImportedOrders, lockOrdersOfImportBatch, ORDER_REFERENCES } from '../orders/import-batch';
import { deleteImportedParties, lockPartiesOfImportBatch } from '../parties/parties';
import { PAYABLES_REFERENCES } from '../payables/import-batch';
import { PAYMENT_REFERENCES } from '../payments/import-batch';

type Kept = MigrationBatchRollback['kept'][number];

/**
 * Why a record of a type must stay: each source yields (target, by_id) pairs for the targets in
 * $2 (the batch's ids of that type); the first source that names a target gives its reason.
 */
interface KeepRule {
  reason: RollbackReason;
  /** The referencing resource reported in referenced_by (null: the reason says it all). */
  by: string | null;
  /** SELECT target, by_id ... WHERE entity_id = $1 AND <column> = ANY($2) */
  sql: string;
}

// Each owner names the references to its records: the rules only put them in order.
const KEEP_RULES: Record<BatchResourceType, KeepRule[]> = {
  orders: [
    { reason: 'order_not_draft', by: null, sql: ORDER_REFERENCES.notDraft },
    { reason: 'inventory_movements', by: 'inventory_transactions', sql: INVENTORY_REFERENCES.movementsOfOrders },
    { reason: 'ledger_postings', by: 'journal_entries', sql: LEDGER_REFERENCES.entriesOfSources },
    { reason: 'payments', by: 'payments', sql: PAYMENT_REFERENCES.paymentsOfOrders },
    { reason: 'payments', by: 'payments', sql: PAYMENT_REFERENCES.applicationsToOrders },
    { reason: 'referenced', by: 'orders', sql: ORDER_REFERENCES.madeFrom },
    { reason: 'referenced', by: 'vendor_bills', sql: PAYABLES_REFERENCES.billsOfPurchaseOrders },
  ],
  pricing_policies: [],
  products: [
    { reason: 'inventory_movements', by: 'inventory_transactions', sql: INVENTORY_REFERENCES.movementsOfProducts },
    { reason: 'referenced', by: 'orders', sql: ORDER_REFERENCES.linesOfProducts },
    { reason: 'referenced', by: 'pricing_policies', sql: CATALOG_REFERENCES.policiesOfProducts },
    { reason: 'referenced', by: 'kits', sql: CATALOG_REFERENCES.kitsOfComponents },
    { reason: 'referenced', by: 'vendor_bills', sql: PAYABLES_REFERENCES.billLinesOfProducts },
  ],
  accounts: [
    { reason: 'payments', by: 'payments', sql: PAYMENT_REFERENCES.paymentsOfAccounts },
    { reason: 'referenced', by: 'orders', sql: ORDER_REFERENCES.ofAccounts },
    { reason: 'referenced', by: 'pricing_policies', sql: CATALOG_REFERENCES.policiesOfAccounts },
  ],
  vendors: [
    { reason: 'referenced', by: 'orders', sql: ORDER_REFERENCES.ofVendors },
    { reason: 'referenced', by: 'orders', sql: ORDER_REFERENCES.dropShippedByVendors },
    { reason: 'referenced', by: 'vendor_bills', sql: PAYABLES_REFERENCES.billsOfVendors },
    { reason: 'referenced', by: 'products', sql: CATALOG_REFERENCES.productsOfVendors },
  ],
};

/** How each type's records of a batch are found (locked) and deleted, by the capability that owns them. */
const OWNERS: Record<
  BatchResourceType,
  { lock: (db: Db, entityId: string, batchId: string) => Promise<string[]>; remove: (db: Db, entityId: string, ids: string[]) => Promise<void> }
> = {
  orders: { lock: lockOrdersOfImportBatch, remove: deleteImportedOrders },
  pricing_policies: {
    lock: (db, entityId, batchId) => lockCatalogRecordsOfImportBatch(db, entityId, 'pricing_policies', batchId),
    remove: (db, entityId, ids) => deleteImportedCatalogRecords(db, entityId, 'pricing_policies', ids),
  },
  products: {
    lock: (db, entityId, batchId) => lockCatalogRecordsOfImportBatch(db, entityId, 'products', batchId),
    remove: (db, entityId, ids) => deleteImportedCatalogRecords(db, entityId, 'products', ids),
  },
  accounts: {
    lock: (db, entityId, batchId) => lockPartiesOfImportBatch(db, 'account', entityId, batchId),
    remove: (db, entityId, ids) => deleteImportedParties(db, 'account', entityId, ids),
  },
  vendors: {
    lock: (db, entityId, batchId) => lockPartiesOfImportBatch(db, 'vendor', entityId, batchId),
    remove: (db, entityId, ids) => deleteImportedParties(db, 'vendor', entityId, ids),
  },
};

/** The first reason (in rule order) to keep each record of `ids`; one statement for all rules. */
async function keepReasons(db: Db, entityId: string, type: BatchResourceType, ids: string[]): Promise<Map<string, Kept>> {
  const rules = KEEP_RULES[type];
  const kept = new Map<string, Kept>();
  if (rules.length === 0 || ids.length === 0) return kept;
  const union = rules.map((rule, index) => `SELECT ${index} AS rule, r.target, r.by_id FROM (${rule.sql}) r`).join(' UNION ALL ');
  const rows = await db.query<{ rule: number; target: string; by_id: string | null }>(
    `SELECT DISTINCT ON (target) rule, target, by_id FROM (${union}) refs ORDER BY target, rule`,
    [entityId, ids],
  );
  for (const row of rows) {
    const rule = rules[row.rule];
    kept.set(row.target, {
      id: row.target,
      resource_type: type,
      reason: rule.reason,
      referenced_by: rule.by ? { resource_type: rule.by, id: row.by_id } : null,
    });
  }
  return kept;
}

/** Deletes the records and their tag assignments (polymorphic rows no foreign key covers). */
async function deleteRecords(db: Db, entityId: string, type: BatchResourceType, ids: string[]): Promise<void> {
  await deleteTagAssignmentsOf(db, entityId, ids);
  await OWNERS[type].remove(db, entityId, ids);
}

/** The table a foreign-key violation names as still referencing the deleted row. */
const referencingTable = (error: unknown) => (error as { table?: string }).table ?? 'unknown';

/**
 * Removes `ids` in one statement; if something references one of them, removes them one by one
 * instead (repeating while a pass frees more, since records of the batch may reference each
 * other) and returns the ones kept.
 */
async function removeSet(db: Db, entityId: string, type: BatchResourceType, ids: string[]): Promise<{ removed: number; kept: Kept[] }> {
  if (ids.length === 0) return { removed: 0, kept: [] };
  await db.query('SAVEPOINT migration_rollback_set');
  try {
    await deleteRecords(db, entityId, type, ids);
    await db.query('RELEASE SAVEPOINT migration_rollback_set');
    return { removed: ids.length, kept: [] };
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    await db.query('ROLLBACK TO SAVEPOINT migration_rollback_set');
    await db.query('RELEASE SAVEPOINT migration_rollback_set');
  }
  let pending = ids;
  let removed = 0;
  const failures = new Map<string, string>();
  for (;;) {
    const next: string[] = [];
    for (const id of pending) {
      await db.query('SAVEPOINT migration_rollback_record');
      try {
        await deleteRecords(db, entityId, type, [id]);
        await db.query('RELEASE SAVEPOINT migration_rollback_record');
        removed++;
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        await db.query('ROLLBACK TO SAVEPOINT migration_rollback_record');
        await db.query('RELEASE SAVEPOINT migration_rollback_record');
        failures.set(id, referencingTable(error));
        next.push(id);
      }
    }
    if (next.length === 0 || next.length === pending.length) {
      pending = next;
      break;
    }
    pending = next;
  }
  return {
    removed,
    kept: pending.map((id) => ({
      id,
      resource_type: type,
      reason: 'referenced' as const,
      referenced_by: { resource_type: failures.get(id) ?? 'unknown', id: null },
    })),
  };
}

/**
 * Rolls the batch back (any status): removes what can go, keeps and reports the rest, marks the
 * batch rolled_back (it takes no more records) and adds what was removed to its removed_counts.
 * Idempotent: a second rollback removes only what has been freed since, and reports the same kept
 * records otherwise.
 */
export async function rollbackMigrationBatch(
  db: Db,
  entityId: string,
  batchId: string,
): Promise<{ batch: MigrationBatch; removed_counts: BatchCounts; kept: Kept[] }> {
  const found = await db.maybeOne('SELECT 1 FROM migration_batches WHERE entity_id = $1 AND id = $2 FOR UPDATE', [entityId, batchId]);
  if (!found) throw new ApiError('not_found', { param: 'id', hint: 'No such migration batch in this entity.' });
  const removedCounts = zeroCounts();
  const kept: Kept[] = [];
  for (const type of BATCH_RESOURCE_TYPES) {
    const ids = await OWNERS[type].lock(db, entityId, batchId);
    const reasons = await keepReasons(db, entityId, type, ids);
    const result = await removeSet(
      db,
      entityId,
      type,
      ids.filter((id) => !reasons.has(id)),
    );
    removedCounts[type] = result.removed;
    kept.push(...reasons.values(), ...result.kept);
  }
  await db.query(
    `UPDATE migration_batches SET status = 'rolled_back', rolled_back_at = now(), updated_at = now(),
       removed_counts = (SELECT jsonb_object_agg(key, coalesce((removed_counts ->> key)::int, 0) + (($3::jsonb) ->> key)::int) FROM jsonb_object_keys($3::jsonb) AS key)
     WHERE entity_id = $1 AND id = $2`,
    [entityId, batchId, JSON.stringify(removedCounts)],
  );
  return { batch: await getMigrationBatch(db, entityId, batchId), removed_counts: removedCounts, kept };
}
