/** SQL for products (kit headers included; their components live in kits.ts). */
import type { Db } from '../db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../db/database';
import { likeEscape, updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { PRICE_SCALE, QUANTITY_SCALE, toJsonNumber, ZERO, type Amount, type AmountLike, toNullableJsonNumber } from '../money';
import { type Product, type ProductCreate, type ProductUpdate } from './schemas/product';
import { syncDemandReorderPoint } from './demand-reorder-point';

export const PRODUCT_COLUMNS = `p.id, 'product' AS object, p.entity_id, p.sku, p.name, p.description, p.product_type, p.manufacturer_id, p.uom_id,
  p.list_price, p.cost, p.reorder_point, p.reorder_point_mode, p.is_active, p.metadata, p.external_source, p.external_id, p.migration_batch_id, p.imported_at, p.created_at, p.updated_at`;
const EDITABLE = [
  'sku',
  'name',
  'description',
  'product_type',
  'manufacturer_id',
  'uom_id',
  'list_price',
  'cost',
  'reorder_point',
  'reorder_point_mode',
  'is_active',
  'metadata',
  'external_source',
  'external_id',
] as const;

export type ProductRow = Omit<Product, 'list_price' | 'cost' | 'reorder_point' | 'demand_avg_per_day'> & {
  list_price: string | null;
  cost: string | null;
  reorder_point: string | null;
};

/** A nullable decimal column as a JSON number (null stays null). */

/**
 * Product id → demand_avg_per_day for a page of products, in one query. Demand is derived from stock
 * movements, which inventory owns: the route (or inventory itself) passes inventory's productDemand.
 */
export type ProductDemandReader = (db: Db, entityId: string, productIds: readonly string[]) => Promise<Map<string, Amount>>;

/** The product object; demand_avg_per_day comes from the demand reader (withDemand loads it for a page). */
function toProduct(row: ProductRow, demandAvgPerDay: AmountLike): Product {
  const { created_at, updated_at, ...rest } = row;
  return {
    ...rest,
    list_price: toNullableJsonNumber(row.list_price, PRICE_SCALE),
    cost: toNullableJsonNumber(row.cost, PRICE_SCALE),
    reorder_point: toNullableJsonNumber(row.reorder_point, QUANTITY_SCALE),
    demand_avg_per_day: toJsonNumber(demandAvgPerDay, QUANTITY_SCALE),
    created_at,
    updated_at,
  };
}

/** Product objects of a page of rows, with their demand loaded in one query (never one per row). */
export async function withDemand(db: Db, entityId: string, rows: ProductRow[], readDemand: ProductDemandReader): Promise<Product[]> {
  const demand = await readDemand(
    db,
    entityId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toProduct(row, demand.get(row.id) ?? ZERO));
}

function productWriteError(error: unknown): never {
  if (isUniqueViolation(error, 'products_sku_unique')) throw new ApiError('product_sku_taken', { param: 'sku' });
  if (isUniqueViolation(error, 'products_external_unique')) throw new ApiError('external_id_taken', { param: 'external_id' });
  throw error;
}

export async function getProduct(
  db: Db,
  entityId: string,
  productId: string,
  readDemand: ProductDemandReader,
  options: { lock?: boolean; param?: string } = {},
): Promise<Product> {
  const row = await db.maybeOne<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.entity_id = $1 AND p.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, productId],
  );
  if (!row) throw new ApiError('not_found', { param: options.param ?? 'id', hint: 'No such product in this entity.' });
  return (await withDemand(db, entityId, [row], readDemand))[0];
}

/** That the product exists in the entity (locked with `lock`), without loading its object or demand. */
export async function requireProduct(db: Db, entityId: string, productId: string, options: { lock?: boolean; param?: string } = {}): Promise<void> {
  const found = await db.maybeOne(`SELECT 1 FROM products WHERE entity_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [entityId, productId]);
  if (!found) throw new ApiError('not_found', { param: options.param ?? 'id', hint: 'No such product in this entity.' });
}

/** A referenced manufacturer or unit must exist in the entity: another entity's id is a 404 on that field. */
async function checkProductReferences(db: Db, entityId: string, input: { manufacturer_id?: string | null; uom_id?: string | null }): Promise<void> {
  if (input.manufacturer_id) {
    const found = await db.maybeOne('SELECT 1 FROM manufacturers WHERE entity_id = $1 AND id = $2', [entityId, input.manufacturer_id]);
    if (!found) throw new ApiError('not_found', { param: 'manufacturer_id', hint: 'No such manufacturer in this entity.' });
  }
  if (input.uom_id) {
    const found = await db.maybeOne('SELECT 1 FROM units_of_measure WHERE entity_id = $1 AND id = $2', [entityId, input.uom_id]);
    if (!found) throw new ApiError('not_found', { param: 'uom_id', hint: 'No such unit of measure in this entity.' });
  }
}

/**
 * A create whose (external_source, external_id) is already in the entity is a 409 naming the
 * existing product (existing_id), so an import re-run can skip it. Checked before the insert: a
 * unique violation would abort the transaction before the existing id could be read.
 */
async function refuseTakenExternalId(db: Db, entityId: string, input: { external_source?: string | null; external_id?: string | null }): Promise<void> {
  if (input.external_id == null) return;
  const existing = await db.maybeOne<{ id: string }>(
    `SELECT id FROM products WHERE entity_id = $1 AND coalesce(external_source, '') = coalesce($2, '') AND external_id = $3`,
    [entityId, input.external_source ?? null, input.external_id],
  );
  if (existing) throw new ApiError('external_id_taken', { param: 'external_id', details: { existing_id: existing.id } });
}

/**
 * reorder_point_mode demand: the server keeps reorder_point (demand × lead time), so a request
 * that also sets it is refused rather than silently overwritten.
 */
function refuseReorderPointOnDemand(mode: string | undefined, reorderPoint: unknown): void {
  if (mode === 'demand' && reorderPoint !== undefined) {
    throw new ApiError('reorder_point_follows_demand', {
      param: 'reorder_point',
      hint: "This product's reorder_point_mode is demand: its reorder point follows demand_avg_per_day × the preferred vendor's lead_time_days. Set reorder_point_mode manual to set it yourself.",
    });
  }
}

export async function insertProduct(
  db: Db,
  entityId: string,
  input: Omit<ProductCreate, 'product_type'> & { product_type: Product['product_type']; imported_at?: string },
): Promise<Product> {
  refuseReorderPointOnDemand(input.reorder_point_mode, input.reorder_point);
  await checkProductReferences(db, entityId, input);
  await refuseTakenExternalId(db, entityId, input);
  try {
    return toProduct(
      await db.one<ProductRow>(
        `INSERT INTO products AS p (id, entity_id, sku, name, description, product_type, manufacturer_id, uom_id, list_price, cost, reorder_point,
           is_active, metadata, external_source, external_id, migration_batch_id, imported_at, reorder_point_mode)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING ${PRODUCT_COLUMNS}`,
        [
          newId(),
          entityId,
          input.sku,
          input.name,
          input.description ?? null,
          input.product_type,
          input.manufacturer_id ?? null,
          input.uom_id ?? null,
          input.list_price ?? null,
          input.cost ?? null,
          // A new product has no demand yet: a demand-mode one starts at 0.
          input.reorder_point_mode === 'demand' ? '0' : (input.reorder_point ?? null),
          input.is_active ?? true,
          input.metadata ?? {},
          input.external_source ?? null,
          input.external_id ?? null,
          input.migration_batch_id ?? null,
          input.imported_at ?? null,
          input.reorder_point_mode ?? 'manual',
        ],
      ),
      // A new product has no stock history yet.
      ZERO,
    );
  } catch (error) {
    productWriteError(error);
  }
}

export function createProduct(db: Db, entityId: string, input: ProductCreate & { imported_at?: string }): Promise<Product> {
  return insertProduct(db, entityId, { ...input, product_type: input.product_type ?? 'simple' });
}

export async function updateProduct(
  db: Db,
  entityId: string,
  productId: string,
  patch: ProductUpdate,
  readDemand: ProductDemandReader,
): Promise<{ product: Product; previous: Partial<Product> }> {
  const before = await getProduct(db, entityId, productId, readDemand, { lock: true });
  if (patch.product_type !== undefined && before.product_type === 'kit') {
    throw new ApiError('parameter_invalid', { param: 'product_type', hint: 'A kit stays a kit: its components and builds depend on it.' });
  }
  if (patch.product_type !== undefined && patch.product_type !== 'bundle' && before.product_type === 'bundle') {
    const components = await db.maybeOne('SELECT 1 FROM kit_components WHERE entity_id = $1 AND parent_product_id = $2 LIMIT 1', [entityId, productId]);
    if (components)
      throw new ApiError('parameter_invalid', { param: 'product_type', hint: 'A bundle with components stays a bundle: remove its components first.' });
  }
  refuseReorderPointOnDemand(patch.reorder_point_mode ?? before.reorder_point_mode, patch.reorder_point);
  await checkProductReferences(db, entityId, patch);
  const params: unknown[] = [entityId, productId];
  const set = updateSet(patch, EDITABLE, params);
  if (!set) return { product: before, previous: {} };
  try {
    // Editing the product moves no stock, so its demand is the one just loaded.
    let row = await db.one<ProductRow>(`UPDATE products p ${set} WHERE p.entity_id = $1 AND p.id = $2 RETURNING ${PRODUCT_COLUMNS}`, params);
    // Switched to demand: the reorder point takes its demand value now (a move to manual keeps the last value).
    if (
      patch.reorder_point_mode === 'demand' &&
      before.reorder_point_mode !== 'demand' &&
      (await syncDemandReorderPoint(db, entityId, productId, before.demand_avg_per_day)) !== null
    ) {
      row = await db.one<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.entity_id = $1 AND p.id = $2`, [entityId, productId]);
    }
    const product = toProduct(row, before.demand_avg_per_day);
    return { product, previous: previousAttributes(before, product) };
  } catch (error) {
    productWriteError(error);
  }
}

/**
 * Permanent, and only for a product nothing points at: its own options, vendor links and tags go
 * with it; a product that is a kit component, is priced, or has inventory history is refused.
 * Inventory answers for its history: `hasStockHistory` asks it once the product is locked (the
 * route composes the two capabilities).
 */
export async function deleteProduct(
  db: Db,
  entityId: string,
  productId: string,
  hasStockHistory: () => Promise<boolean>,
  readDemand: ProductDemandReader,
): Promise<Product> {
  const product = await getProduct(db, entityId, productId, readDemand, { lock: true });
  const usage = await db.one<{ kits: number; policies: number }>(
    `SELECT (SELECT count(*)::int FROM kit_components WHERE entity_id = $1 AND component_product_id = $2) AS kits,
            (SELECT count(*)::int FROM pricing_policies WHERE entity_id = $1 AND product_id = $2) AS policies`,
    [entityId, productId],
  );
  const transactions = await hasStockHistory();
  if (usage.kits || usage.policies || transactions) {
    throw new ApiError('product_in_use', {
      param: 'id',
      details: { references: { kits: usage.kits, pricing_policies: usage.policies, inventory_transactions: transactions } },
    });
  }
  await db.query(`DELETE FROM tag_assignments WHERE entity_id = $1 AND resource_type = 'product' AND resource_id = $2`, [entityId, productId]);
  try {
    await db.query('DELETE FROM products WHERE entity_id = $1 AND id = $2', [entityId, productId]);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new ApiError('product_in_use', { param: 'id' });
    throw error;
  }
  return product;
}

export interface ProductFilters {
  product_type?: Product['product_type'];
  is_active?: boolean;
  manufacturer_id?: string;
  sku?: string;
  q?: string;
  external_id?: string;
}

/**
 * Up to this many ids of a search are found through the search indexes (product_search_ids); a
 * term that matches more is common enough for the list's ordered scan to fill a page quickly.
 */
const SEARCH_ID_LIMIT = 1000;

export async function productFilterSql(db: Db, filters: ProductFilters, where: string[], params: unknown[], alias = 'p'): Promise<void> {
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filters.product_type !== undefined) add((n) => `${alias}.product_type = ${n}`, filters.product_type);
  if (filters.is_active !== undefined) add((n) => `${alias}.is_active = ${n}`, filters.is_active);
  if (filters.manufacturer_id !== undefined) add((n) => `${alias}.manufacturer_id = ${n}`, filters.manufacturer_id);
  // sku_key is the stored lower(sku): equality on the column reaches products_sku_unique under row
  // level security, where a condition on lower() itself cannot (lower() is not leakproof).
  if (filters.sku !== undefined) add((n) => `${alias}.sku_key = lower(${n})`, filters.sku);
  if (filters.external_id !== undefined) add((n) => `${alias}.external_id = ${n}`, filters.external_id);
  if (filters.q !== undefined) {
    // SKU by prefix, name anywhere. Under row level security LIKE cannot reach an index (it is not
    // leakproof), so the ids come from product_search_ids (migration 20261125090000) and the page
    // is read by id; a term with many matches keeps the LIKE filter on the ordered scan.
    const escaped = likeEscape(filters.q);
    const prefix = `${escaped}%`;
    const contains = `%${escaped}%`;
    const { ids } = await db.one<{ ids: string[] }>('SELECT product_search_ids($1, $2, $3) AS ids', [prefix, contains, SEARCH_ID_LIMIT]);
    if (ids.length < SEARCH_ID_LIMIT) add((n) => `${alias}.id = ANY(${n}::uuid[])`, ids);
    else {
      params.push(prefix, contains);
      where.push(`(lower(${alias}.sku) LIKE $${params.length - 1} OR lower(${alias}.name) LIKE $${params.length})`);
    }
  }
}

export async function listProducts(
  db: Db,
  entityId: string,
  filters: ProductFilters,
  page: PageRequest,
  readDemand: ProductDemandReader,
): Promise<Page<Product>> {
  const where = ['p.entity_id = $1'];
  const params: unknown[] = [entityId];
  await productFilterSql(db, filters, where, params);
  const result = await keysetPage<ProductRow>(db, { table: 'products', alias: 'p', select: PRODUCT_COLUMNS, where, params }, page);
  return { ...result, data: await withDemand(db, entityId, result.data, readDemand) };
}
