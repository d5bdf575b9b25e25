/**
 * Creating an entity: the entity row, its owner user (every permission), its first API key and
 * its chart of accounts, in one transaction. Kept apart from identity.ts so request handlers that
 * only read users and keys do not bundle the ledger.
 *
 * It needs no privileged connection: the transaction is pinned to the new entity's id before the
 * entity exists, so row level security admits exactly its rows.
 */
import type { KeyMode } from '../auth/api-key-format';
import { PERMISSIONS } from '../auth/permissions';
import { isUniqueViolation, withTransaction } from '../db/database';
import { newId } from '../ids';
import type { ApiKey, User } from './schemas/api-key';
import { ensureSystemAccounts } from '../ledger/gl-accounts';
import { insertApiKey, insertUser, type Entity } from './identity-store';

export interface ProvisionedEntity {
  entity: Entity;
  owner: User;
  key: ApiKey & { secret: string };
}

/** Creates an entity with its owner (every permission) and a first key. Used by the CLI and tests. */
export async function provisionEntity(input: {
  code: string;
  name: string;
  ownerEmail?: string;
  ownerName?: string;
  mode: KeyMode;
  scopes: string[];
  keyName?: string;
}): Promise<ProvisionedEntity> {
  const entityId = newId();
  return withTransaction({ role: 'app_user', entityId }, async (db) => {
    let entity: Entity;
    try {
      entity = await db.one<Entity>('INSERT INTO entities (id, code, name) VALUES ($1, $2, $3) RETURNING id, code, name', [entityId, input.code, input.name]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new Error(`entity code ${input.code} is taken`, { cause: error });
      throw error;
    }
    const owner = await insertUser(db, entityId, {
      email: input.ownerEmail ?? `owner@${input.code}.example`,
      name: input.ownerName ?? 'Owner',
      permissions: [...PERMISSIONS],
    });
    // Every entity starts with its system GL accounts (receivables, payables, bank, ...).
    await ensureSystemAccounts(db, entityId);
    const key = await insertApiKey(db, entity, { userId: owner.id, mode: input.mode, scopes: input.scopes, name: input.keyName ?? 'Initial key' });
    return { entity, owner, key };
  });
}
