/**
 * The usage-key sync (functions/platform/sync-usage-keys.ts, every minute on AWS): gives every API
 * key that can still authenticate an API Gateway API key of its own in its account's tier usage
 * plan, so API Gateway throttles each key separately (shared/auth/usage-identifier.ts). Until a
 * key's turn comes, the authorizer counts it on its tier's shared pending key.
 *
 * Safe to re-run at any point: a gateway key that was created but not recorded (the run stopped
 * between the two) is found again by its name, and a key already in its plan is left there.
 * Revoked and expired keys get none; the gateway key of a key revoked later stays (the authorizer
 * denies the key before API Gateway looks at its usage plan).
 */
import { withTransaction } from '../db/database';
import { logger } from '../powertools';
import { usageKeyValueOf } from '../auth/usage-identifier';

/** What the sync needs of API Gateway (the SDK on AWS; a recording double in tests). */
export interface UsageKeyGateway {
  /** Creates the gateway key, or finds the one already named so; returns its id. */
  ensureKey(input: { name: string; value: string; description: string }): Promise<string>;
  /** Puts the key in the usage plan; already there is fine. */
  addToPlan(planId: string, gatewayKeyId: string): Promise<void>;
}

export interface UsagePlans {
  /** Usage plan id by tier name. */
  byTier: Readonly<Record<string, string>>;
  /** Where a key of an account on an unknown tier goes (the stage's first tier). */
  defaultTier: string;
}

interface PendingKey {
  id: string;
  entity_id: string;
  usage_tier: string;
}

export interface SyncResult {
  created: number;
  failed: number;
}

/** The gateway key's name: the stage and the key's id (API Gateway shows names, not values). */
export const usageKeyNameOf = (stage: string, keyId: string) => `bizops-${stage}-${keyId}`;

export async function syncUsageKeys(gateway: UsageKeyGateway, plans: UsagePlans, options: { stage: string; limit?: number }): Promise<SyncResult> {
  const pending = await withTransaction({ role: 'app_worker', readOnly: true }, (db) =>
    db.query<PendingKey>(
      `SELECT k.id, k.entity_id, e.usage_tier
         FROM api_keys k JOIN entities e ON e.id = k.entity_id
        WHERE k.usage_key_id IS NULL AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
        ORDER BY k.created_at, k.id
        LIMIT $1`,
      [options.limit ?? 200],
    ),
  );
  const result: SyncResult = { created: 0, failed: 0 };
  for (const key of pending) {
    const planId = plans.byTier[key.usage_tier] ?? plans.byTier[plans.defaultTier];
    try {
      const gatewayKeyId = await gateway.ensureKey({
        name: usageKeyNameOf(options.stage, key.id),
        value: usageKeyValueOf(key.id),
        description: `Throttles API key ${key.id} (entity ${key.entity_id})`,
      });
      await gateway.addToPlan(planId, gatewayKeyId);
      await withTransaction({ role: 'app_worker' }, (db) =>
        db.query('UPDATE api_keys SET usage_key_id = $2 WHERE id = $1 AND usage_key_id IS NULL', [key.id, gatewayKeyId]),
      );
      result.created++;
    } catch (error) {
      // One key's failure (a throttled API call, a quota) leaves it pending for the next run; the others go on.
      result.failed++;
      logger.error('usage key sync failed for a key', { key_id: key.id, error });
    }
  }
  return result;
}
