/**
 * The catalog's part in rolling back an import batch (shared/migration/batch-rollback.ts): the
 * batch's products and pricing policies, their removal with their tag assignments, and the catalog
 * references that keep a record. A reference query selects (target, by_id) for the entity $1 and
 * the target ids $2.
 */
import type { Db } from '../db/database';

export const CATALOG_REFERENCES = {
  /** Pricing policies of the product. */
  policiesOfProducts: 'SELECT product_id AS target, id AS by_id FROM pricing_policies WHERE entity_id = $1 AND product_id = ANY($2)',
  /** A kit outside the batch keeps its components (a kit of the batch takes its component rows with it). */
  kitsOfComponents:
    'SELECT component_product_id AS target, parent_product_id AS by_id FROM kit_components WHERE entity_id = $1 AND component_product_id = ANY($2) AND NOT (parent_product_id = ANY($2))',
  /** Pricing policies of the customer account. */
  policiesOfAccounts: 'SELECT account_id AS target, id AS by_id FROM pricing_policies WHERE entity_id = $1 AND account_id = ANY($2)',
  /** Product vendor links of the vendor. */
  productsOfVendors: 'SELECT vendor_id AS target, product_id AS by_id FROM product_vendors WHERE entity_id = $1 AND vendor_id = ANY($2)',
} as const;

export type ImportedCatalogTable = 'products' | 'pricing_policies';

/** The number of records of a catalog table an import batch holds, for each batch id `b.id` of the outer query (entity $1). */
export const importedCatalogCount = (table: ImportedCatalogTable) =>
  `SELECT count(*)::int FROM ${table} t WHERE t.entity_id = $1 AND t.migration_batch_id = b.id`;

/** The batch's records of a catalog table, locked, oldest first. */
export async function lockCatalogRecordsOfImportBatch(db: Db, entityId: string, table: ImportedCatalogTable, batchId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM ${table} WHERE entity_id = $1 AND migration_batch_id = $2 ORDER BY created_at, id FOR UPDATE`, [
    entityId,
    batchId,
  ]);
  return rows.map((row) => row.id);
}

/** Deletes imported records of a catalog table; a foreign key still pointing at one fails the statement. */
export async function deleteImportedCatalogRecords(db: Db, entityId: string, table: ImportedCatalogTable, ids: string[]): Promise<void> {
  await db.query(`DELETE FROM ${table} WHERE entity_id = $1 AND id = ANY($2)`, [entityId, ids]);
}

/** Deletes the tag assignments of these resources (polymorphic rows no foreign key covers). */
export async function deleteTagAssignmentsOf(db: Db, entityId: string, resourceIds: string[]): Promise<void> {
  await db.query('DELETE FROM tag_assignments WHERE entity_id = $1 AND resource_id = ANY($2)', [entityId, resourceIds]);
}
