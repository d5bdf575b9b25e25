/**
 * Per-key throttling on AWS against PostgreSQL: the authorizer names each key's usage identifier
 * (its tier's pending key until synced, then its own), and the usage-key sync gives every key that
 * can still authenticate a gateway key of its own in its tier's usage plan, once. API Gateway is a
 * recording double here (the SDK adapter is functions/platform/sync-usage-keys.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { handler as authorize } from '../../functions/authorizer/authorizer';
import { handler as admin } from '../../functions/platform/admin';
import { pendingUsageKeyValueOf, usageIdentifierOf, usageKeyValueOf } from '../../shared/auth/usage-identifier';
import { syncUsageKeys, usageKeyNameOf, type UsageKeyGateway } from '../../shared/tenants/usage-keys';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();
const PLANS = { byTier: { standard: 'plan-standard', high: 'plan-high' }, defaultTier: 'standard' };
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:111122223333:restapi/sandbox/GET/v1/locations';

const newCode = () =>
  `use${randomBytes(4)
    .toString('hex')
    .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)])}`;

/** A stand-in for API Gateway that records what the sync asks of it. */
function recordingGateway(options: { failFor?: string } = {}) {
  const keys = new Map<string, { id: string; value: string }>();
  const planKeys: { planId: string; keyId: string }[] = [];
  const gateway: UsageKeyGateway = {
    ensureKey: ({ name, value }) => {
      if (options.failFor && value.endsWith(options.failFor)) return Promise.reject(new Error('TooManyRequestsException'));
      const existing = keys.get(name) ?? { id: `gw-${keys.size + 1}`, value };
      keys.set(name, existing);
      return Promise.resolve(existing.id);
    },
    addToPlan: (planId, keyId) => {
      planKeys.push({ planId, keyId });
      return Promise.resolve();
    },
  };
  return { gateway, keys, planKeys };
}

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

async function createEntity(options: Record<string, string> = {}) {
  const answer = await admin({ command: 'create-entity', options: { code: newCode(), name: 'Usage Co', ...options } }, { awsRequestId: 'usage-test' });
  if (!answer.ok) throw new Error(answer.usage);
  return answer.result as { usage_tier: string; api_key: { id: string; secret: string } };
}

async function usageIdentifier(secret: string): Promise<string | undefined> {
  const result = await authorize({ headers: { Authorization: `Bearer ${secret}` }, methodArn: METHOD_ARN });
  expect(result.policyDocument.Statement[0].Effect).toBe('Allow');
  return result.usageIdentifierKey ?? undefined;
}

beforeAll(() => {
  vi.stubEnv('USAGE_TIERS', 'standard,high');
  vi.stubEnv('STAGE_NAME', 'sandbox');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('usage tiers', () => {
  it('put a new account on the default tier, or the one create-entity names', async () => {
    const standard = await createEntity();
    const high = await createEntity({ tier: 'high' });
    expect(standard.usage_tier).toBe('standard');
    expect(high.usage_tier).toBe('high');
    const rows = await sql<{ usage_tier: string }>('SELECT DISTINCT e.usage_tier FROM api_keys k JOIN entities e ON e.id = k.entity_id WHERE k.id = $1', [
      high.api_key.id,
    ]);
    expect(rows).toEqual([{ usage_tier: 'high' }]);
  });

  it('refuse a tier the stage does not have, creating nothing', async () => {
    const code = newCode();
    const answer = await admin({ command: 'create-entity', options: { code, name: 'Nowhere', tier: 'platinum' } });
    expect(answer).toEqual({ ok: false, usage: '--tier is one of standard, high' });
    expect(await sql('SELECT id FROM entities WHERE code = $1', [code])).toEqual([]);
  });
});

/**
 * The sync reads every pending key of the database. On PostgreSQL each test file has its own; on
 * the embedded database (npm test without DATABASE_URL) the files share one, and other files' keys
 * come and go while these run.
 */
const ownDatabase = inject('database').mode === 'postgres';

describe('the authorizer', () => {
  it.runIf(ownDatabase)("names the tier's pending key until the key has its own, then the key's own", async () => {
    const { api_key: key } = await createEntity({ tier: 'high' });
    expect(await usageIdentifier(key.secret)).toBe('bizops-sandbox-high-pending-keys');

    const { gateway } = recordingGateway();
    await syncUsageKeys(gateway, PLANS, { stage: 'sandbox' });
    expect(await usageIdentifier(key.secret)).toBe(`bizops-key-${key.id}`);
  });

  it("falls back to the default tier's pending key for a tier the stage no longer has", () => {
    expect(usageIdentifierOf({ keyId: 'k', tier: 'retired', synced: false }, { USAGE_TIERS: 'standard,high', STAGE_NAME: 'prod' })).toBe(
      pendingUsageKeyValueOf('prod', 'standard'),
    );
    expect(usageKeyValueOf('0196f3a4-8f1e-7000-8000-00000000abcd').length).toBeGreaterThanOrEqual(20);
  });
});

describe.runIf(ownDatabase)('the usage-key sync (a database of its own: PostgreSQL)', () => {
  it("creates each key's gateway key in its tier's plan and records it, once", async () => {
    const high = await createEntity({ tier: 'high' });
    const standard = await createEntity();
    const { gateway, keys, planKeys } = recordingGateway();
    const first = await syncUsageKeys(gateway, PLANS, { stage: 'sandbox' });
    expect(first.failed).toBe(0);
    expect(first.created).toBeGreaterThanOrEqual(2);

    const highGateway = keys.get(usageKeyNameOf('sandbox', high.api_key.id))!;
    const standardGateway = keys.get(usageKeyNameOf('sandbox', standard.api_key.id))!;
    expect(highGateway.value).toBe(usageKeyValueOf(high.api_key.id));
    expect(planKeys).toContainEqual({ planId: 'plan-high', keyId: highGateway.id });
    expect(planKeys).toContainEqual({ planId: 'plan-standard', keyId: standardGateway.id });
    const recorded = await sql<{ id: string; usage_key_id: string }>('SELECT id, usage_key_id FROM api_keys WHERE id = ANY($1::uuid[]) ORDER BY id', [
      [high.api_key.id, standard.api_key.id],
    ]);
    expect(Object.fromEntries(recorded.map((row) => [row.id, row.usage_key_id]))).toEqual({
      [high.api_key.id]: highGateway.id,
      [standard.api_key.id]: standardGateway.id,
    });

    const again = await syncUsageKeys(gateway, PLANS, { stage: 'sandbox' });
    expect(again).toEqual({ created: 0, failed: 0 });
  });

  it('gives a revoked key none', async () => {
    const { api_key: key } = await createEntity();
    await sql('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
    const { gateway, keys } = recordingGateway();
    await syncUsageKeys(gateway, PLANS, { stage: 'sandbox' });
    expect(keys.has(usageKeyNameOf('sandbox', key.id))).toBe(false);
    expect(await sql('SELECT usage_key_id FROM api_keys WHERE id = $1', [key.id])).toEqual([{ usage_key_id: null }]);
  });

  it('leaves a key it could not sync pending, and syncs the others', async () => {
    const failing = await createEntity();
    const fine = await createEntity();
    const { gateway, keys } = recordingGateway({ failFor: failing.api_key.id });
    // Its error line (Powertools Logger writes to the process's stderr) is expected here.
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const result = await syncUsageKeys(gateway, PLANS, { stage: 'sandbox' });
    vi.restoreAllMocks();
    expect(result.failed).toBe(1);
    expect(keys.has(usageKeyNameOf('sandbox', fine.api_key.id))).toBe(true);
    expect(await sql('SELECT usage_key_id FROM api_keys WHERE id = $1', [failing.api_key.id])).toEqual([{ usage_key_id: null }]);
    expect(await usageIdentifier(failing.api_key.secret)).toBe('bizops-sandbox-standard-pending-keys');

    // The next run picks it up.
    const retried = await syncUsageKeys(recordingGateway().gateway, PLANS, { stage: 'sandbox' });
    expect(retried).toEqual({ created: 1, failed: 0 });
  });
});
