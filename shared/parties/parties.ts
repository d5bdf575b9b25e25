/**
 * SQL for the two party tables, customer accounts and vendors. They share columns and rules, so
 * one module serves both; the table name is chosen from a closed set, never from input.
 */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { entityFilters, likeEscape, updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import type { Party, PartyCreate, PartyUpdate } from './schemas/party';

export type PartyKind = 'account' | 'vendor';
const TABLES: Record<PartyKind, { table: string; label: string }> = {
  account: { table: 'accounts', label: 'account' },
  vendor: { table: 'vendors', label: 'vendor' },
};

const FIELDS = [
  'name',
  'account_number',
  'email',
  'phone',
  'address1',
  'address2',
  'city',
  'state',
  'postal_code',
  'country',
  'tax_exempt',
  'currency',
  'notes',
  'metadata',
  'external_source',
  'external_id',
] as const;

const columns = (kind: PartyKind) =>
  `x.id, '${kind}' AS object, x.entity_id, ${FIELDS.map((f) => `x.${f}`).join(', ')}, x.is_archived, x.archived_at, x.migration_batch_id, x.imported_at,
  x.created_at, x.updated_at`;

function writeError(kind: PartyKind, error: unknown): never {
  const { table } = TABLES[kind];
  if (isUniqueViolation(error, `${table}_number_unique`)) throw new ApiError('account_number_taken', { param: 'account_number' });
  if (isUniqueViolation(error, `${table}_external_unique`)) throw new ApiError('external_id_taken', { param: 'external_id' });
  throw error;
}

export async function getParty(db: Db, kind: PartyKind, entityId: string, partyId: string, options: { lock?: boolean; param?: string } = {}): Promise<Party> {
  const { table, label } = TABLES[kind];
  const row = await db.maybeOne<Party>(`SELECT ${columns(kind)} FROM ${table} x WHERE x.entity_id = $1 AND x.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    partyId,
  ]);
  if (!row) throw new ApiError('not_found', { param: options.param ?? 'id', hint: `No such ${label} in this entity.` });
  return row;
}

export async function loadParties(db: Db, kind: PartyKind, ids: string[]): Promise<Party[]> {
  return db.query<Party>(`SELECT ${columns(kind)} FROM ${TABLES[kind].table} x WHERE x.id = ANY($1::uuid[])`, [ids]);
}

/** The number of parties of a kind an import batch holds, for each batch id `b.id` of the outer query (entity $1). */
export const importedPartiesCount = (kind: PartyKind) =>
  `SELECT count(*)::int FROM ${TABLES[kind].table} t WHERE t.entity_id = $1 AND t.migration_batch_id = b.id`;

/** The batch's parties of a kind, locked, oldest first (rolling back an import batch: shared/migration/batch-rollback.ts). */
export async function lockPartiesOfImportBatch(db: Db, kind: PartyKind, entityId: string, batchId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM ${TABLES[kind].table} WHERE entity_id = $1 AND migration_batch_id = $2 ORDER BY created_at, id FOR UPDATE`,
    [entityId, batchId],
  );
  return rows.map((row) => row.id);
}

/** Deletes imported parties of a kind; a foreign key still pointing at one fails the statement. */
export async function deleteImportedParties(db: Db, kind: PartyKind, entityId: string, ids: string[]): Promise<void> {
  await db.query(`DELETE FROM ${TABLES[kind].table} WHERE entity_id = $1 AND id = ANY($2)`, [entityId, ids]);
}

/** A party a document is about to name: its tax exemption and archive state, locked (KEY SHARE) until the transaction ends; undefined when the entity has none. */
export function keySharedParty(db: Db, kind: PartyKind, entityId: string, partyId: string): Promise<{ tax_exempt: boolean; is_archived: boolean } | undefined> {
  return db.maybeOne<{ tax_exempt: boolean; is_archived: boolean }>(
    `SELECT tax_exempt, is_archived FROM ${TABLES[kind].table} WHERE entity_id = $1 AND id = $2 FOR KEY SHARE`,
    [entityId, partyId],
  );
}

/** Those of the ids that are parties of a kind in the entity. */
export async function existingPartyIds(db: Db, kind: PartyKind, entityId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM ${TABLES[kind].table} WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [entityId, [...ids]]);
  return rows.map((row) => row.id);
}

/** A named SQL fragment: the name of the vendor whose id is the SQL expression `vendorId` (entity $1; null when none). */
export const vendorNameSql = (vendorId: string) => `(SELECT v.name FROM vendors v WHERE v.entity_id = $1 AND v.id = ${vendorId})`;

/** Whether the entity has this party. */
export async function hasParty(db: Db, kind: PartyKind, entityId: string, partyId: string): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM ${TABLES[kind].table} WHERE entity_id = $1 AND id = $2`, [entityId, partyId])) !== undefined;
}

/** The names of these parties of the entity, ordered by name then id (unknown ids are left out). */
/** SQL over $1 (entity) selecting (id, name) of the entity's parties of a kind: for a report that orders or pages its rows by party name. */
export const partyNamesSql = (kind: PartyKind): string => `SELECT x.id, x.name FROM ${TABLES[kind].table} x WHERE x.entity_id = $1`;

export function partyNamesInOrder(db: Db, kind: PartyKind, entityId: string, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  return db.query<{ id: string; name: string }>(
    `SELECT x.id, x.name FROM ${TABLES[kind].table} x WHERE x.entity_id = $1 AND x.id = ANY($2::uuid[]) ORDER BY x.name, x.id`,
    [entityId, [...new Set(ids)]],
  );
}

/**
 * A create whose (external_source, external_id) is already in the entity is a 409 naming the
 * existing party (existing_id), so an import re-run can skip it. Checked before the insert: a
 * unique violation would abort the transaction before the existing id could be read.
 */
async function refuseTakenExternalId(db: Db, kind: PartyKind, entityId: string, input: PartyCreate): Promise<void> {
  if (input.external_id == null) return;
  const existing = await db.maybeOne<{ id: string }>(
    `SELECT id FROM ${TABLES[kind].table} WHERE entity_id = $1 AND coalesce(external_source, '') = coalesce($2, '') AND external_id = $3`,
    [entityId, input.external_source ?? null, input.external_id],
  );
  if (existing) throw new ApiError('external_id_taken', { param: 'external_id', details: { existing_id: existing.id } });
}

export async function createParty(db: Db, kind: PartyKind, entityId: string, input: PartyCreate & { imported_at?: string }): Promise<Party> {
  const values = FIELDS.map((field) => {
    const value = input[field];
    if (value !== undefined) return value;
    return field === 'tax_exempt' ? false : field === 'currency' ? 'USD' : field === 'metadata' ? {} : null;
  });
  values.push(input.migration_batch_id ?? null, input.imported_at ?? null);
  const placeholders = values.map((_, index) => `$${index + 3}`).join(', ');
  await refuseTakenExternalId(db, kind, entityId, input);
  try {
    return await db.one<Party>(
      `INSERT INTO ${TABLES[kind].table} AS x (id, entity_id, ${FIELDS.join(', ')}, migration_batch_id, imported_at) VALUES ($1, $2, ${placeholders})
       RETURNING ${columns(kind)}`,
      [newId(), entityId, ...values],
    );
  } catch (error) {
    writeError(kind, error);
  }
}

export async function updateParty(db: Db, kind: PartyKind, entityId: string, partyId: string, patch: PartyUpdate & { is_archived?: boolean }) {
  const before = await getParty(db, kind, entityId, partyId, { lock: true });
  const params: unknown[] = [entityId, partyId];
  let set = updateSet(patch, FIELDS, params);
  if (patch.is_archived !== undefined && patch.is_archived !== before.is_archived) {
    const archive = patch.is_archived ? 'is_archived = true, archived_at = now()' : 'is_archived = false, archived_at = NULL';
    set = set ? `${set}, ${archive}` : `SET ${archive}, updated_at = now()`;
  }
  if (!set) return { party: before, previous: {} };
  try {
    const party = await db.one<Party>(`UPDATE ${TABLES[kind].table} x ${set} WHERE x.entity_id = $1 AND x.id = $2 RETURNING ${columns(kind)}`, params);
    return { party, previous: previousAttributes(before, party) };
  } catch (error) {
    writeError(kind, error);
  }
}

export interface PartyFilters {
  is_archived?: boolean;
  email?: string;
  account_number?: string;
  external_id?: string;
  q?: string;
}

export async function listParties(db: Db, kind: PartyKind, entityId: string, filters: PartyFilters, page: PageRequest): Promise<Page<Party>> {
  const { where, params, add } = entityFilters('x', entityId);
  add((n) => `x.is_archived = ${n}`, filters.is_archived);
  add((n) => `lower(x.email) = lower(${n})`, filters.email);
  add((n) => `lower(x.account_number) = lower(${n})`, filters.account_number);
  add((n) => `x.external_id = ${n}`, filters.external_id);
  if (filters.q !== undefined) add((n) => `lower(x.name) LIKE ${n}`, `%${likeEscape(filters.q)}%`);
  const { table } = TABLES[kind];
  return keysetPage<Party>(db, { table, alias: 'x', select: columns(kind), where, params }, page);
}
