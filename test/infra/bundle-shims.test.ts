/**
 * What the bundles carry in place of a package (infra/bundle-shims) behaves as the package would
 * on Lambda, and the bundled idempotency store (Powertools with the SDK's DynamoDB client, both
 * bundled) works against a DynamoDB-API store.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunctions } from '../../infra/bundle';
import { startIdempotencyStore } from '../../local/embedded';
import { repoRoot } from './synth';

/** What the bundled probe (test/infra/fixtures/idempotency-probe.ts) prints. */
interface ProbeResult {
  executions: number;
  first: Record<string, unknown>;
  replay: unknown;
  changedPayload: unknown;
}

describe('pg-native stand-in', () => {
  it("fails as a missing module, which pg's lazy `native` getter answers with null", async () => {
    await expect(import('../../infra/bundle-shims/pg-native')).rejects.toMatchObject({ code: 'MODULE_NOT_FOUND' });
  });
});

describe('the bundled idempotency store', () => {
  let workDir: string;
  let store: Awaited<ReturnType<typeof startIdempotencyStore>>;

  beforeAll(async () => {
    store = await startIdempotencyStore();
    mkdirSync(join(repoRoot, 'cdk.out'), { recursive: true });
    workDir = mkdtempSync(join(repoRoot, 'cdk.out', 'test-shims-'));
  });
  afterAll(async () => {
    await store?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('executes once, replays byte-identically and refuses a changed payload', async () => {
    const { dirs } = await bundleFunctions([{ name: 'probe', entry: 'test/infra/fixtures/idempotency-probe.ts' }], {
      root: repoRoot,
      outdir: join(workDir, 'bundles'),
    });
    const script = `const { handler } = await import(process.argv[1] + '/index.mjs'); console.log(JSON.stringify(await handler()));`;
    const { POWERTOOLS_IDEMPOTENCY_DISABLED: _disabled, ...env } = process.env;
    // Asynchronously: the DynamoDB-API store answers from this process's event loop.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dirs.probe], {
      encoding: 'utf8',
      timeout: 30_000,
      env: {
        ...env,
        IDEMPOTENCY_TABLE_NAME: store.tableName,
        AWS_ENDPOINT_URL_DYNAMODB: store.endpoint,
        AWS_REGION: 'local',
        AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1',
      },
    });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as ProbeResult;
    expect(result.executions).toBe(1);
    expect(result.first).toEqual({ statusCode: 201, headers: { 'Content-Type': 'application/json' }, body: '{"id":"x"}' });
    expect(result.replay).toEqual({ ...result.first, replayed: true });
    expect(result.changedPayload).toBe('idempotency_key_reused');
  }, 60_000);
});
