/** SQL for product options, product-vendor relationships, pricing levels and policies, and tags. */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { amount, QUANTITY_SCALE, round, toJsonNumber } from '../money';
import type {
  PricingLevel,
  PricingLevelCreate,
  PricingPolicy,
  PricingPolicyCreate,
  ProductOption,
  ProductOptionCreate,
  ProductVendor,
  ProductVendorCreate,
  ProductVendorUpdate,
  Tag,
  TagCreate,
  TagResourceType,
} from './schemas/catalog-extras';
import { PRICE_SCALE } from './schemas/product';
import { requireProduct } from './products';

const nullableNumber = (value: string | null, scale: number) => (value === null ? null : toJsonNumber(value, scale));

// ---------------------------------------------------------------------------------------------
// Product options

const OPTION_COLUMNS = `o.id, 'product_option' AS object, o.entity_id, o.product_id, o.name, o.option_values AS values, o.sequence, o.metadata, o.created_at, o.updated_at`;

export async function createOption(db: Db, entityId: string, productId: string, input: ProductOptionCreate): Promise<ProductOption> {
  // The product row lock serialises option writes of one product, so sequences stay distinct.
  await requireProduct(db, entityId, productId, { lock: true });
  try {
    return await db.one<ProductOption>(
      `INSERT INTO product_options AS o (id, entity_id, product_id, name, option_values, sequence, metadata)
       VALUES ($1, $2, $3, $4, $5, (SELECT coalesce(max(sequence), 0) + 1 FROM product_options WHERE entity_id = $2 AND product_id = $3), $6)
       RETURNING ${OPTION_COLUMNS}`,
      [newId(), entityId, productId, input.name, input.values ?? [], input.metadata ?? {}],
    );
  } catch (error) {
    if (isUniqueViolation(error, 'product_options_name_unique')) throw new ApiError('option_name_taken', { param: 'name' });
    throw error;
  }
}

export async function listOptions(db: Db, entityId: string, productId: string) {
  await requireProduct(db, entityId, productId);
  const data = await db.query<ProductOption>(
    `SELECT ${OPTION_COLUMNS} FROM product_options o WHERE o.entity_id = $1 AND o.product_id = $2 ORDER BY o.sequence, o.created_at, o.id`,
    [entityId, productId],
  );
  return { object: 'list' as const, data, has_more: false };
}

export async function getOption(db: Db, entityId: string, productId: string, optionId: string, options: { lock?: boolean } = {}): Promise<ProductOption> {
  await requireProduct(db, entityId, productId);
  const row = await db.maybeOne<ProductOption>(
    `SELECT ${OPTION_COLUMNS} FROM product_options o WHERE o.entity_id = $1 AND o.product_id = $2 AND o.id = $3 ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, productId, optionId],
  );
  if (!row) throw new ApiError('not_found', { param: 'option_id', hint: 'No such option on this product.' });
  return row;
}

export async function deleteOption(db: Db, entityId: string, productId: string, optionId: string): Promise<ProductOption> {
  const option = await getOption(db, entityId, productId, optionId, { lock: true });
  await db.query('DELETE FROM product_options WHERE entity_id = $1 AND id = $2', [entityId, optionId]);
  return option;
}

/**
 * E11: every listed option gets its 1-based position as sequence, in one statement; an id that is
 * not an option of this product (another product's, another entity's, or none) refuses the whole
 * request before anything changes.
 */
export async function reorderOptions(db: Db, entityId: string, productId: string, order: string[]): Promise<{ reordered: number }> {
  await requireProduct(db, entityId, productId, { lock: true });
  const seen = new Set<string>();
  order.forEach((optionId, index) => {
    if (seen.has(optionId.toLowerCase())) throw new ApiError('parameter_invalid', { param: `order[${index}]`, hint: 'Each option id may appear once.' });
    seen.add(optionId.toLowerCase());
  });
  const found = await db.query<{ id: string }>('SELECT id FROM product_options WHERE entity_id = $1 AND product_id = $2 AND id = ANY($3::uuid[]) FOR UPDATE', [
    entityId,
    productId,
    order,
  ]);
  const ids = new Set(found.map((row) => row.id));
  const missing = order.findIndex((optionId) => !ids.has(optionId.toLowerCase()));
  if (missing >= 0) throw new ApiError('not_found', { param: `order[${missing}]`, hint: 'No such option on this product.' });
  const rows = await db.query(
    `UPDATE product_options o SET sequence = k.position::int, updated_at = now()
     FROM unnest($3::uuid[]) WITH ORDINALITY AS k(id, position)
     WHERE o.entity_id = $1 AND o.product_id = $2 AND o.id = k.id RETURNING o.id`,
    [entityId, productId, order],
  );
  return { reordered: rows.length };
}

// ---------------------------------------------------------------------------------------------
// Product-vendor relationships

const PV_COLUMNS = `pv.id, 'product_vendor' AS object, pv.entity_id, pv.product_id, pv.vendor_id, v.name AS vendor_name, pv.vendor_sku, pv.vendor_cost,
  pv.lead_time_days, pv.order_multiple, pv.minimum_order_quantity, pv.is_preferred, pv.metadata, pv.created_at, pv.updated_at`;
const PV_FROM = 'product_vendors pv JOIN vendors v ON v.entity_id = pv.entity_id AND v.id = pv.vendor_id';
const PV_EDITABLE = ['vendor_sku', 'vendor_cost', 'lead_time_days', 'order_multiple', 'minimum_order_quantity', 'is_preferred', 'metadata'] as const;

type PvRow = Omit<ProductVendor, 'vendor_cost' | 'order_multiple' | 'minimum_order_quantity'> & {
  vendor_cost: string | null;
  order_multiple: string;
  minimum_order_quantity: string | null;
};
const toProductVendor = (row: PvRow): ProductVendor => ({
  ...row,
  vendor_cost: nullableNumber(row.vendor_cost, PRICE_SCALE),
  order_multiple: toJsonNumber(row.order_multiple, QUANTITY_SCALE),
  minimum_order_quantity: nullableNumber(row.minimum_order_quantity, QUANTITY_SCALE),
});

export async function getProductVendor(db: Db, entityId: string, productId: string, pvId: string, options: { lock?: boolean } = {}): Promise<ProductVendor> {
  await requireProduct(db, entityId, productId);
  const row = await db.maybeOne<PvRow>(
    `SELECT ${PV_COLUMNS} FROM ${PV_FROM} WHERE pv.entity_id = $1 AND pv.product_id = $2 AND pv.id = $3 ${options.lock ? 'FOR UPDATE OF pv' : ''}`,
    [entityId, productId, pvId],
  );
  if (!row) throw new ApiError('not_found', { param: 'pvid', hint: 'No such vendor relationship on this product.' });
  return toProductVendor(row);
}

/** Demotes the product's current preferred vendor; the caller holds the product row lock. */
async function demotePreferred(db: Db, entityId: string, productId: string, exceptId: string): Promise<void> {
  await db.query('UPDATE product_vendors SET is_preferred = false, updated_at = now() WHERE entity_id = $1 AND product_id = $2 AND is_preferred AND id <> $3', [
    entityId,
    productId,
    exceptId,
  ]);
}

export async function createProductVendor(db: Db, entityId: string, productId: string, input: ProductVendorCreate): Promise<ProductVendor> {
  await requireProduct(db, entityId, productId, { lock: true });
  const vendor = await db.maybeOne('SELECT 1 FROM vendors WHERE entity_id = $1 AND id = $2', [entityId, input.vendor_id]);
  if (!vendor) throw new ApiError('not_found', { param: 'vendor_id', hint: 'No such vendor in this entity.' });
  const id = newId();
  if (input.is_preferred) await demotePreferred(db, entityId, productId, id);
  try {
    await db.query(
      `INSERT INTO product_vendors (id, entity_id, product_id, vendor_id, vendor_sku, vendor_cost, lead_time_days, order_multiple, minimum_order_quantity, is_preferred, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        id,
        entityId,
        productId,
        input.vendor_id,
        input.vendor_sku ?? null,
        input.vendor_cost ?? null,
        input.lead_time_days ?? null,
        input.order_multiple ?? '1',
        input.minimum_order_quantity ?? null,
        input.is_preferred ?? false,
        input.metadata ?? {},
      ],
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('product_vendor_exists', { param: 'vendor_id' });
    throw error;
  }
  return getProductVendor(db, entityId, productId, id);
}

/** E14: is_preferred true demotes the previous preferred vendor in the same transaction. */
export async function updateProductVendor(db: Db, entityId: string, productId: string, pvId: string, patch: ProductVendorUpdate) {
  await requireProduct(db, entityId, productId, { lock: true });
  const before = await getProductVendor(db, entityId, productId, pvId, { lock: true });
  if (patch.is_preferred) await demotePreferred(db, entityId, productId, pvId);
  const params: unknown[] = [entityId, pvId];
  const set = updateSet(patch, PV_EDITABLE, params);
  if (!set) return { relationship: before, previous: {} };
  await db.query(`UPDATE product_vendors ${set} WHERE entity_id = $1 AND id = $2`, params);
  const relationship = await getProductVendor(db, entityId, productId, pvId);
  return { relationship, previous: previousAttributes(before, relationship) };
}

export async function deleteProductVendor(db: Db, entityId: string, productId: string, pvId: string): Promise<ProductVendor> {
  const relationship = await getProductVendor(db, entityId, productId, pvId, { lock: true });
  await db.query('DELETE FROM product_vendors WHERE entity_id = $1 AND id = $2', [entityId, pvId]);
  return relationship;
}

export async function listProductVendors(db: Db, entityId: string, productId: string) {
  await requireProduct(db, entityId, productId);
  const rows = await db.query<PvRow>(
    `SELECT ${PV_COLUMNS} FROM ${PV_FROM} WHERE pv.entity_id = $1 AND pv.product_id = $2 ORDER BY pv.is_preferred DESC, pv.created_at, pv.id`,
    [entityId, productId],
  );
  return { object: 'list' as const, data: rows.map(toProductVendor), has_more: false };
}

// ---------------------------------------------------------------------------------------------
// Pricing levels and policies

const LEVEL_COLUMNS = `l.id, 'pricing_level' AS object, l.entity_id, l.name, l.description, l.is_active, l.metadata, l.created_at, l.updated_at`;

export async function createPricingLevel(db: Db, entityId: string, input: PricingLevelCreate): Promise<PricingLevel> {
  try {
    return await db.one<PricingLevel>(
      `INSERT INTO pricing_levels AS l (id, entity_id, name, description, is_active, metadata) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${LEVEL_COLUMNS}`,
      [newId(), entityId, input.name, input.description ?? null, input.is_active ?? true, input.metadata ?? {}],
    );
  } catch (error) {
    if (isUniqueViolation(error, 'pricing_levels_name_unique')) throw new ApiError('pricing_level_name_taken', { param: 'name' });
    throw error;
  }
}

export async function getPricingLevel(db: Db, entityId: string, levelId: string): Promise<PricingLevel> {
  const row = await db.maybeOne<PricingLevel>(`SELECT ${LEVEL_COLUMNS} FROM pricing_levels l WHERE l.entity_id = $1 AND l.id = $2`, [entityId, levelId]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such pricing level in this entity.' });
  return row;
}

export function listPricingLevels(db: Db, entityId: string, filters: { is_active?: boolean }, page: PageRequest): Promise<Page<PricingLevel>> {
  const where = ['l.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.is_active !== undefined) {
    params.push(filters.is_active);
    where.push(`l.is_active = $${params.length}`);
  }
  return keysetPage<PricingLevel>(db, { table: 'pricing_levels', alias: 'l', select: LEVEL_COLUMNS, where, params }, page);
}

const POLICY_COLUMNS = `pp.id, 'pricing_policy' AS object, pp.entity_id, pp.product_id, pp.pricing_level_id, pp.account_id, pp.pricing_type, pp.min_quantity,
  pp.sell_price, pp.list_price, pp.adjustment, pp.margin_pct, pp.is_active, pp.is_default, pp.created_at, pp.imported_at, pp.updated_at,
  pl.name AS level_name, p.name AS product_name, p.sku AS product_sku, pp.external_source, pp.external_id, pp.migration_batch_id`;
const POLICY_JOINS = `JOIN products p ON p.entity_id = pp.entity_id AND p.id = pp.product_id
  LEFT JOIN pricing_levels pl ON pl.entity_id = pp.entity_id AND pl.id = pp.pricing_level_id`;

type PolicyRow = Omit<PricingPolicy, 'min_quantity' | 'sell_price' | 'list_price' | 'adjustment' | 'margin_pct'> & {
  min_quantity: string;
  sell_price: string;
  list_price: string | null;
  adjustment: string | null;
  margin_pct: string | null;
};
const toPolicy = (row: PolicyRow): PricingPolicy => ({
  ...row,
  min_quantity: toJsonNumber(row.min_quantity, QUANTITY_SCALE),
  sell_price: toJsonNumber(row.sell_price, PRICE_SCALE),
  list_price: nullableNumber(row.list_price, PRICE_SCALE),
  adjustment: nullableNumber(row.adjustment, PRICE_SCALE),
  margin_pct: nullableNumber(row.margin_pct, 2),
});

export async function getPricingPolicy(db: Db, entityId: string, policyId: string): Promise<PricingPolicy> {
  const row = await db.maybeOne<PolicyRow>(`SELECT ${POLICY_COLUMNS} FROM pricing_policies pp ${POLICY_JOINS} WHERE pp.entity_id = $1 AND pp.id = $2`, [
    entityId,
    policyId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such pricing policy in this entity.' });
  return toPolicy(row);
}

/** adjustment = list - sell; margin_pct = (sell - cost) / sell x 100 at 2 decimals. */
export function derivePricing(sellPrice: string, listPrice: string | null, cost: string | null) {
  const sell = amount(sellPrice);
  return {
    adjustment: listPrice === null ? null : round(amount(listPrice).minus(sell), PRICE_SCALE).toString(),
    margin_pct: cost === null || sell.isZero() ? null : round(sell.minus(cost).dividedBy(sell).times(100), 2).toString(),
  };
}

export async function createPricingPolicy(db: Db, entityId: string, input: PricingPolicyCreate): Promise<PricingPolicy> {
  const product = await db.maybeOne<{ list_price: string | null; cost: string | null }>(
    'SELECT list_price, cost FROM products WHERE entity_id = $1 AND id = $2',
    [entityId, input.product_id],
  );
  if (!product) throw new ApiError('not_found', { param: 'product_id', hint: 'No such product in this entity.' });
  if (input.pricing_level_id) {
    const level = await db.maybeOne('SELECT 1 FROM pricing_levels WHERE entity_id = $1 AND id = $2', [entityId, input.pricing_level_id]);
    if (!level) throw new ApiError('not_found', { param: 'pricing_level_id', hint: 'No such pricing level in this entity.' });
  }
  if (input.account_id) {
    const account = await db.maybeOne('SELECT 1 FROM accounts WHERE entity_id = $1 AND id = $2', [entityId, input.account_id]);
    if (!account) throw new ApiError('not_found', { param: 'account_id', hint: 'No such account in this entity.' });
  }
  const listPrice = input.list_price === undefined ? product.list_price : input.list_price;
  const derived = derivePricing(input.sell_price, listPrice, product.cost);
  const id = newId();
  try {
    await db.query(
      `INSERT INTO pricing_policies (id, entity_id, product_id, pricing_level_id, account_id, pricing_type, min_quantity, sell_price, list_price, adjustment,
         margin_pct, is_active, is_default, imported_at, external_source, external_id, migration_batch_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
      [
        id,
        entityId,
        input.product_id,
        input.pricing_level_id ?? null,
        input.account_id ?? null,
        input.pricing_type ?? 'regular',
        input.min_quantity ?? '1',
        input.sell_price,
        listPrice,
        derived.adjustment,
        derived.margin_pct,
        input.is_active ?? true,
        input.is_default ?? false,
        input.imported_at ?? null,
        input.external_source ?? null,
        input.external_id ?? null,
        input.migration_batch_id ?? null,
      ],
    );
  } catch (error) {
    if (isUniqueViolation(error, 'pricing_policies_tier_unique')) throw new ApiError('pricing_tier_exists', { param: 'min_quantity' });
    throw error;
  }
  return getPricingPolicy(db, entityId, id);
}

export interface PolicyFilters {
  product_id?: string;
  pricing_level_id?: string;
  account_id?: string;
  is_active?: boolean;
  migration_batch_id?: string;
}

export async function listPricingPolicies(db: Db, entityId: string, filters: PolicyFilters, page: PageRequest): Promise<Page<PricingPolicy>> {
  const where = ['pp.entity_id = $1'];
  const params: unknown[] = [entityId];
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`pp.${column} = $${params.length}`);
  }
  const result = await keysetPage<PolicyRow>(
    db,
    { table: 'pricing_policies', alias: 'pp', joins: POLICY_JOINS, select: POLICY_COLUMNS, where, params },
    page);
  return { ...result, data: result.data.map(toPolicy) };
}

// ---------------------------------------------------------------------------------------------
// Tags

const TAG_COLUMNS = `t.id, 'tag' AS object, t.entity_id, t.name, t.color, t.metadata, t.created_at, t.updated_at`;

/** Resource types whose tables exist in this version: attachments to them are checked for existence. */
const RESOURCE_TABLES: Partial<Record<TagResourceType, string>> = { account: 'accounts', product: 'products', vendor: 'vendors' };
/**
 * Order documents share one table: `order` is a quote or sales order, the others their own
 * document_type (a sales order's id tagged as an invoice is a 404). Deleted documents are gone.
 */
const ORDER_DOCUMENT_TYPES: Partial<Record<TagResourceType, readonly string[]>> = {
  order: ['quote', 'sales_order'],
  invoice: ['invoice'],
  return: ['return'],
  purchase_order: ['purchase_order'],
};

export async function createTag(db: Db, entityId: string, input: TagCreate): Promise<Tag> {
  try {
    return await db.one<Tag>(`INSERT INTO tags AS t (id, entity_id, name, color, metadata) VALUES ($1, $2, $3, $4, $5) RETURNING ${TAG_COLUMNS}`, [
      newId(),
      entityId,
      input.name,
      input.color ?? null,
      input.metadata ?? {},
    ]);
  } catch (error) {
    if (isUniqueViolation(error, 'tags_name_unique')) throw new ApiError('tag_name_taken', { param: 'name' });
    throw error;
  }
}

export function listTags(db: Db, entityId: string, filters: { name?: string }, page: PageRequest): Promise<Page<Tag>> {
  const where = ['t.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.name !== undefined) {
    params.push(filters.name);
    where.push(`lower(t.name) = lower($${params.length})`);
  }
  return keysetPage<Tag>(db, { table: 'tags', alias: 't', select: TAG_COLUMNS, where, params }, page);
}

/**
 * A resource of a type this version serves must exist in the entity (404 otherwise). vendor_bill,
 * contact and package resources are not served yet: reads answer an empty list, writes 422.
 */
async function checkResource(db: Db, entityId: string, resourceType: TagResourceType, resourceId: string, writing: boolean): Promise<boolean> {
  const table = RESOURCE_TABLES[resourceType];
  const documentTypes = ORDER_DOCUMENT_TYPES[resourceType];
  if (!table && !documentTypes) {
    if (writing) {
      throw new ApiError('resource_type_unavailable', {
        param: 'resourceType',
        hint: `This API version serves no ${resourceType} resources, so nothing can be tagged as one yet.`,
      });
    }
    return false;
  }
  // Writers take a key-share lock so the resource cannot be deleted while its tag row is written.
  const lock = writing ? 'FOR KEY SHARE' : '';
  const found = documentTypes
    ? await db.maybeOne(`SELECT 1 FROM orders WHERE entity_id = $1 AND id = $2 AND document_type = ANY($3::text[]) AND deleted_at IS NULL ${lock}`, [
        entityId,
        resourceId,
        documentTypes,
      ])
    : await db.maybeOne(`SELECT 1 FROM ${table} WHERE entity_id = $1 AND id = $2 ${lock}`, [entityId, resourceId]);
  if (!found) throw new ApiError('not_found', { param: 'resourceId', hint: `No such ${resourceType} in this entity.` });
  return true;
}

export async function tagsOf(db: Db, entityId: string, resourceType: TagResourceType, resourceId: string): Promise<{ data: Tag[] }> {
  if (!(await checkResource(db, entityId, resourceType, resourceId, false))) return { data: [] };
  const data = await db.query<Tag>(
    `SELECT ${TAG_COLUMNS} FROM tag_assignments a JOIN tags t ON t.entity_id = a.entity_id AND t.id = a.tag_id
     WHERE a.entity_id = $1 AND a.resource_type = $2 AND a.resource_id = $3 ORDER BY lower(t.name), t.id`,
    [entityId, resourceType, resourceId],
  );
  return { data };
}

/** Attaching a tag twice changes nothing (the response is the same list). */
export async function attachTag(db: Db, entityId: string, resourceType: TagResourceType, resourceId: string, tagId: string) {
  await checkResource(db, entityId, resourceType, resourceId, true);
  const tag = await db.maybeOne<Tag>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.entity_id = $1 AND t.id = $2 FOR KEY SHARE`, [entityId, tagId]);
  if (!tag) throw new ApiError('not_found', { param: 'tag_id', hint: 'No such tag in this entity.' });
  const inserted = await db.query(
    `INSERT INTO tag_assignments (id, entity_id, tag_id, resource_type, resource_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (entity_id, resource_type, resource_id, tag_id) DO NOTHING RETURNING id`,
    [newId(), entityId, tagId, resourceType, resourceId],
  );
  return { tag, attached: inserted.length > 0, tags: await tagsOf(db, entityId, resourceType, resourceId) };
}

export async function detachTag(db: Db, entityId: string, resourceType: TagResourceType, resourceId: string, tagId: string) {
  await checkResource(db, entityId, resourceType, resourceId, true);
  const removed = await db.query<{ id: string }>(
    'DELETE FROM tag_assignments WHERE entity_id = $1 AND resource_type = $2 AND resource_id = $3 AND tag_id = $4 RETURNING id',
    [entityId, resourceType, resourceId, tagId],
  );
  if (removed.length === 0) throw new ApiError('not_found', { param: 'tagId', hint: 'This tag is not attached to the resource.' });
  return tagsOf(db, entityId, resourceType, resourceId);
}
