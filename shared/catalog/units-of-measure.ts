/** SQL for units of measure. */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { lockEntityResource, updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { amount, toJsonNumber } from '../money';
import { UOM_FACTOR_SCALE, type UnitOfMeasure, type UnitOfMeasureCreate, type UnitOfMeasureUpdate } from './schemas/unit-of-measure';

const COLUMNS = `u.id, 'unit_of_measure' AS object, u.entity_id, u.name, u.abbreviation, u.uom_type, u.is_base, u.conversion_factor, u.metadata,
  u.created_at, u.updated_at`;
const EDITABLE = ['name', 'abbreviation', 'conversion_factor', 'metadata'] as const;

type Row = Omit<UnitOfMeasure, 'conversion_factor'> & { conversion_factor: string };
const toUnit = (row: Row): UnitOfMeasure => ({ ...row, conversion_factor: toJsonNumber(row.conversion_factor, UOM_FACTOR_SCALE) });

function abbreviationTaken(error: unknown): never {
  if (isUniqueViolation(error, 'units_of_measure_abbreviation_unique')) throw new ApiError('uom_abbreviation_taken', { param: 'abbreviation' });
  throw error;
}

export async function getUnitOfMeasure(db: Db, entityId: string, uomId: string, options: { lock?: boolean; param?: string } = {}): Promise<UnitOfMeasure> {
  const row = await db.maybeOne<Row>(`SELECT ${COLUMNS} FROM units_of_measure u WHERE u.entity_id = $1 AND u.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    uomId,
  ]);
  if (!row) throw new ApiError('not_found', { param: options.param ?? 'id', hint: 'No such unit of measure in this entity.' });
  return toUnit(row);
}

export async function loadUnitsOfMeasure(db: Db, ids: string[]): Promise<UnitOfMeasure[]> {
  return (await db.query<Row>(`SELECT ${COLUMNS} FROM units_of_measure u WHERE u.id = ANY($1::uuid[])`, [ids])).map(toUnit);
}

export async function createUnitOfMeasure(db: Db, entityId: string, input: UnitOfMeasureCreate): Promise<UnitOfMeasure> {
  // Serialised per entity so that exactly one unit becomes the base of a new type.
  await db.query(lockEntityResource('units_of_measure'));
  const base = await db.maybeOne('SELECT 1 FROM units_of_measure WHERE entity_id = $1 AND uom_type = $2 AND is_base', [entityId, input.uom_type]);
  const isBase = !base;
  if (isBase && input.conversion_factor !== undefined && !amount(input.conversion_factor).eq(1)) {
    throw new ApiError('parameter_invalid', {
      param: 'conversion_factor',
      hint: `This is the first ${input.uom_type} unit, so it becomes the base of its type with conversion_factor 1.`,
    });
  }
  if (!isBase && input.conversion_factor === undefined) {
    throw new ApiError('parameter_missing', {
      param: 'conversion_factor',
      hint: `State how many base ${input.uom_type} units one of this unit holds.`,
    });
  }
  try {
    return toUnit(
      await db.one<Row>(
        `INSERT INTO units_of_measure AS u (id, entity_id, name, abbreviation, uom_type, is_base, conversion_factor, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
        [newId(), entityId, input.name, input.abbreviation, input.uom_type, isBase, isBase ? '1' : input.conversion_factor, input.metadata ?? {}],
      ),
    );
  } catch (error) {
    abbreviationTaken(error);
  }
}

export async function updateUnitOfMeasure(db: Db, entityId: string, uomId: string, patch: UnitOfMeasureUpdate) {
  const before = await getUnitOfMeasure(db, entityId, uomId, { lock: true });
  if (before.is_base && patch.conversion_factor !== undefined && !amount(patch.conversion_factor).eq(1)) {
    throw new ApiError('parameter_invalid', { param: 'conversion_factor', hint: 'The base unit of a type always has conversion_factor 1.' });
  }
  const params: unknown[] = [entityId, uomId];
  const set = updateSet(patch, EDITABLE, params);
  if (!set) return { unit: before, previous: {} };
  try {
    const unit = toUnit(await db.one<Row>(`UPDATE units_of_measure u ${set} WHERE u.entity_id = $1 AND u.id = $2 RETURNING ${COLUMNS}`, params));
    return { unit, previous: previousAttributes(before, unit) };
  } catch (error) {
    abbreviationTaken(error);
  }
}

/** Whether the capabilities above the catalog use a unit: inventory's transactions and orders' lines. */
export interface UnitUseElsewhere {
  has_inventory_transactions: boolean;
  has_order_lines: boolean;
}

/**
 * Refused while a product, an order line (purchase order lines carry the unit they buy in) or an
 * inventory transaction uses the unit, and for the base unit while other units of its type exist.
 * Inventory and orders answer for their records: `useElsewhere` asks them once the unit is locked
 * (the route composes the capabilities).
 */
export async function deleteUnitOfMeasure(db: Db, entityId: string, uomId: string, useElsewhere: () => Promise<UnitUseElsewhere>): Promise<UnitOfMeasure> {
  await db.query(lockEntityResource('units_of_measure'));
  const unit = await getUnitOfMeasure(db, entityId, uomId, { lock: true });
  const usage = await db.one<{ products: string[]; product_count: number }>(
    `SELECT (SELECT coalesce(array_agg(id), '{}') FROM (SELECT id FROM products WHERE entity_id = $1 AND uom_id = $2 ORDER BY id LIMIT 100) p) AS products,
            (SELECT count(*)::int FROM products WHERE entity_id = $1 AND uom_id = $2) AS product_count`,
    [entityId, uomId],
  );
  const elsewhere = await useElsewhere();
  if (usage.product_count > 0 || elsewhere.has_inventory_transactions || elsewhere.has_order_lines) {
    throw new ApiError('uom_in_use', {
      param: 'id',
      details: {
        references: {
          products: usage.products,
          product_count: usage.product_count,
          has_inventory_transactions: elsewhere.has_inventory_transactions,
          has_order_lines: elsewhere.has_order_lines,
        },
      },
    });
  }
  if (unit.is_base) {
    const { others } = await db.one<{ others: number }>(
      'SELECT count(*)::int AS others FROM units_of_measure WHERE entity_id = $1 AND uom_type = $2 AND id <> $3',
      [entityId, unit.uom_type, uomId],
    );
    if (others > 0) throw new ApiError('uom_is_base', { param: 'id' });
  }
  await db.query('DELETE FROM units_of_measure WHERE entity_id = $1 AND id = $2', [entityId, uomId]);
  return unit;
}

export async function listUnitsOfMeasure(db: Db, entityId: string, filters: { uom_type?: string }, page: PageRequest): Promise<Page<UnitOfMeasure>> {
  const where = ['u.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.uom_type !== undefined) {
    params.push(filters.uom_type);
    where.push(`u.uom_type = $${params.length}`);
  }
  const result = await keysetPage<Row>(db, { table: 'units_of_measure', alias: 'u', select: COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toUnit) };
}
