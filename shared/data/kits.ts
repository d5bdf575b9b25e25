/** SQL for kits: a kit is a product of type kit plus its component rows, written together. */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { buildableKits } from '../domain/inventory/kits';
import { ApiError } from '../http/errors';
import { keysetPage, type Page, type PageRequest } from '../http/pagination';
import { newId } from '../ids';
import { QUANTITY_SCALE, toJsonNumber, ZERO } from '../money';
import type { Kit, KitComponent, KitCreate } from '../schemas/kit';
import type { Product } from '../schemas/product';
import { availableByProduct } from './inventory';
import { insertProduct, likeEscape, PRODUCT_COLUMNS, toProduct, type ProductRow } from './products';

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
    const type = types.get(component.component_product_id);
    if (!type) throw new ApiError('not_found', { param, hint: 'No such product in this entity.' });
    if (type !== 'simple') {
      throw new ApiError('parameter_invalid', { param, hint: `Kit components must be simple (stocked) products; this one is a ${type}.` });
    }
    if (seen.has(component.component_product_id)) throw new ApiError('parameter_invalid', { param, hint: 'Each product can appear once in a kit.' });
    seen.add(component.component_product_id);
  });
  const { product_name, components, product_type: _kit, ...header } = input;
  const product = await insertProduct(db, entityId, { ...header, name: product_name, product_type: 'kit' });
  for (const [index, component] of components.entries()) {
    try {
      await db.query(
        `INSERT INTO kit_components (id, entity_id, parent_product_id, component_product_id, quantity_per_kit, sequence, is_assembled, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          newId(),
          entityId,
          product.id,
          component.component_product_id,
          component.quantity_per_kit,
          component.sequence ?? index + 1,
          component.is_assembled ?? false,
          component.metadata ?? {},
        ],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('parameter_invalid', { param: `components[${index}].component_product_id` });
      throw error;
    }
  }
  return toKit(product, (await componentsOf(db, entityId, [product.id])).get(product.id)!);
}

async function getKitProduct(db: Db, entityId: string, kitId: string): Promise<Product> {
  const row = await db.maybeOne<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.entity_id = $1 AND p.id = $2 AND p.product_type = 'kit'`, [
    entityId,
    kitId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such kit in this entity (the product is missing or not of product_type kit).' });
  return toProduct(row);
}

export async function getKit(db: Db, entityId: string, kitId: string): Promise<Kit> {
  const product = await getKitProduct(db, entityId, kitId);
  return toKit(product, (await componentsOf(db, entityId, [kitId])).get(kitId)!);
}

/** E24: the components of a kit parent; any other product type is a 404. */
export async function listComponents(db: Db, entityId: string, kitId: string) {
  const kit = await getKit(db, entityId, kitId);
  return { object: 'list' as const, data: kit.components, total: kit.components.length, has_more: false };
}

export async function listKits(db: Db, entityId: string, filters: { is_active?: boolean; q?: string }, page: PageRequest): Promise<Page<Kit>> {
  const where = ['p.entity_id = $1', `p.product_type = 'kit'`];
  const params: unknown[] = [entityId];
  if (filters.is_active !== undefined) {
    params.push(filters.is_active);
    where.push(`p.is_active = $${params.length}`);
  }
  if (filters.q !== undefined) {
    const escaped = likeEscape(filters.q);
    params.push(`${escaped}%`, `%${escaped}%`);
    where.push(`(lower(p.sku) LIKE $${params.length - 1} OR lower(p.name) LIKE $${params.length})`);
  }
  const result = await keysetPage<ProductRow>(db, { table: 'products', alias: 'p', select: PRODUCT_COLUMNS, where, params }, page, '/v1/kits');
  const components = await componentsOf(
    db,
    entityId,
    result.data.map((row) => row.id),
  );
  return { ...result, data: result.data.map((row) => toKit(toProduct(row), components.get(row.id)!)) };
}

export async function kitAvailability(db: Db, entityId: string, kitId: string, locationId?: string) {
  const kit = await getKit(db, entityId, kitId);
  if (locationId) {
    const found = await db.maybeOne('SELECT 1 FROM locations WHERE entity_id = $1 AND id = $2', [entityId, locationId]);
    if (!found) throw new ApiError('not_found', { param: 'location_id', hint: 'No such location in this entity.' });
  }
  const available = await availableByProduct(
    db,
    entityId,
    kit.components.map((c) => c.component_product_id),
    locationId,
  );
  const components = kit.components.map((component) => {
    const stock = available.get(component.component_product_id) ?? ZERO;
    return {
      component_product_id: component.component_product_id,
      component_product_sku: component.component_product_sku,
      quantity_per_kit: component.quantity_per_kit,
      available: toJsonNumber(stock, QUANTITY_SCALE),
      buildable_quantity: buildableKits([{ quantity_per_kit: String(component.quantity_per_kit), available: stock }]),
    };
  });
  return {
    object: 'kit_availability' as const,
    kit_product_id: kit.id,
    location_id: locationId ?? null,
    buildable_quantity: buildableKits(components.map((c) => ({ quantity_per_kit: String(c.quantity_per_kit), available: c.available }))),
    components,
  };
}
