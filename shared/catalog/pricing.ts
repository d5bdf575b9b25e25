/**
 * SQL for pricing levels (named price lists such as Wholesale) and pricing policies (a product's
 * price for a level, an account or a quantity tier).
 */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { amount, PRICE_SCALE, QUANTITY_SCALE, round, toJsonNumber, toNullableJsonNumber } from '../money';
import type { PricingLevel, PricingLevelCreate, PricingPolicy, PricingPolicyCreate } from './schemas/pricing';
import { hasParty } from '../parties/parties';

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
  list_price: toNullableJsonNumber(row.list_price, PRICE_SCALE),
  adjustment: toNullableJsonNumber(row.adjustment, PRICE_SCALE),
  margin_pct: toNullableJsonNumber(row.margin_pct, 2),
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
function derivePricing(sellPrice: string, listPrice: string | null, cost: string | null) {
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
    if (!(await hasParty(db, 'account', entityId, input.account_id)))
      throw new ApiError('not_found', { param: 'account_id', hint: 'No such account in this entity.' });
  }
  if (input.external_id != null) {
    // Checked before the insert (a unique violation would abort the transaction before the existing id could be read).
    const existing = await db.maybeOne<{ id: string }>(
      `SELECT id FROM pricing_policies WHERE entity_id = $1 AND coalesce(external_source, '') = coalesce($2, '') AND external_id = $3`,
      [entityId, input.external_source ?? null, input.external_id],
    );
    if (existing) throw new ApiError('external_id_taken', { param: 'external_id', details: { existing_id: existing.id } });
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
    if (isUniqueViolation(error, 'pricing_policies_external_unique')) throw new ApiError('external_id_taken', { param: 'external_id' });
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
  const result = await keysetPage<PolicyRow>(db, { table: 'pricing_policies', alias: 'pp', joins: POLICY_JOINS, select: POLICY_COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toPolicy) };
}
