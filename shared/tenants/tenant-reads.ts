/**
 * The tenants capability's named queries for other capabilities: an entity's mode and a user's
 * state. Orders, payables and webhooks read entities and users only through these
 * (docs/architecture.md, "Who owns a table").
 */
import type { Db } from '../db/database';

/** The event mode of an entity's row: its live entity or its test-mode twin. */
export async function entityMode(db: Db, entityId: string): Promise<'live' | 'test'> {
  const { livemode } = await db.one<{ livemode: boolean }>('SELECT livemode FROM entities WHERE id = $1', [entityId]);
  return livemode ? 'live' : 'test';
}

/** A user of the entity: whether active and the permissions granted; undefined when the entity has no such user. */
export function userState(db: Db, entityId: string, userId: string): Promise<{ is_active: boolean; permissions: string[] } | undefined> {
  return db.maybeOne<{ is_active: boolean; permissions: string[] }>('SELECT is_active, permissions FROM users WHERE entity_id = $1 AND id = $2', [
    entityId,
    userId,
  ]);
}
