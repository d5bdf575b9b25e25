/**
 * The cutover freeze and the cutover log. While an entity has a row in entity_freezes, every
 * mutating request of a key without migration:admin is refused by the data layer as it opens the
 * request's transaction (the frozen check of beginStatement, 409 entity_frozen); reads continue.
 */
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { CutoverFreeze, CutoverLogEntry } from './schemas/cutover';

export interface CutoverActor {
  keyId: string;
  requestId: string;
}

export async function appendCutoverLog(
  db: Db,
  entityId: string,
  actor: CutoverActor,
  entry: { action: CutoverLogEntry['action']; freezeToken: string | null; description?: string | null },
): Promise<string> {
  const id = newId();
  await db.query(`INSERT INTO cutover_log (id, entity_id, action, freeze_token, api_key_id, request_id, description) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    id,
    entityId,
    entry.action,
    entry.freezeToken,
    actor.keyId,
    actor.requestId,
    entry.description ?? null,
  ]);
  return id;
}

export async function freezeEntity(db: Db, entityId: string, actor: CutoverActor, description?: string): Promise<CutoverFreeze> {
  const token = newId();
  const logId = newId();
  // The log row goes in with the freeze, in one statement; a freeze in force leaves both untouched.
  const row = await db.maybeOne<{ frozen_at: string }>(
    `WITH frozen AS (
       INSERT INTO entity_freezes (entity_id, freeze_token, cutover_log_id, frozen_by_key_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity_id) DO NOTHING RETURNING frozen_at
     ), logged AS (
       INSERT INTO cutover_log (id, entity_id, action, freeze_token, api_key_id, request_id, description)
       SELECT $3, $1, 'freeze', $2, $4, $5, $6 FROM frozen RETURNING id
     )
     SELECT frozen.frozen_at FROM frozen, logged`,
    [entityId, token, logId, actor.keyId, actor.requestId, description ?? null],
  );
  if (!row) throw new ApiError('entity_already_frozen');
  return { object: 'cutover_freeze', entity_id: entityId, frozen: true, freeze_token: token, frozen_at: row.frozen_at, cutover_log_id: logId };
}

export async function unfreezeEntity(db: Db, entityId: string, actor: CutoverActor): Promise<CutoverFreeze> {
  const removed = await db.maybeOne<{ freeze_token: string }>('DELETE FROM entity_freezes WHERE entity_id = $1 RETURNING freeze_token', [entityId]);
  if (!removed) throw new ApiError('entity_not_frozen', { hint: 'The entity is not frozen; there is nothing to unfreeze.' });
  const logId = await appendCutoverLog(db, entityId, actor, { action: 'unfreeze', freezeToken: removed.freeze_token });
  return { object: 'cutover_freeze', entity_id: entityId, frozen: false, freeze_token: null, frozen_at: null, cutover_log_id: logId };
}

/** The freeze in force (a snapshot request checks its token); undefined when not frozen. */
export function currentFreeze(db: Db, entityId: string): Promise<{ freeze_token: string } | undefined> {
  return db.maybeOne<{ freeze_token: string }>('SELECT freeze_token FROM entity_freezes WHERE entity_id = $1', [entityId]);
}

const LOG_COLUMNS = `l.id, 'cutover_log_entry' AS object, l.entity_id, l.action, l.api_key_id, l.request_id, l.description, l.created_at`;

export function listCutoverLog(db: Db, entityId: string, page: PageRequest): Promise<Page<CutoverLogEntry>> {
  return keysetPage<CutoverLogEntry>(db, { table: 'cutover_log', alias: 'l', select: LOG_COLUMNS, where: ['l.entity_id = $1'], params: [entityId] }, page);
}
