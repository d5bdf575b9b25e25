/**
 * SQL for kits: a kit (or a bundle) is a product of type kit (bundle) plus its component rows,
 * written together. A bundle's components are sold, committed and drawn like a kit's, but a bundle
 * is never built nor stocked.
 */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { QUANTITY_SCALE, toJsonNumber } from '../money';
import { KIT_COMPONENT_LIMIT, type Kit, type KitComponent, type KitComponentInput, type KitComponentUpdate, type KitCreate } from './schemas/kit';
import type { Product } from './schemas/product';
import { insertProduct, PRODUCT_COLUMNS, productFilterSql, withDemand, type ProductDemandReader, type ProductRow } from './products';

const COMPONENT_COLUMNS = `c.id, 'kit_component' AS object, c.entity_id, c.parent_product_id, c.component_product_id, p.name AS component_product_title,
  p.sku AS component_product_sku, c.quantity_per_kit, c.sequence, c.is_assembled, c.metadata, c.created_at, c.updated_at`;
const COMPONENT_FROM = 'kit_components c JOIN products p ON p.entity_id = c.entity_id AND p.id = c.component_product_id';

type ComponentRow = Omit<KitComponent, 'quantity_per_kit'> & { quantity_per_kit: string };
const toComponent = (row: ComponentRow): KitComponent => ({ ...row, quantity_per_kit: toJsonNumber(row.quantity_per_kit, QUANTITY_SCALE) });

async function componentsOf(db: Db, entityId: string, kitIds: string[]): Promise<Map<string, KitComponent[]>> {
  const rows = await db.query<ComponentRow>(
    `SELECT ${COMPONENT_COLUMNS} FROM ${COMPONENT_FROM} WHERE c.entity_id = $1 AND c.parent_product_id = ANY($2::uuid[]) ORDER BY c.sequence, c.created_at, c.id`,
    [entityId, kitIds],
  );
  const byKit = new Map<string, KitComponent[]>(kitIds.map((id) => [id, []]));
  for (const row of rows) byKit.get(row.parent_product_id)!.push(toComponent(row));
  return byKit;
}

const toKit = (product: Product, components: KitComponent[]): Kit => ({ ...product, product_name: product.name, components });

/** A kit component must be a simple (stocked) product of the entity: `productType` is its type, undefined when there is none. */
function checkComponentType(productType: string | undefined, param: string): void {
  if (!productType) throw new ApiError('not_found', { param, hint: 'No such product in this entity.' });
  if (productType !== 'simple') {
    throw new ApiError('parameter_invalid', { param, hint: `Kit components must be simple (stocked) products; this one is a ${productType}.` });
  }
}

/** One component row; each caller answers a repeated component with its own error. */
function insertComponent(db: Db, entityId: string, kitId: string, id: string, component: KitComponentInput, sequence: number) {
  return db.query(
    `INSERT INTO kit_components (id, entity_id, parent_product_id, component_product_id, quantity_per_kit, sequence, is_assembled, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [id, entityId, kitId, component.component_product_id, component.quantity_per_kit, sequence, component.is_assembled ?? false, component.metadata ?? {}],
  );
}

/**
 * Header and components in one transaction; every component is checked before anything is written,
 * and any failure rolls the whole request back.
 */
export async function createKit(db: Db, entityId: string, input: KitCreate): Promise<Kit> {
  const ids = input.components.map((component) => component.component_product_id);
  const found = await db.query<{ id: string; product_type: string }>('SELECT id, product_type FROM products WHERE entity_id = $1 AND id = ANY($2::uuid[])', [
    entityId,
    ids,
  ]);
  const types = new Map(found.map((row) => [row.id, row.product_type]));
  const seen = new Set<string>();
  input.components.forEach((component, index) => {
    const param = `components[${index}].component_product_id`;
    checkComponentType(types.get(component.component_product_id), param);
    if (seen.has(component.component_product_id)) throw new ApiError('parameter_invalid', { param, hint: 'Each product can appear once in a kit.' });
    seen.add(component.component_product_id);
  });
  const { product_name, components, product_type, ...header } = input;
  const product = await insertProduct(db, entityId, { ...header, name: product_name, product_type: product_type ?? 'kit' });
  for (const [index, component] of components.entries()) {
    try {
      await insertComponent(db, entityId, product.id, newId(), component, component.sequence ?? index + 1);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('parameter_invalid', { param: `components[${index}].component_product_id` });
      throw error;
    }
  }
  return toKit(product, (await componentsOf(db, entityId, [product.id])).get(product.id)!);
}

async function getKitRow(db: Db, entityId: string, kitId: string): Promise<ProductRow> {
  const row = await db.maybeOne<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.entity_id = $1 AND p.id = $2 AND p.product_type IN ('kit', 'bundle')`,
    [entityId, kitId],
  );
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such kit in this entity (the product is missing or not of product_type kit or bundle).' });
  return row;
}

export async function getKit(db: Db, entityId: string, kitId: string, readDemand: ProductDemandReader): Promise<Kit> {
  const [product] = await withDemand(db, entityId, [await getKitRow(db, entityId, kitId)], readDemand);
  return toKit(product, (await componentsOf(db, entityId, [kitId])).get(kitId)!);
}

/**
 * The components of a kit parent. E24 (`/v1/products/{id}/components`) is only valid for product_type
 * kit, so it passes `kitsOnly` and a bundle is a 404 there; `/v1/kits/{id}/components` answers for
 * kits and bundles alike.
 */
export async function listComponents(db: Db, entityId: string, kitId: string, options: { kitsOnly?: boolean } = {}) {
  const kit = await getKitRow(db, entityId, kitId);
  if (options.kitsOnly && kit.product_type !== 'kit') {
    throw new ApiError('not_found', {
      param: 'id',
      hint: "This route is only valid for product_type kit; list a bundle's components with GET /v1/kits/{id}/components.",
    });
  }
  const components = (await componentsOf(db, entityId, [kitId])).get(kitId)!;
  return { object: 'list' as const, data: components, total: components.length, has_more: false };
}

export async function listKits(
  db: Db,
  entityId: string,
  filters: { is_active?: boolean; q?: string },
  page: PageRequest,
  readDemand: ProductDemandReader,
): Promise<Page<Kit>> {
  const where = ['p.entity_id = $1', `p.product_type IN ('kit', 'bundle')`];
  const params: unknown[] = [entityId];
  await productFilterSql(db, { is_active: filters.is_active, q: filters.q }, where, params);
  const result = await keysetPage<ProductRow>(db, { table: 'products', alias: 'p', select: PRODUCT_COLUMNS, where, params }, page);
  const ids = result.data.map((row) => row.id);
  const components = await componentsOf(db, entityId, ids);
  const products = await withDemand(db, entityId, result.data, readDemand);
  return { ...result, data: products.map((product) => toKit(product, components.get(product.id)!)) };
}

// ---------------------------------------------------------------------------------------------
// Components after creation: the rules of E7, applied one component at a time.

/**
 * That the kit exists; with `lock` its product row is locked, so concurrent component changes of one
 * kit queue (and the last one cannot go twice).
 */
async function requireKit(db: Db, entityId: string, kitId: string, options: { lock?: boolean } = {}): Promise<void> {
  const found = await db.maybeOne(
    `SELECT 1 FROM products WHERE entity_id = $1 AND id = $2 AND product_type IN ('kit', 'bundle') ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, kitId],
  );
  if (!found)
    throw new ApiError('not_found', { param: 'id', hint: 'No such kit in this entity (the product is missing or not of product_type kit or bundle).' });
}

/** A component change changes the kit representation: its updated_at moves with it. */
const touchKit = (db: Db, entityId: string, kitId: string) =>
  db.query('UPDATE products SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, kitId]);

export async function getComponent(db: Db, entityId: string, kitId: string, componentId: string, options: { lock?: boolean } = {}): Promise<KitComponent> {
  await requireKit(db, entityId, kitId, { lock: options.lock });
  const row = await db.maybeOne<ComponentRow>(
    `SELECT ${COMPONENT_COLUMNS} FROM ${COMPONENT_FROM} WHERE c.entity_id = $1 AND c.parent_product_id = $2 AND c.id = $3 ${options.lock ? 'FOR UPDATE OF c' : ''}`,
    [entityId, kitId, componentId],
  );
  if (!row) throw new ApiError('not_found', { param: 'component_id', hint: 'No such component of this kit.' });
  return toComponent(row);
}

/** Adds one component: a simple product of the entity, not the kit itself, not already in the kit. */
export async function addComponent(db: Db, entityId: string, kitId: string, input: KitComponentInput): Promise<KitComponent> {
  await requireKit(db, entityId, kitId, { lock: true });
  const param = 'component_product_id';
  if (input.component_product_id === kitId) throw new ApiError('parameter_invalid', { param, hint: 'A kit cannot be a component of itself.' });
  const product = await db.maybeOne<{ product_type: string }>('SELECT product_type FROM products WHERE entity_id = $1 AND id = $2', [
    entityId,
    input.component_product_id,
  ]);
  checkComponentType(product?.product_type, param);
  const existing = await db.one<{ count: number; max_sequence: number | null; duplicate: boolean }>(
    `SELECT count(*)::int AS count, max(sequence) AS max_sequence, coalesce(bool_or(component_product_id = $3), false) AS duplicate
     FROM kit_components WHERE entity_id = $1 AND parent_product_id = $2`,
    [entityId, kitId, input.component_product_id],
  );
  if (existing.duplicate) throw new ApiError('kit_component_exists', { param });
  if (existing.count >= KIT_COMPONENT_LIMIT) throw new ApiError('kit_component_limit', { param, details: { limit: KIT_COMPONENT_LIMIT } });
  const id = newId();
  try {
    await insertComponent(db, entityId, kitId, id, input, input.sequence ?? (existing.max_sequence ?? 0) + 1);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('kit_component_exists', { param });
    throw error;
  }
  await touchKit(db, entityId, kitId);
  return getComponent(db, entityId, kitId, id);
}

const COMPONENT_EDITABLE = ['quantity_per_kit', 'sequence', 'is_assembled', 'metadata'] as const;

export async function updateComponent(
  db: Db,
  entityId: string,
  kitId: string,
  componentId: string,
  patch: KitComponentUpdate,
): Promise<{ component: KitComponent; previous: Partial<KitComponent> }> {
  const before = await getComponent(db, entityId, kitId, componentId, { lock: true });
  const params: unknown[] = [entityId, kitId, componentId];
  const set = updateSet(patch, COMPONENT_EDITABLE, params);
  if (!set) return { component: before, previous: {} };
  await db.query(`UPDATE kit_components ${set} WHERE entity_id = $1 AND parent_product_id = $2 AND id = $3`, params);
  const component = await getComponent(db, entityId, kitId, componentId);
  const previous = previousAttributes(before, component);
  if (Object.keys(previous).length) await touchKit(db, entityId, kitId);
  return { component, previous };
}

/** Removes one component; a kit's last one stays (a kit has at least one, as on create), a bundle's may go. */
export async function removeComponent(db: Db, entityId: string, kitId: string, componentId: string): Promise<KitComponent> {
  const component = await getComponent(db, entityId, kitId, componentId, { lock: true });
  const { count, product_type } = await db.one<{ count: number; product_type: string }>(
    `SELECT (SELECT count(*)::int FROM kit_components WHERE entity_id = $1 AND parent_product_id = $2) AS count,
            (SELECT product_type FROM products WHERE entity_id = $1 AND id = $2) AS product_type`,
    [entityId, kitId],
  );
  // A kit is built from its components; a bundle without any is a plain priced bundle again.
  if (count <= 1 && product_type === 'kit') throw new ApiError('kit_component_last', { param: 'component_id' });
  await db.query('DELETE FROM kit_components WHERE entity_id = $1 AND parent_product_id = $2 AND id = $3', [entityId, kitId, componentId]);
  await touchKit(db, entityId, kitId);
  return component;
}
