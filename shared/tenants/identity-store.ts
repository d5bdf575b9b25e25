/** SQL for entities, their users and their API keys (creating an entity: provision-entity.ts). */
import { generateApiKey, hashApiKey, redactApiKey, type KeyMode } from '../auth/api-key-format';
import type { Db } from '../db/database';
import { isUniqueViolation, withTransaction } from '../db/database';
import { updateSet } from '../db/sql';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import type { ApiKey, ApiKeyUpdate, User } from './schemas/api-key';

/**
 * One row of an account: the live entity, or its test-mode twin (same code, its own id and data).
 * A key acts in the row of its mode.
 */
export interface Entity {
  id: string;
  code: string;
  name: string;
  livemode: boolean;
}

export const ENTITY_COLUMNS = 'id, code, name, livemode';

const USER_COLUMNS = `id, 'user' AS object, entity_id, email, name, permissions, is_active, created_at, updated_at`;
const KEY_COLUMNS = `id, 'api_key' AS object, entity_id, name, mode, redacted_key, scopes, created_by_user_id,
  CASE WHEN revoked_at IS NOT NULL THEN 'revoked' WHEN expires_at IS NOT NULL AND expires_at <= now() THEN 'expired' ELSE 'active' END AS status,
  expires_at, revoked_at, last_used_at, rolled_from_key_id, metadata, created_at, updated_at`;

export interface NewKeyInput {
  userId: string;
  mode: KeyMode;
  scopes: string[];
  name?: string | null;
  expiresAt?: string | null;
  metadata?: Record<string, string>;
  rolledFromKeyId?: string;
}

/** A key acts in the entity of its mode: a test key is stored on (and confined to) the test twin. */
export async function insertApiKey(db: Db, entity: Entity, input: NewKeyInput): Promise<ApiKey & { secret: string }> {
  if (entity.livemode !== (input.mode === 'live')) throw new Error(`a ${input.mode} key cannot act in the ${entity.livemode ? 'live' : 'test'} entity`);
  const secret = generateApiKey(input.mode, entity.code);
  const key = await db.one<ApiKey>(
    `INSERT INTO api_keys (id, entity_id, created_by_user_id, name, mode, key_hash, redacted_key, scopes, expires_at, metadata, rolled_from_key_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${KEY_COLUMNS}`,
    [
      newId(),
      entity.id,
      input.userId,
      input.name ?? null,
      input.mode,
      hashApiKey(secret),
      redactApiKey(secret),
      input.scopes,
      input.expiresAt ?? null,
      input.metadata ?? {},
      input.rolledFromKeyId ?? null,
    ],
  );
  return { ...key, secret };
}

export async function getEntity(db: Db, entityId: string): Promise<Entity> {
  return db.one<Entity>(`SELECT ${ENTITY_COLUMNS} FROM entities WHERE id = $1`, [entityId]);
}

/**
 * Both rows of the account with this code, or undefined. Outside any request (CLI, local server),
 * so it reads as the authenticator, the one role that sees entities across tenants.
 */
export async function accountByCode(code: string): Promise<Record<KeyMode, Entity> | undefined> {
  const rows = await withTransaction({ role: 'app_authenticator', readOnly: true }, (db) =>
    db.query<Entity>(`SELECT ${ENTITY_COLUMNS} FROM entities WHERE code = $1`, [code]),
  );
  const live = rows.find((row) => row.livemode);
  const test = rows.find((row) => !row.livemode);
  return live && test ? { live, test } : undefined;
}

export async function getApiKey(db: Db, entityId: string, keyId: string, options: { lock?: boolean } = {}): Promise<ApiKey> {
  const row = await db.maybeOne<ApiKey>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE entity_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    keyId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such API key in this entity.' });
  return row;
}

export function listApiKeys(
  db: Db,
  entityId: string,
  filters: { mode?: KeyMode; status?: 'active' | 'expired' | 'revoked' },
  page: PageRequest,
): Promise<Page<ApiKey>> {
  const where = ['k.entity_id = $1'];
  const params: unknown[] = [entityId];
  if (filters.mode) {
    params.push(filters.mode);
    where.push(`k.mode = $${params.length}`);
  }
  if (filters.status === 'revoked') where.push('k.revoked_at IS NOT NULL');
  if (filters.status === 'expired') where.push('k.revoked_at IS NULL AND k.expires_at <= now()');
  if (filters.status === 'active') where.push('k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())');
  return keysetPage<ApiKey>(db, { table: 'api_keys', alias: 'k', select: KEY_COLUMNS, where, params }, page);
}

export async function updateApiKey(db: Db, entityId: string, keyId: string, patch: ApiKeyUpdate): Promise<ApiKey> {
  await getApiKey(db, entityId, keyId, { lock: true });
  const params: unknown[] = [entityId, keyId];
  const set = updateSet(patch, ['name', 'metadata'], params);
  if (set) await db.query(`UPDATE api_keys ${set} WHERE entity_id = $1 AND id = $2`, params);
  return getApiKey(db, entityId, keyId);
}

export async function revokeApiKey(db: Db, entityId: string, keyId: string): Promise<ApiKey> {
  const key = await getApiKey(db, entityId, keyId, { lock: true });
  if (key.status === 'revoked') throw new ApiError('api_key_already_revoked', { param: 'id' });
  await db.query('UPDATE api_keys SET revoked_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, keyId]);
  return getApiKey(db, entityId, keyId);
}

/**
 * Issues a replacement with the same name, mode, scopes and user, and lets the old key live
 * for `graceSeconds` more (0: it stops now).
 */
export async function rollApiKey(db: Db, entityId: string, keyId: string, graceSeconds: number) {
  const old = await getApiKey(db, entityId, keyId, { lock: true });
  if (old.status !== 'active') {
    throw new ApiError('api_key_already_revoked', { param: 'id', hint: `This API key is ${old.status}; only an active key can be rolled.` });
  }
  const entity = await getEntity(db, entityId);
  const replacement = await insertApiKey(db, entity, {
    userId: old.created_by_user_id,
    mode: old.mode,
    scopes: old.scopes,
    name: old.name,
    metadata: old.metadata,
    rolledFromKeyId: old.id,
  });
  await db.query(
    `UPDATE api_keys SET expires_at = LEAST(coalesce(expires_at, 'infinity'), now() + make_interval(secs => $3)), updated_at = now()
      WHERE entity_id = $1 AND id = $2`,
    [entityId, keyId, graceSeconds],
  );
  return { replacement, old: await getApiKey(db, entityId, keyId) };
}

export async function usersByIds(db: Db, ids: string[]): Promise<User[]> {
  return db.query<User>(`SELECT ${USER_COLUMNS} FROM users WHERE entity_id = current_entity_id() AND id = ANY($1::uuid[])`, [ids]);
}

/** A user row in one entity; `id` mirrors an existing user into the account's other mode (provision-entity.ts). */
export async function insertUser(db: Db, entityId: string, input: { id?: string; email: string; name: string; permissions: string[] }): Promise<User> {
  try {
    return await db.one<User>(`INSERT INTO users (id, entity_id, email, name, permissions) VALUES ($1, $2, $3, $4, $5) RETURNING ${USER_COLUMNS}`, [
      input.id ?? newId(),
      entityId,
      input.email,
      input.name,
      input.permissions,
    ]);
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_unique')) throw new Error(`a user with email ${input.email} already exists in this entity`, { cause: error });
    throw error;
  }
}

/** Runs work in one entity's scope outside any request (CLI, tests). */
export function inEntity<T>(entityId: string, work: (db: Db) => Promise<T>): Promise<T> {
  return withTransaction({ role: 'app_user', entityId }, work);
}
