/**
 * Resolves a bearer key to its caller: entity, key, acting user, scopes and mode.
 * Shared by the Lambda authorizer and the local gateway.
 *
 * Test mode apart from live mode: every account is two entity rows with one code, the live entity
 * and its test twin. A key is stored on the row of its mode, so the caller's entity is the twin for
 * a test key, and row level security on app.entity_id keeps the two data sets apart.
 */
import type { Caller } from './caller';
import { withTransaction } from '../db/database';
import type { ErrorCode } from '../errors';
import { bearerToken, hashApiKey, parseApiKey, type KeyMode, type ParsedApiKey } from './api-key-format';

/** `usage`: what per-key throttling on AWS needs (shared/auth/usage-identifier.ts); set by `authenticate`. */
export type AuthResult = { ok: true; caller: Caller; usage?: KeyUsage } | { ok: false; code: ErrorCode };

/** The account's usage tier, and whether the key's own API Gateway key exists yet. */
interface KeyUsage {
  tier: string;
  synced: boolean;
}

export interface KeyRow {
  id: string;
  entity_id: string;
  entity_code: string;
  entity_livemode: boolean;
  created_by_user_id: string;
  mode: KeyMode;
  scopes: string[];
  expired: boolean;
  revoked: boolean;
  user_active: boolean;
  usage_tier?: string;
  usage_key_synced?: boolean;
}

export async function authenticate(authorization: string | undefined, acceptedModes: readonly KeyMode[]): Promise<AuthResult> {
  if (!authorization) return { ok: false, code: 'api_key_missing' };
  const token = bearerToken(authorization);
  const parsed = token ? parseApiKey(token) : undefined;
  if (!token || !parsed) return { ok: false, code: 'api_key_malformed' };
  if (!acceptedModes.includes(parsed.mode)) return { ok: false, code: 'api_key_mode_not_allowed' };

  // One statement: find the key and stamp last_used_at (at most hourly, so auth stays read-mostly).
  // The stamp skips a key row another transaction has locked (SKIP LOCKED): authentication never
  // waits behind a lock, and a missed stamp is taken by a later request.
  const row = await withTransaction({ role: 'app_authenticator' }, (db) =>
    db.maybeOne<KeyRow>(
      `WITH found AS (
         SELECT k.id, k.entity_id, e.code AS entity_code, e.livemode AS entity_livemode, k.created_by_user_id, k.mode, k.scopes, k.last_used_at,
                k.expires_at IS NOT NULL AND k.expires_at <= now() AS expired,
                k.revoked_at IS NOT NULL AS revoked,
                u.is_active AS user_active, e.usage_tier, k.usage_key_id IS NOT NULL AS usage_key_synced
           FROM api_keys k
           JOIN entities e ON e.id = k.entity_id
           JOIN users u ON u.entity_id = k.entity_id AND u.id = k.created_by_user_id
          WHERE k.key_hash = $1),
       touched AS (
         UPDATE api_keys SET last_used_at = now()
          WHERE api_keys.id IN (
            SELECT k.id FROM api_keys k JOIN found ON found.id = k.id
             WHERE NOT found.revoked AND NOT found.expired
               AND (found.last_used_at IS NULL OR found.last_used_at < now() - interval '1 hour')
               FOR UPDATE OF k SKIP LOCKED)
          RETURNING api_keys.id)
       SELECT id, entity_id, entity_code, entity_livemode, created_by_user_id, mode, scopes, expired, revoked, user_active, usage_tier, usage_key_synced
         FROM found`,
      [hashApiKey(token)],
    ),
  );
  const result = resolveCaller(parsed, row);
  if (!result.ok || !row) return result;
  return { ...result, usage: { tier: row.usage_tier ?? 'standard', synced: row.usage_key_synced === true } };
}

/**
 * The caller of a parsed key from its stored row. The code and mode written in the key must agree
 * with the stored key (a key is one string), and the entity it is stored on must be of the key's
 * mode: a test key acts in the test twin only, a live key in the live entity only.
 */
export function resolveCaller(parsed: ParsedApiKey, row: KeyRow | undefined): AuthResult {
  if (!row || row.entity_code !== parsed.entityCode || row.mode !== parsed.mode) return { ok: false, code: 'api_key_invalid' };
  if (row.entity_livemode !== (row.mode === 'live')) return { ok: false, code: 'api_key_invalid' };
  if (row.revoked || !row.user_active) return { ok: false, code: 'api_key_revoked' };
  if (row.expired) return { ok: false, code: 'api_key_expired' };
  return {
    ok: true,
    caller: {
      entityId: row.entity_id,
      entityCode: row.entity_code,
      keyId: row.id,
      userId: row.created_by_user_id,
      mode: row.mode,
      scopes: row.scopes,
    },
  };
}

/** Which key modes this deployment accepts: the sandbox stage takes test keys only. */
export function acceptedKeyModes(value = process.env.ACCEPTED_KEY_MODES): KeyMode[] {
  const modes = (value ?? 'live,test').split(',').map((mode) => mode.trim());
  return modes.filter((mode): mode is KeyMode => mode === 'live' || mode === 'test');
}
