/** SQL for product-vendor relationships: who supplies a product, on what terms, and which vendor is preferred. */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { PRICE_SCALE, QUANTITY_SCALE, toJsonNumber, toNullableJsonNumber } from '../money';
import type { ProductVendor, ProductVendorCreate, ProductVendorUpdate } from './schemas/product-vendor';
import { requireProduct } from './products';
import { hasParty, partyNamesInOrder } from '../parties/parties';

const PV_COLUMNS = `pv.id, 'product_vendor' AS object, pv.entity_id, pv.product_id, pv.vendor_id, NULL::text AS vendor_name, pv.vendor_sku, pv.vendor_cost,
  pv.lead_time_days, pv.order_multiple, pv.minimum_order_quantity, pv.is_preferred, pv.metadata, pv.created_at, pv.updated_at`;
// vendor_name is the vendor's (parties), filled in by withVendorNames.
const PV_FROM = 'product_vendors pv';
const PV_EDITABLE = ['vendor_sku', 'vendor_cost', 'lead_time_days', 'order_multiple', 'minimum_order_quantity', 'is_preferred', 'metadata'] as const;

type PvRow = Omit<ProductVendor, 'vendor_cost' | 'order_multiple' | 'minimum_order_quantity'> & {
  vendor_cost: string | null;
  order_multiple: string;
  minimum_order_quantity: string | null;
};
const toProductVendor = (row: PvRow): ProductVendor => ({
  ...row,
  vendor_cost: toNullableJsonNumber(row.vendor_cost, PRICE_SCALE),
  order_multiple: toJsonNumber(row.order_multiple, QUANTITY_SCALE),
  minimum_order_quantity: toNullableJsonNumber(row.minimum_order_quantity, QUANTITY_SCALE),
});

/** The rows with their vendors' names. */
async function withVendorNames(db: Db, entityId: string, rows: PvRow[]): Promise<ProductVendor[]> {
  const names = new Map(
    (
      await partyNamesInOrder(
        db,
        'vendor',
        entityId,
        rows.map((row) => row.vendor_id),
      )
    ).map(({ id, name }) => [id, name]),
  );
  return rows.map((row) => toProductVendor({ ...row, vendor_name: names.get(row.vendor_id)! }));
}

export async function getProductVendor(db: Db, entityId: string, productId: string, pvId: string, options: { lock?: boolean } = {}): Promise<ProductVendor> {
  await requireProduct(db, entityId, productId);
  const row = await db.maybeOne<PvRow>(
    `SELECT ${PV_COLUMNS} FROM ${PV_FROM} WHERE pv.entity_id = $1 AND pv.product_id = $2 AND pv.id = $3 ${options.lock ? 'FOR UPDATE OF pv' : ''}`,
    [entityId, productId, pvId],
  );
  if (!row) throw new ApiError('not_found', { param: 'pvid', hint: 'No such vendor relationship on this product.' });
  return (await withVendorNames(db, entityId, [row]))[0];
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
  if (!(await hasParty(db, 'vendor', entityId, input.vendor_id)))
    throw new ApiError('not_found', { param: 'vendor_id', hint: 'No such vendor in this entity.' });
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
  return { object: 'list' as const, data: await withVendorNames(db, entityId, rows), has_more: false };
}
