/**
 * Creating an entity: the live entity and its test-mode twin (one code, two data sets), the owner
 * user (every permission) in both, the chart of accounts in both, and a first API key of the
 * requested mode, in one transaction. Kept apart from identity-store.ts so request handlers that
 * only read users and keys do not bundle the ledger.
 *
 * It needs no privileged connection: the transaction is pinned to each new entity's id before
 * that entity exists (first the live one, then the twin), so row level security admits exactly
 * the rows being created.
 */
import type { KeyMode } from '../auth/api-key-format';
import { PERMISSIONS } from '../auth/permissions';
import type { Db } from '../db/database';
import { isUniqueViolation, withTransaction } from '../db/database';
import { newId } from '../ids';
import type { ApiKey, User } from './schemas/api-key';
import { ensureSystemAccounts } from '../ledger/gl-accounts';
import { ENTITY_COLUMNS, insertApiKey, insertUser, type Entity } from './identity-store';

export interface ProvisionedEntity {
  /** The entity the key acts in: the live entity for a live key, the test twin for a test key. */
  entity: Entity;
  owner: User;
  key: ApiKey & { secret: string };
  /** Both rows of the account: what a live key and what a test key act in. */
  modes: Record<KeyMode, Entity>;
}

/**
 * Moves the transaction's row-level-security pin to another entity. Only the tenancy layer does
 * this, to write both rows of one account atomically; request transactions never switch.
 */
async function pinEntity(db: Db, entityId: string): Promise<void> {
  await db.query(`SELECT set_config('app.entity_id', $1, true)`, [entityId]);
}

/** Creates an entity pair with its owner (every permission) and a first key. Used by the CLI, the local server and tests. */
export async function provisionEntity(input: {
  code: string;
  name: string;
  ownerEmail?: string;
  ownerName?: string;
  mode: KeyMode;
  scopes: string[];
  keyName?: string;
  /** The account's usage tier (per-key throttling on AWS); the column's default, `standard`, when omitted. */
  usageTier?: string;
}): Promise<ProvisionedEntity> {
  const liveId = newId();
  const testId = newId();
  const ownerId = newId();
  return withTransaction({ role: 'app_user', entityId: liveId }, async (db) => {
    const modes = {} as Record<KeyMode, Entity>;
    const owners = {} as Record<KeyMode, User>;
    for (const [mode, id] of [
      ['live', liveId],
      ['test', testId],
    ] as const) {
      await pinEntity(db, id);
      try {
        modes[mode] = await db.one<Entity>(
          `INSERT INTO entities (id, code, name, livemode, live_entity_id, usage_tier) VALUES ($1, $2, $3, $4, $5, COALESCE($6, 'standard'))
           RETURNING ${ENTITY_COLUMNS}`,
          [id, input.code, input.name, mode === 'live', mode === 'live' ? null : liveId, input.usageTier ?? null],
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw new Error(`entity code ${input.code} is taken`, { cause: error });
        throw error;
      }
      owners[mode] = await insertUser(db, id, {
        id: ownerId,
        email: input.ownerEmail ?? `owner@${input.code}.example`,
        name: input.ownerName ?? 'Owner',
        permissions: [...PERMISSIONS],
      });
      // Every entity starts with its system GL accounts (receivables, payables, bank, ...).
      await ensureSystemAccounts(db, id);
    }
    const entity = modes[input.mode];
    await pinEntity(db, entity.id);
    const key = await insertApiKey(db, entity, { userId: ownerId, mode: input.mode, scopes: input.scopes, name: input.keyName ?? 'Initial key' });
    return { entity, owner: owners[input.mode], key, modes };
  });
}

/**
 * Adds a user to an account: the same user id in the live entity and its test twin, so the
 * person and their permissions are the same whichever mode a key acts in.
 */
export async function addUser(account: Record<KeyMode, Entity>, input: { email: string; name: string; permissions: string[] }): Promise<User> {
  return withTransaction({ role: 'app_user', entityId: account.live.id }, async (db) => {
    const user = await insertUser(db, account.live.id, input);
    await pinEntity(db, account.test.id);
    await insertUser(db, account.test.id, { ...input, id: user.id });
    return user;
  });
}
