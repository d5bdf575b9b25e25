/**
 * SQL for tax rates. A line copies the rate when its tax_rate_id is set (order-line-insert.ts, update-line.ts), so
 * changing a rate here never changes a line, a total or a posted invoice; deleting is for unused
 * rates only (a rate lines reference is deactivated instead).
 */
import type { Db } from '../db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../db/database';
import { updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { toJsonNumber } from '../money';
import type { TaxRate, TaxRateCreate, TaxRateUpdate } from './schemas/tax-rate';
import { isoTimestamp } from '../dates';

const COLUMNS = `t.id, 'tax_rate' AS object, t.entity_id, t.name, t.rate, t.description, t.is_active, t.metadata, t.created_at, t.updated_at`;
const EDITABLE = ['name', 'rate', 'description', 'is_active', 'metadata'] as const;

type TaxRateRow = Omit<TaxRate, 'rate' | 'created_at' | 'updated_at'> & { rate: string; created_at: Date | string; updated_at: Date | string };

const toTaxRate = (row: TaxRateRow): TaxRate => ({
  ...row,
  rate: toJsonNumber(row.rate, 4),
  created_at: isoTimestamp(row.created_at),
  updated_at: isoTimestamp(row.updated_at),
});

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error, 'tax_rates_name_unique')) throw new ApiError('tax_rate_name_taken', { param: 'name' });
  throw error;
}

export async function getTaxRate(db: Db, entityId: string, taxRateId: string, options: { lock?: boolean } = {}): Promise<TaxRate> {
  const row = await db.maybeOne<TaxRateRow>(`SELECT ${COLUMNS} FROM tax_rates t WHERE t.entity_id = $1 AND t.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    taxRateId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such tax rate in this entity.' });
  return toTaxRate(row);
}

export async function createTaxRate(db: Db, entityId: string, input: TaxRateCreate): Promise<TaxRate> {
  try {
    const row = await db.one<TaxRateRow>(
      `INSERT INTO tax_rates AS t (id, entity_id, name, rate, description, is_active, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [newId(), entityId, input.name, input.rate, input.description ?? null, input.is_active ?? true, input.metadata ?? {}],
    );
    return toTaxRate(row);
  } catch (error) {
    nameTaken(error);
  }
}

export async function updateTaxRate(
  db: Db,
  entityId: string,
  taxRateId: string,
  patch: TaxRateUpdate,
): Promise<{ taxRate: TaxRate; previous: Partial<TaxRate> }> {
  const before = await getTaxRate(db, entityId, taxRateId, { lock: true });
  const params: unknown[] = [entityId, taxRateId];
  const set = updateSet(patch, EDITABLE, params);
  if (!set) return { taxRate: before, previous: {} };
  try {
    const row = await db.one<TaxRateRow>(`UPDATE tax_rates t ${set} WHERE t.entity_id = $1 AND t.id = $2 RETURNING ${COLUMNS}`, params);
    const taxRate = toTaxRate(row);
    return { taxRate, previous: previousAttributes(before, taxRate) };
  } catch (error) {
    nameTaken(error);
  }
}

/** Deletes a rate no line uses; a rate in use is 409 tax_rate_in_use (deactivate it instead). */
export async function deleteTaxRate(db: Db, entityId: string, taxRateId: string): Promise<TaxRate> {
  const taxRate = await getTaxRate(db, entityId, taxRateId, { lock: true });
  const { lines } = await db.one<{ lines: number }>('SELECT count(*)::int AS lines FROM order_lines WHERE entity_id = $1 AND tax_rate_id = $2', [
    entityId,
    taxRateId,
  ]);
  if (lines > 0) throw new ApiError('tax_rate_in_use', { param: 'id', details: { references: { order_lines: lines } } });
  try {
    await db.query('DELETE FROM tax_rates WHERE entity_id = $1 AND id = $2', [entityId, taxRateId]);
  } catch (error) {
    // A line added by a concurrent transaction since the count.
    if (isForeignKeyViolation(error)) throw new ApiError('tax_rate_in_use', { param: 'id' });
    throw error;
  }
  return taxRate;
}

export interface TaxRateFilters {
  is_active?: boolean;
}

export async function listTaxRates(db: Db, entityId: string, filters: TaxRateFilters, page: PageRequest): Promise<Page<TaxRate>> {
  const where = ['t.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.is_active !== undefined) {
    params.push(filters.is_active);
    where.push(`t.is_active = $${params.length}`);
  }
  const result = await keysetPage<TaxRateRow>(db, { table: 'tax_rates', alias: 't', select: COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toTaxRate) };
}
