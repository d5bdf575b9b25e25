/** SQL for coupons (the resource). Redeeming one on a document is in coupon-redemptions.ts. */
import type { Db } from '../db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../db/database';
import { updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { amount, toJsonNumber } from '../money';
import type { Coupon, CouponCreate, CouponUpdate } from './schemas/coupon';
import { isoTimestamp } from '../dates';

const COUPON_COLUMNS = `c.id, 'coupon' AS object, c.entity_id, c.code, c.name, c.discount_type, c.value, c.valid_from, c.valid_until,
  c.max_redemptions, c.max_redemptions_per_account, c.times_redeemed, c.min_order_subtotal, c.is_active, c.metadata, c.created_at, c.updated_at`;
const EDITABLE = [
  'code',
  'name',
  'discount_type',
  'value',
  'valid_from',
  'valid_until',
  'max_redemptions',
  'max_redemptions_per_account',
  'min_order_subtotal',
  'is_active',
  'metadata',
] as const;

type CouponRow = Omit<Coupon, 'value' | 'min_order_subtotal' | 'valid_from' | 'valid_until' | 'created_at' | 'updated_at'> & {
  value: string;
  min_order_subtotal: string | null;
  valid_from: Date | string | null;
  valid_until: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const toCoupon = (row: CouponRow): Coupon => ({
  ...row,
  value: toJsonNumber(row.value, 4),
  min_order_subtotal: row.min_order_subtotal === null ? null : toJsonNumber(row.min_order_subtotal),
  valid_from: row.valid_from === null ? null : isoTimestamp(row.valid_from),
  valid_until: row.valid_until === null ? null : isoTimestamp(row.valid_until),
  created_at: isoTimestamp(row.created_at),
  updated_at: isoTimestamp(row.updated_at),
});

function codeTaken(error: unknown): never {
  if (isUniqueViolation(error, 'coupons_code_unique')) throw new ApiError('coupon_code_taken', { param: 'code' });
  throw error;
}

interface Terms {
  discount_type: string;
  value: string;
  valid_from: string | null;
  valid_until: string | null;
  max_redemptions: number | null;
  times_redeemed: number;
}

/** The rules across fields: a percentage is at most 100, a fixed amount has cents, the window is ordered. */
function checkTerms(terms: Terms, changed: (field: string) => boolean) {
  const valueParam = changed('value') ? 'value' : 'discount_type';
  if (terms.discount_type === 'percentage' && amount(terms.value).gt(100)) {
    throw new ApiError('parameter_invalid', { param: valueParam, hint: 'A percentage coupon is at most 100.' });
  }
  if (terms.discount_type === 'fixed_amount' && amount(terms.value).decimalPlaces() > 2) {
    throw new ApiError('parameter_invalid', { param: valueParam, hint: 'A fixed amount has at most 2 decimal places.' });
  }
  if (terms.valid_from && terms.valid_until && new Date(terms.valid_until).getTime() <= new Date(terms.valid_from).getTime()) {
    throw new ApiError('parameter_invalid', { param: changed('valid_until') ? 'valid_until' : 'valid_from', hint: 'valid_until must be after valid_from.' });
  }
  if (terms.max_redemptions !== null && terms.max_redemptions < terms.times_redeemed) {
    throw new ApiError('parameter_invalid', {
      param: 'max_redemptions',
      hint: `The coupon was already redeemed ${terms.times_redeemed} times; max_redemptions cannot be lower.`,
    });
  }
}

export async function getCoupon(db: Db, entityId: string, couponId: string, options: { lock?: boolean } = {}): Promise<Coupon> {
  const row = await db.maybeOne<CouponRow>(`SELECT ${COUPON_COLUMNS} FROM coupons c WHERE c.entity_id = $1 AND c.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    couponId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such coupon in this entity.' });
  return toCoupon(row);
}

export async function createCoupon(db: Db, entityId: string, input: CouponCreate): Promise<Coupon> {
  checkTerms(
    {
      discount_type: input.discount_type,
      value: input.value,
      valid_from: input.valid_from ?? null,
      valid_until: input.valid_until ?? null,
      max_redemptions: input.max_redemptions ?? null,
      times_redeemed: 0,
    },
    (field) => field in input,
  );
  try {
    const row = await db.one<CouponRow>(
      `INSERT INTO coupons AS c (id, entity_id, code, name, discount_type, value, valid_from, valid_until, max_redemptions, max_redemptions_per_account,
         min_order_subtotal, is_active, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COUPON_COLUMNS}`,
      [
        newId(),
        entityId,
        input.code,
        input.name ?? input.code,
        input.discount_type,
        input.value,
        input.valid_from ?? null,
        input.valid_until ?? null,
        input.max_redemptions ?? null,
        input.max_redemptions_per_account ?? null,
        input.min_order_subtotal ?? null,
        input.is_active ?? true,
        input.metadata ?? {},
      ],
    );
    return toCoupon(row);
  } catch (error) {
    codeTaken(error);
  }
}

/**
 * Changes a coupon. Documents that already carry it keep the terms they were given (their adjustment
 * copied discount_type and value); the new terms apply to redemptions from now on.
 */
export async function updateCoupon(db: Db, entityId: string, couponId: string, patch: CouponUpdate): Promise<{ coupon: Coupon; previous: Partial<Coupon> }> {
  const before = await getCoupon(db, entityId, couponId, { lock: true });
  const pick = <K extends keyof CouponUpdate>(key: K, current: unknown) => (patch[key] === undefined ? current : patch[key]);
  checkTerms(
    {
      discount_type: pick('discount_type', before.discount_type) as string,
      value: String(pick('value', before.value)),
      valid_from: pick('valid_from', before.valid_from) as string | null,
      valid_until: pick('valid_until', before.valid_until) as string | null,
      max_redemptions: pick('max_redemptions', before.max_redemptions) as number | null,
      times_redeemed: before.times_redeemed,
    },
    (field) => field in patch,
  );
  const params: unknown[] = [entityId, couponId];
  const set = updateSet(patch, EDITABLE, params);
  if (!set) return { coupon: before, previous: {} };
  try {
    const row = await db.one<CouponRow>(`UPDATE coupons c ${set} WHERE c.entity_id = $1 AND c.id = $2 RETURNING ${COUPON_COLUMNS}`, params);
    const coupon = toCoupon(row);
    return { coupon, previous: previousAttributes(before, coupon) };
  } catch (error) {
    codeTaken(error);
  }
}

/** Deletes a coupon no document carries; one that was applied is 409 coupon_in_use (deactivate it instead). */
export async function deleteCoupon(db: Db, entityId: string, couponId: string): Promise<Coupon> {
  const coupon = await getCoupon(db, entityId, couponId, { lock: true });
  const { documents } = await db.one<{ documents: number }>(
    `SELECT count(DISTINCT order_id)::int AS documents FROM (
       SELECT order_id FROM order_adjustments WHERE entity_id = $1 AND coupon_id = $2
       UNION ALL SELECT order_id FROM coupon_redemptions WHERE entity_id = $1 AND coupon_id = $2) u`,
    [entityId, couponId],
  );
  if (documents > 0) throw new ApiError('coupon_in_use', { param: 'id', details: { references: { orders: documents } } });
  try {
    await db.query('DELETE FROM coupons WHERE entity_id = $1 AND id = $2', [entityId, couponId]);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new ApiError('coupon_in_use', { param: 'id' });
    throw error;
  }
  return coupon;
}

export interface CouponFilters {
  is_active?: boolean;
  code?: string;
}

export async function listCoupons(db: Db, entityId: string, filters: CouponFilters, page: PageRequest): Promise<Page<Coupon>> {
  const where = ['c.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.is_active !== undefined) {
    params.push(filters.is_active);
    where.push(`c.is_active = $${params.length}`);
  }
  if (filters.code !== undefined) {
    params.push(filters.code);
    where.push(`lower(c.code) = lower($${params.length})`);
  }
  const result = await keysetPage<CouponRow>(db, { table: 'coupons', alias: 'c', select: COUPON_COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toCoupon) };
}
