/**
 * The usage-key sync, run every minute by an EventBridge schedule (shared/tenants/usage-keys.ts):
 * an API Gateway API key in its tier's usage plan for every API key that has none yet, so API
 * Gateway throttles each key on its own. Runs in the subnets with egress: the API Gateway
 * management API has no endpoint inside the VPC.
 *
 * USAGE_PLAN_IDS: `{"<tier>": "<usage plan id>", ...}`; USAGE_TIERS: the tiers, the default first.
 * A run with a key it could not sync fails after syncing the others, so the failure reaches the
 * job's alarms and dead-letter queue; the key is tried again the next minute.
 */
import { APIGatewayClient, ConflictException, CreateApiKeyCommand, CreateUsagePlanKeyCommand, GetApiKeysCommand } from '@aws-sdk/client-api-gateway';
import type { ScheduledEvent } from 'aws-lambda';
import { usageTiers } from '../../shared/auth/usage-identifier';
import { logger } from '../../shared/powertools';
import { syncUsageKeys, type UsageKeyGateway } from '../../shared/tenants/usage-keys';

const client = new APIGatewayClient({});

const gateway: UsageKeyGateway = {
  async ensureKey({ name, value, description }) {
    try {
      const created = await client.send(new CreateApiKeyCommand({ name, value, description, enabled: true }));
      return created.id!;
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      // Created by an earlier run that stopped before recording it.
      const found = await client.send(new GetApiKeysCommand({ nameQuery: name, limit: 2 }));
      const existing = found.items?.find((item) => item.name === name);
      if (!existing?.id) throw error;
      return existing.id;
    }
  },
  async addToPlan(usagePlanId, keyId) {
    try {
      await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId, keyType: 'API_KEY' }));
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
  },
};

export async function handler(_event?: Partial<ScheduledEvent>): Promise<{ created: number; failed: number }> {
  const byTier = JSON.parse(process.env.USAGE_PLAN_IDS ?? '{}') as Record<string, string>;
  const result = await syncUsageKeys(gateway, { byTier, defaultTier: usageTiers()[0] }, { stage: process.env.STAGE_NAME ?? 'local' });
  if (result.created > 0 || result.failed > 0) logger.info('usage keys synced', { ...result });
  if (result.failed > 0) throw new Error(`${result.failed} API keys could not get their usage key; they are retried next minute`);
  return result;
}
