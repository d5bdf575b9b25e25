/**
 * Per-key throttling on AWS: the authorizer answers API Gateway with a usage identifier, the value
 * of the API Gateway API key whose usage plan (one per tier, infra/constructs/api.ts) throttles
 * the request. Each API key gets a gateway key of its own (created by the usage-key sync job,
 * shared/tenants/usage-keys.ts); until it exists, the request is counted on its tier's shared
 * pending key, so a key works the moment it is created. Locally the gateway throttles per key
 * itself and ignores the identifier.
 *
 * These values are not secrets: with the authorizer as the API key source, API Gateway never
 * takes a key value from the request.
 */

/** The gateway key value of one API key (at least 20 characters, unique in the region: the key's UUID). */
export function usageKeyValueOf(keyId: string): string {
  return `bizops-key-${keyId}`;
}

/** The gateway key value every not yet synced key of a tier shares. */
export function pendingUsageKeyValueOf(stage: string, tier: string): string {
  return `bizops-${stage}-${tier}-pending-keys`;
}

/** The tiers of this stage (USAGE_TIERS, the first is the default); `standard` when unset (local). */
export function usageTiers(value = process.env.USAGE_TIERS): string[] {
  const tiers = (value ?? '')
    .split(',')
    .map((tier) => tier.trim())
    .filter(Boolean);
  return tiers.length ? tiers : ['standard'];
}

/** What the authorizer returns as usageIdentifierKey for a key. */
export function usageIdentifierOf(key: { keyId: string; tier: string; synced: boolean }, env: NodeJS.ProcessEnv = process.env): string {
  if (key.synced) return usageKeyValueOf(key.keyId);
  const tiers = usageTiers(env.USAGE_TIERS);
  // A tier the stage does not know (renamed in config) falls back to the default tier's plan.
  return pendingUsageKeyValueOf(env.STAGE_NAME ?? 'local', tiers.includes(key.tier) ? key.tier : tiers[0]);
}
