/**
 * `npm run cli -- --stage <stage> <command>` end to end: the CLI (a child process, with AWS
 * credentials of its own) invokes the stage's admin function through the Lambda Invoke API. Here
 * that API is a local HTTP endpoint (AWS_ENDPOINT_URL_LAMBDA, the SDK's documented override) that
 * runs functions/platform/admin.ts against the test database, as Lambda would inside the VPC.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/platform/admin';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();
const invoked: { path: string; authorization: string | undefined; payload: unknown }[] = [];
let server: http.Server;
let endpoint: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Parameters<typeof handler>[0];
      invoked.push({ path: request.url ?? '', authorization: request.headers.authorization, payload });
      handler(payload, { awsRequestId: 'stage-cli' }).then(
        (answer) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
        (error: Error) =>
          response
            .writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' })
            .end(JSON.stringify({ errorType: error.name, errorMessage: error.message })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = {
    // Without the test setup's switch: the CLI silences the SDK's Node 20 warning itself.
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED')),
    // The CLI must not touch a database itself: only the admin function does.
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    DATA_DIR: '/nonexistent',
    AWS_ENDPOINT_URL_LAMBDA: endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIAOPERATOREXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'operator-secret-example',
    AWS_PROFILE: '',
  };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'local/cli.ts', ...args], { encoding: 'utf8', env, timeout: 90_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

const newCode = () =>
  `stg${randomBytes(4)
    .toString('hex')
    .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)])}`;

describe('npm run cli -- --stage', () => {
  it("invokes the stage's admin function, signed with the operator's credentials, and prints its answer", async () => {
    const code = newCode();
    const result = await cli('--stage', 'sandbox', 'create-entity', '--code', code, '--name', 'Stage Co', '--mode', 'test');
    expect(result.status, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { entity: { code: string }; api_key: { secret: string } };
    expect(printed.entity.code).toBe(code);
    expect(result.stderr).toContain('The secret is shown once');
    expect(result.stderr).not.toContain('NodeVersionSupportWarning');

    const call = invoked.at(-1)!;
    expect(call.path).toBe('/2015-03-31/functions/bizops-sandbox-admin/invocations');
    expect(call.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAOPERATOREXAMPLE\/\d{8}\/eu-west-1\/lambda\/aws4_request/);
    expect(call.payload).toEqual({ command: 'create-entity', options: { code, name: 'Stage Co', mode: 'test' } });

    // The key it printed works on the API.
    const response = await api.raw('GET', '/v1/locations', { key: printed.api_key.secret });
    expect(response.status, response.text).toBe(200);
  }, 120_000);

  it("prints the admin function's usage answer with exit status 2", async () => {
    const result = await cli('--stage', 'sandbox', 'create-key', '--entity', 'nosuchentity');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('no entity with code nosuchentity');
    expect(result.stdout).toBe('');
  }, 120_000);

  it('refuses a key mode the stage rejects (live on the sandbox), with the reason, without invoking anything', async () => {
    const before = invoked.length;
    const [key, entity] = await Promise.all([
      cli('--stage', 'sandbox', 'create-key', '--entity', 'acme', '--mode', 'live'),
      cli('--stage', 'sandbox', 'create-entity', '--code', newCode(), '--name', 'Live Co', '--mode', 'live'),
    ]);
    for (const result of [key, entity]) {
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('the sandbox stage accepts test keys only: --mode live would create a key its API rejects');
      expect(result.stdout).toBe('');
    }
    expect(invoked).toHaveLength(before);
  }, 120_000);

  it('refuses a stage name that cannot be one, without invoking anything', async () => {
    const before = invoked.length;
    const result = await cli('--stage', 'Prod!', 'run-recurring');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--stage is a stage name');
    expect(invoked).toHaveLength(before);
  }, 120_000);
});
