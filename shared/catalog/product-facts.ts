/**
 * The catalog's named queries for other capabilities: what stock movements and document lines need
 * of a product (its type, unit, cost and reorder point), read by id. Inventory, orders and payables
 * read products through these, never with SQL of their own (docs/architecture.md, "Who owns a table").
 */
import type { Db } from '../db/database';

/** A product as stock movements need it. */
export interface StockFacts {
  product_type: string;
  uom_id: string | null;
  cost: string | null;
  reorder_point: string | null;
}

/** Product id → its stock facts, for the products of the entity among `productIds` (unknown ids are left out). */
export async function stockFactsByProduct(db: Db, entityId: string, productIds: readonly string[]): Promise<Map<string, StockFacts>> {
  if (productIds.length === 0) return new Map();
  const rows = await db.query<StockFacts & { id: string }>(
    'SELECT id, product_type, uom_id, cost, reorder_point FROM products WHERE entity_id = $1 AND id = ANY($2::uuid[])',
    [entityId, [...new Set(productIds)]],
  );
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}

/** Each row with the stock facts of its product_id (a row's product always exists: its foreign key says so). */
export async function withStockFacts<T extends { product_id: string }>(db: Db, entityId: string, rows: T[]): Promise<(T & StockFacts)[]> {
  const facts = await stockFactsByProduct(
    db,
    entityId,
    rows.map((row) => row.product_id),
  );
  return rows.map((row) => ({ ...row, ...facts.get(row.product_id)! }));
}

/** Product id → its preferred vendor, for the products among `productIds` that have one. */
export async function preferredVendors(db: Db, entityId: string, productIds: readonly string[]): Promise<Map<string, string>> {
  if (productIds.length === 0) return new Map();
  const rows = await db.query<{ product_id: string; vendor_id: string }>(
    'SELECT product_id, vendor_id FROM product_vendors WHERE entity_id = $1 AND product_id = ANY($2::uuid[]) AND is_preferred',
    [entityId, [...new Set(productIds)]],
  );
  return new Map(rows.map((row) => [row.product_id, row.vendor_id]));
}

/** The product–vendor links between these products and these vendors. */
export function productVendorLinks(
  db: Db,
  entityId: string,
  productIds: readonly string[],
  vendorIds: readonly string[],
): Promise<{ id: string; product_id: string; vendor_id: string; vendor_cost: string | null }[]> {
  return db.query<{ id: string; product_id: string; vendor_id: string; vendor_cost: string | null }>(
    'SELECT id, product_id, vendor_id, vendor_cost FROM product_vendors WHERE entity_id = $1 AND product_id = ANY($2::uuid[]) AND vendor_id = ANY($3::uuid[])',
    [entityId, [...new Set(productIds)], [...new Set(vendorIds)]],
  );
}

/**
 * The regular price of each item for a customer: the active policy without a pricing level whose
 * minimum quantity the item reaches, the account's own before the entity-wide ones, then the
 * highest minimum, the default, the newest. One entry per item, in the items' order (nulls: no policy).
 */
export async function regularPolicyPrices(
  db: Db,
  entityId: string,
  accountId: string | null,
  items: readonly { product_id: string; quantity: string }[],
): Promise<{ sell_price: string | null; list_price: string | null }[]> {
  const rows = await db.query<{ idx: string; sell_price: string | null; list_price: string | null }>(
    `SELECT v.idx, p.sell_price, p.list_price FROM unnest($2::uuid[], $4::numeric[]) WITH ORDINALITY AS v(product_id, quantity, idx)
LEFT JOIN LATERAL (SELECT sell_price, list_price FROM pricing_policies WHERE entity_id = $1 AND product_id = v.product_id AND is_active
AND pricing_type = 'regular' AND pricing_level_id IS NULL AND (account_id = $3 OR account_id IS NULL) AND min_quantity <= v.quantity
ORDER BY (account_id IS NOT NULL) DESC, min_quantity DESC, is_default DESC, created_at DESC, id DESC LIMIT 1) p ON true`,
    [entityId, items.map((item) => item.product_id), accountId, items.map((item) => item.quantity)],
  );
  const byIndex = new Map(rows.map((row) => [Number(row.idx) - 1, row]));
  return items.map((_, index) => ({ sell_price: byIndex.get(index)?.sell_price ?? null, list_price: byIndex.get(index)?.list_price ?? null }));
}

/**
 * lineProducts and regularPolicyPrices of sales document lines in one statement: for each item, in
 * the items' order, its product (null when the entity has none with that id) and the prices of its
 * policy as regularPolicyPrices chooses it (nulls: no policy).
 */
export async function pricedLineProducts(
  db: Db,
  entityId: string,
  accountId: string | null,
  items: readonly { product_id: string; quantity: string }[],
): Promise<{ product: LineProduct | null; sell_price: string | null; list_price: string | null }[]> {
  const rows = await db.query<LineProduct & { idx: string; policy_sell_price: string | null; policy_list_price: string | null }>(
    `SELECT v.idx, pr.id, pr.sku, pr.name, pr.product_type, pr.list_price, pr.cost, p.sell_price AS policy_sell_price, p.list_price AS policy_list_price
FROM unnest($2::uuid[], $4::numeric[]) WITH ORDINALITY AS v(product_id, quantity, idx)
LEFT JOIN products pr ON pr.entity_id = $1 AND pr.id = v.product_id
LEFT JOIN LATERAL (SELECT sell_price, list_price FROM pricing_policies WHERE entity_id = $1 AND product_id = pr.id AND is_active
AND pricing_type = 'regular' AND pricing_level_id IS NULL AND (account_id = $3 OR account_id IS NULL) AND min_quantity <= v.quantity
ORDER BY (account_id IS NOT NULL) DESC, min_quantity DESC, is_default DESC, created_at DESC, id DESC LIMIT 1) p ON true
ORDER BY v.idx`,
    [entityId, items.map((item) => item.product_id), accountId, items.map((item) => item.quantity)],
  );
  return rows.map(({ idx: _idx, policy_sell_price, policy_list_price, ...product }) => ({
    product: product.id === null ? null : product,
    sell_price: policy_sell_price,
    list_price: policy_list_price,
  }));
}

export interface KitComponentFacts {
  id: string;
  parent_product_id: string;
  component_product_id: string;
  quantity_per_kit: string;
  sku: string;
  name: string;
  list_price: string | null;
  cost: string | null;
}

/** The components of these kits with their products' sku, name and prices, each kit's in its sequence. */
export function kitComponentsOf(db: Db, entityId: string, kitIds: readonly string[]): Promise<KitComponentFacts[]> {
  return db.query<KitComponentFacts>(
    `SELECT k.id, k.parent_product_id, k.component_product_id, k.quantity_per_kit, p.sku, p.name, p.list_price, p.cost
       FROM kit_components k JOIN products p ON p.entity_id = k.entity_id AND p.id = k.component_product_id
      WHERE k.entity_id = $1 AND k.parent_product_id = ANY($2::uuid[]) ORDER BY k.parent_product_id, k.sequence, k.id`,
    [entityId, [...new Set(kitIds)]],
  );
}

/** What a document line copies from its product. */
export interface LineProduct {
  id: string;
  sku: string;
  name: string;
  product_type: string;
  list_price: string | null;
  cost: string | null;
}

/** The products of the entity among `ids`, as document lines copy them. */
export function lineProducts(db: Db, entityId: string, ids: readonly string[]): Promise<LineProduct[]> {
  return db.query<LineProduct>('SELECT id, sku, name, product_type, list_price, cost FROM products WHERE entity_id = $1 AND id = ANY($2::uuid[])', [
    entityId,
    [...ids],
  ]);
}

/** The product–vendor links of the entity among `ids`, with their product. */
export function productVendorsByIds(db: Db, entityId: string, ids: readonly string[]): Promise<{ id: string; product_id: string }[]> {
  return db.query<{ id: string; product_id: string }>('SELECT id, product_id FROM product_vendors WHERE entity_id = $1 AND id = ANY($2::uuid[])', [
    entityId,
    [...ids],
  ]);
}

/** The units of measure of the entity among `ids`, locked (KEY SHARE) until the transaction ends: lines will point at them. */
export async function keySharedUnitsOfMeasure(db: Db, entityId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM units_of_measure WHERE entity_id = $1 AND id = ANY($2::uuid[]) FOR KEY SHARE', [
    entityId,
    [...ids],
  ]);
  return rows.map((row) => row.id);
}

/** Product id → the sku, name and reorder point stock reports show beside a balance. */
export async function productLabels(
  db: Db,
  entityId: string,
  ids: readonly string[],
): Promise<Map<string, { sku: string; name: string; reorder_point: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; sku: string; name: string; reorder_point: string | null }>(
    'SELECT id, sku, name, reorder_point FROM products WHERE entity_id = $1 AND id = ANY($2::uuid[])',
    [entityId, [...new Set(ids)]],
  );
  return new Map(rows.map(({ id, ...label }) => [id, label]));
}

/**
 * Locks the products among `productIds` whose reorder point follows demand (FOR NO KEY UPDATE, in
 * id order) and returns their ids: a stock movement rewrites their reorder point.
 */
export async function lockDemandModeProducts(db: Db, entityId: string, productIds: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM products WHERE entity_id = $1 AND id = ANY($2::uuid[]) AND reorder_point_mode = 'demand' ORDER BY id FOR NO KEY UPDATE`,
    [entityId, [...new Set(productIds)]],
  );
  return rows.map((row) => row.id);
}

/**
 * Named SQL fragments for a report that reads products beside other owners' tables in one statement
 * (the reorder report): the products (alias p) with their preferred vendor link (alias pv, null when
 * none), and the sku_key of the product whose id is the parameter `idParam` (entity $1).
 */
export const PRODUCTS_WITH_PREFERRED_VENDOR_SQL =
  'products p LEFT JOIN product_vendors pv ON pv.entity_id = p.entity_id AND pv.product_id = p.id AND pv.is_preferred';
export const productSkuKeySql = (idParam: string) => `(SELECT c.sku_key FROM products c WHERE c.entity_id = $1 AND c.id = ${idParam})`;
