/** SQL for manufacturers. */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import type { Manufacturer, ManufacturerCreate, ManufacturerUpdate } from './schemas/manufacturer';

const COLUMNS = `id, 'manufacturer' AS object, entity_id, name, website, notes, metadata, created_at, updated_at`;
const EDITABLE = ['name', 'website', 'notes', 'metadata'] as const;

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error, 'manufacturers_name_unique')) throw new ApiError('manufacturer_name_taken', { param: 'name' });
  throw error;
}

export async function getManufacturer(db: Db, entityId: string, manufacturerId: string, options: { lock?: boolean } = {}): Promise<Manufacturer> {
  const row = await db.maybeOne<Manufacturer>(`SELECT ${COLUMNS} FROM manufacturers WHERE entity_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    manufacturerId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such manufacturer in this entity.' });
  return row;
}

/** Batch load of manufacturers by id, for expand[]=manufacturer (row level security confines it). */
export function loadManufacturers(db: Db, ids: string[]): Promise<Manufacturer[]> {
  return db.query<Manufacturer>(`SELECT ${COLUMNS} FROM manufacturers WHERE id = ANY($1::uuid[])`, [ids]);
}

export async function createManufacturer(db: Db, entityId: string, input: ManufacturerCreate): Promise<Manufacturer> {
  try {
    return await db.one<Manufacturer>(
      `INSERT INTO manufacturers (id, entity_id, name, website, notes, metadata) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [newId(), entityId, input.name, input.website ?? null, input.notes ?? null, input.metadata ?? {}],
    );
  } catch (error) {
    nameTaken(error);
  }
}

export async function updateManufacturer(db: Db, entityId: string, manufacturerId: string, patch: ManufacturerUpdate) {
  const before = await getManufacturer(db, entityId, manufacturerId, { lock: true });
  const params: unknown[] = [entityId, manufacturerId];
  const set = updateSet(patch, EDITABLE, params);
  if (!set) return { manufacturer: before, previous: {} };
  try {
    const manufacturer = await db.one<Manufacturer>(`UPDATE manufacturers ${set} WHERE entity_id = $1 AND id = $2 RETURNING ${COLUMNS}`, params);
    return { manufacturer, previous: previousAttributes(before, manufacturer) };
  } catch (error) {
    nameTaken(error);
  }
}

export async function deleteManufacturer(db: Db, entityId: string, manufacturerId: string): Promise<Manufacturer> {
  const manufacturer = await getManufacturer(db, entityId, manufacturerId, { lock: true });
  // The manufacturer row is locked, and a product insert or update naming it takes a key-share
  // lock on it through the foreign key, so no product can start referencing it mid-check.
  const usage = await db.one<{ products: string[]; total_count: number }>(
    `SELECT (SELECT coalesce(array_agg(id), '{}') FROM (SELECT id FROM products WHERE entity_id = $1 AND manufacturer_id = $2 ORDER BY id LIMIT 100) p) AS products,
            (SELECT count(*)::int FROM products WHERE entity_id = $1 AND manufacturer_id = $2) AS total_count`,
    [entityId, manufacturerId],
  );
  if (usage.total_count > 0) {
    throw new ApiError('manufacturer_in_use', { param: 'id', details: { references: { products: usage.products, total_count: usage.total_count } } });
  }
  await db.query('DELETE FROM manufacturers WHERE entity_id = $1 AND id = $2', [entityId, manufacturerId]);
  return manufacturer;
}

export function listManufacturers(db: Db, entityId: string, filters: { name?: string }, page: PageRequest): Promise<Page<Manufacturer>> {
  const where = ['m.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.name !== undefined) {
    params.push(filters.name);
    where.push(`lower(m.name) = lower($${params.length})`);
  }
  return keysetPage<Manufacturer>(db, { table: 'manufacturers', alias: 'm', select: COLUMNS, where, params }, page);
}
