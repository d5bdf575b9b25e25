/** SQL for locations. Every statement also filters by entity (row level security is the second wall). */
import type { Db } from '../db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../db/database';
import { lockEntityResource, updateSet } from '../db/sql';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { previousAttributes } from '../events/outbox';
import { newId } from '../ids';
import type { Location, LocationCreate, LocationUpdate } from './schemas/location';

const COLUMNS = `id, 'location' AS object, entity_id, name, address1, address2, city, state, postal_code, country, phone,
  is_active, is_default, metadata, created_at, updated_at`;
const EDITABLE = ['name', 'address1', 'address2', 'city', 'state', 'postal_code', 'country', 'phone', 'is_active', 'metadata'] as const;

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error, 'locations_name_unique')) throw new ApiError('location_name_taken', { param: 'name' });
  throw error;
}

export async function getLocation(db: Db, entityId: string, locationId: string, options: { lock?: boolean } = {}): Promise<Location> {
  const row = await db.maybeOne<Location>(`SELECT ${COLUMNS} FROM locations WHERE entity_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    locationId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such location in this entity.' });
  return row;
}

/** That the location exists in the entity, without loading it. */
/**
 * 404 on `param` unless the location exists in the entity. `lock` takes a KEY SHARE lock, so a
 * document that references the location cannot lose it to a concurrent delete before it is written.
 */
export async function checkLocation(db: Db, entityId: string, locationId: string, options: { param?: string; lock?: boolean } = {}): Promise<void> {
  const { param = 'location_id', lock = false } = options;
  const found = await db.maybeOne(`SELECT 1 FROM locations WHERE entity_id = $1 AND id = $2${lock ? ' FOR KEY SHARE' : ''}`, [entityId, locationId]);
  if (!found) throw new ApiError('not_found', { param, hint: 'No such location in this entity.' });
}

/** A subquery of the default location's id of the entity `entityId` (SQL) names, null when it has none. */
export const defaultLocationIdSql = (entityId: string): string => `(SELECT id FROM locations WHERE entity_id = ${entityId} AND is_default)`;

/**
 * A LEFT JOIN of the entity's default location as `alias`, made only for rows whose own location
 * (`locationColumn`) is null: other capabilities' queries fall back to it with
 * coalesce(locationColumn, alias.id).
 */
export function defaultLocationJoinSql(alias: string, locationColumn: string, entityColumn: string): string {
  return `LEFT JOIN locations ${alias} ON ${locationColumn} IS NULL AND ${alias}.entity_id = ${entityColumn} AND ${alias}.is_default`;
}

export async function createLocation(db: Db, entityId: string, input: LocationCreate): Promise<Location> {
  // Serialise location writes of this entity so "the first location becomes the default" holds
  // when two first locations are created at once.
  await db.query(lockEntityResource('locations'));
  const { count } = await db.one<{ count: number }>('SELECT count(*)::int AS count FROM locations WHERE entity_id = $1', [entityId]);
  const isDefault = count === 0 || input.is_default === true;
  if (isDefault && count > 0) await db.query('UPDATE locations SET is_default = false, updated_at = now() WHERE entity_id = $1 AND is_default', [entityId]);
  if (count === 0 && input.is_active === false) {
    throw new ApiError('location_is_default', { param: 'is_active', hint: 'The first location becomes the default and must be active.' });
  }
  try {
    return await db.one<Location>(
      `INSERT INTO locations (id, entity_id, name, address1, address2, city, state, postal_code, country, phone, is_active, is_default, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
      [
        newId(),
        entityId,
        input.name,
        input.address1 ?? null,
        input.address2 ?? null,
        input.city ?? null,
        input.state ?? null,
        input.postal_code ?? null,
        input.country ?? null,
        input.phone ?? null,
        input.is_active ?? true,
        isDefault,
        input.metadata ?? {},
      ],
    );
  } catch (error) {
    nameTaken(error);
  }
}

export async function updateLocation(
  db: Db,
  entityId: string,
  locationId: string,
  patch: LocationUpdate,
): Promise<{ location: Location; previous: Partial<Location> }> {
  await db.query(lockEntityResource('locations'));
  const before = await getLocation(db, entityId, locationId, { lock: true });
  if (before.is_default && patch.is_active === false) {
    throw new ApiError('location_is_default', {
      param: 'is_active',
      hint: 'The default location cannot be deactivated; make another location the default first.',
    });
  }
  if (patch.is_default && !before.is_default) {
    if (patch.is_active === false || (!before.is_active && patch.is_active !== true)) {
      throw new ApiError('parameter_invalid', { param: 'is_default', hint: 'An inactive location cannot be the default.' });
    }
    await db.query('UPDATE locations SET is_default = false, updated_at = now() WHERE entity_id = $1 AND is_default', [entityId]);
    await db.query('UPDATE locations SET is_default = true, updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, locationId]);
  }
  const params: unknown[] = [entityId, locationId];
  const set = updateSet(patch, EDITABLE, params);
  let location = before;
  try {
    if (set) location = await db.one<Location>(`UPDATE locations ${set} WHERE entity_id = $1 AND id = $2 RETURNING ${COLUMNS}`, params);
    else if (patch.is_default) location = await getLocation(db, entityId, locationId);
  } catch (error) {
    nameTaken(error);
  }
  return { location, previous: previousAttributes(before, location) };
}

export async function deleteLocation(db: Db, entityId: string, locationId: string): Promise<Location> {
  await db.query(lockEntityResource('locations'));
  const location = await getLocation(db, entityId, locationId, { lock: true });
  if (location.is_default) {
    const { others } = await db.one<{ others: number }>('SELECT count(*)::int AS others FROM locations WHERE entity_id = $1 AND id <> $2', [
      entityId,
      locationId,
    ]);
    if (others > 0) throw new ApiError('location_is_default', { param: 'id' });
  }
  try {
    await db.query('DELETE FROM locations WHERE entity_id = $1 AND id = $2', [entityId, locationId]);
  } catch (error) {
    // Whatever references a location (stock, transactions, and later documents) keeps it: history
    // must keep pointing somewhere. The referencing table names the kind of record in the way.
    if (isForeignKeyViolation(error)) {
      throw new ApiError('location_in_use', { param: 'id', details: { references: { table: (error as { table?: string }).table ?? null } } });
    }
    throw error;
  }
  return location;
}

export interface LocationFilters {
  is_active?: boolean;
}

export function listLocations(db: Db, entityId: string, filters: LocationFilters, page: PageRequest): Promise<Page<Location>> {
  const where = ['l.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.is_active !== undefined) {
    params.push(filters.is_active);
    where.push(`l.is_active = $${params.length}`);
  }
  return keysetPage<Location>(db, { table: 'locations', alias: 'l', select: COLUMNS, where, params }, page);
}
