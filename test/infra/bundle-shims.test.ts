/**
 * The stand-ins infra/bundle.ts swaps into Lambda bundles behave like the packages they replace
 * for everything the code asks of them.
 */
import { execFile } from 'node:child_process';
import { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { search as realSearch } from '@aws-lambda-powertools/jmespath';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunctions } from '../../infra/bundle';
import { search as shimSearch } from '../../infra/bundle-shims/jmespath';
import pgpassShim from '../../infra/bundle-shims/pgpass';
import * as middyStreams from '../../infra/bundle-shims/middy-streams';
import { getSecureStream, getStream } from '../../infra/bundle-shims/pg-stream';
import { startIdempotencyStore } from '../../local/embedded';
import { repoRoot } from './synth';

/** What the bundled probe (test/infra/fixtures/idempotency-probe.ts) prints. */
interface ProbeResult {
  executions: number;
  first: Record<string, unknown>;
  replay: unknown;
  changedPayload: unknown;
}

describe('JMESPath stand-in', () => {
  const data = { scope: 'e/route/key', fingerprint: { body: { a: [1, 2] } }, nested: { inner: { leaf: 'x' } }, nothing: null };

  it.each(['scope', 'fingerprint', 'nested.inner.leaf', 'nested.inner', 'missing', 'nested.missing.leaf', 'nothing', 'scope.length'])(
    'selects %s exactly like the real interpreter',
    (expression) => {
      expect(shimSearch(expression, data)).toEqual(realSearch(expression, data));
    },
  );

  it.each(['[0]', 'a[*].b', "join(',', a)", 'a || b', '`1`', ''])('refuses %j instead of selecting the wrong data', (expression) => {
    expect(() => shimSearch(expression, data)).toThrow(/dotted field paths only/);
  });
});

describe('pgpass stand-in', () => {
  it('finds no password, like pgpass without a ~/.pgpass file', () => {
    let answered: unknown = 'not called';
    pgpassShim({ host: 'h' }, (password) => (answered = password));
    expect(answered).toBeUndefined();
  });
});

describe('pg socket stand-in', () => {
  it('gives a plain socket, and a TLS socket loaded on demand', async () => {
    expect(getStream()).toBeInstanceOf(Socket);
    // Port 1 on loopback refuses at once: only the type of what pg would get is under test.
    const secure = getSecureStream({ host: '127.0.0.1', port: 1 });
    const failed = new Promise((resolve) => secure.once('error', resolve));
    expect(secure).toBeInstanceOf(TLSSocket);
    await failed;
    secure.destroy();
  });
});

describe('pg-native stand-in', () => {
  it("fails as a missing module, which pg's lazy `native` getter answers with null", async () => {
    await expect(import('../../infra/bundle-shims/pg-native')).rejects.toMatchObject({ code: 'MODULE_NOT_FOUND' });
  });
});

describe('middy response-streaming stand-in', () => {
  it('fails loudly if anything tries to stream', () => {
    expect(() => middyStreams.Readable.from()).toThrow(/response streaming is not bundled/);
    expect(() => middyStreams.pipeline()).toThrow(/response streaming is not bundled/);
    expect(() => new middyStreams.ReadableStream()).toThrow(/response streaming is not bundled/);
  });
});

describe('the bundled idempotency store (with the stand-in)', () => {
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
        DYNAMODB_ENDPOINT: store.endpoint,
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
