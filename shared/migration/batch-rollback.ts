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

const KEEP_RULES: Record<BatchResourceType, KeepRule[]> = {
  orders: [
    {
      reason: 'order_not_draft',
      by: null,
      sql: `SELECT id AS target, NULL::uuid AS by_id FROM orders WHERE entity_id = $1 AND id = ANY($2) AND order_status <> 'draft'`,
    },
    {
      reason: 'inventory_movements',
      by: 'inventory_transactions',
      sql: 'SELECT reference_id AS target, id AS by_id FROM inventory_transactions WHERE entity_id = $1 AND reference_id = ANY($2)',
    },
    {
      reason: 'ledger_postings',
      by: 'journal_entries',
      sql: 'SELECT source_id AS target, id AS by_id FROM journal_entries WHERE entity_id = $1 AND source_id = ANY($2)',
    },
    { reason: 'payments', by: 'payments', sql: 'SELECT order_id AS target, id AS by_id FROM payments WHERE entity_id = $1 AND order_id = ANY($2)' },
    {
      reason: 'payments',
      by: 'payments',
      sql: 'SELECT order_id AS target, payment_id AS by_id FROM payment_applications WHERE entity_id = $1 AND order_id = ANY($2)',
    },
    // Another document made from this one (converted, duplicated, returned); one of the batch goes with it.
    {
      reason: 'referenced',
      by: 'orders',
      sql: `SELECT t.target, o.id AS by_id FROM orders o, LATERAL (VALUES (o.converted_from_id), (o.duplicated_from_id), (o.source_order_id)) AS t(target)
            WHERE o.entity_id = $1 AND t.target = ANY($2) AND NOT (o.id = ANY($2))`,
    },
    { reason: 'referenced', by: 'vendor_bills', sql: 'SELECT po_id AS target, id AS by_id FROM vendor_bills WHERE entity_id = $1 AND po_id = ANY($2)' },
  ],
  pricing_policies: [],
  products: [
    {
      reason: 'inventory_movements',
      by: 'inventory_transactions',
      sql: 'SELECT product_id AS target, id AS by_id FROM inventory_transactions WHERE entity_id = $1 AND product_id = ANY($2)',
    },
    {
      reason: 'referenced',
      by: 'orders',
      sql: 'SELECT product_id AS target, order_id AS by_id FROM order_lines WHERE entity_id = $1 AND product_id = ANY($2)',
    },
    {
      reason: 'referenced',
      by: 'pricing_policies',
      sql: 'SELECT product_id AS target, id AS by_id FROM pricing_policies WHERE entity_id = $1 AND product_id = ANY($2)',
    },
    // A kit of the batch takes its component rows with it; a kit outside the batch keeps its components.
    {
      reason: 'referenced',
      by: 'kits',
      sql: 'SELECT component_product_id AS target, parent_product_id AS by_id FROM kit_components WHERE entity_id = $1 AND component_product_id = ANY($2) AND NOT (parent_product_id = ANY($2))',
    },
    {
      reason: 'referenced',
      by: 'vendor_bills',
      sql: 'SELECT product_id AS target, bill_id AS by_id FROM vendor_bill_lines WHERE entity_id = $1 AND product_id = ANY($2)',
    },
  ],
  accounts: [
    { reason: 'payments', by: 'payments', sql: 'SELECT account_id AS target, id AS by_id FROM payments WHERE entity_id = $1 AND account_id = ANY($2)' },
    {
      reason: 'referenced',
      by: 'orders',
      sql: 'SELECT customer_account_id AS target, id AS by_id FROM orders WHERE entity_id = $1 AND customer_account_id = ANY($2)',
    },
    {
      reason: 'referenced',
      by: 'pricing_policies',
      sql: 'SELECT account_id AS target, id AS by_id FROM pricing_policies WHERE entity_id = $1 AND account_id = ANY($2)',
    },
  ],
  vendors: [
    { reason: 'referenced', by: 'orders', sql: 'SELECT vendor_id AS target, id AS by_id FROM orders WHERE entity_id = $1 AND vendor_id = ANY($2)' },
    {
      reason: 'referenced',
      by: 'orders',
      sql: 'SELECT drop_ship_vendor_id AS target, order_id AS by_id FROM order_lines WHERE entity_id = $1 AND drop_ship_vendor_id = ANY($2)',
    },
    { reason: 'referenced', by: 'vendor_bills', sql: 'SELECT vendor_id AS target, id AS by_id FROM vendor_bills WHERE entity_id = $1 AND vendor_id = ANY($2)' },
    {
      reason: 'referenced',
      by: 'products',
      sql: 'SELECT vendor_id AS target, product_id AS by_id FROM product_vendors WHERE entity_id = $1 AND vendor_id = ANY($2)',
    },
  ],
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
  await db.query('DELETE FROM tag_assignments WHERE entity_id = $1 AND resource_id = ANY($2)', [entityId, ids]);
  await db.query(`DELETE FROM ${type} WHERE entity_id = $1 AND id = ANY($2)`, [entityId, ids]);
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
    const ids = (
      await db.query<{ id: string }>(`SELECT id FROM ${type} WHERE entity_id = $1 AND migration_batch_id = $2 ORDER BY created_at, id FOR UPDATE`, [
        entityId,
        batchId,
      ])
    ).map((row) => row.id);
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
