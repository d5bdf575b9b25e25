/** SQL for product options (E11: a product's named choices, e.g. Size: S, M, L, in display order). */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { ProductOption, ProductOptionCreate } from './schemas/product-option';
import { requireProduct } from './products';

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
