/**
 * What getting the database password costs a function's cold start on AWS, which the other
 * benchmarks cannot see (they connect with DATABASE_URL): the empty handler against
 *   - secret: reading the application user's secret with the SDK's Secrets Manager client, as the
 *     data layer did before functions logged in with IAM (the client loaded on first use, one
 *     GetSecretValue answered by a stand-in Secrets Manager in this process, so no network time
 *     is counted: on AWS the call also crosses a VPC endpoint);
 *   - iam: signing the RDS Proxy login token locally (shared/db/rds-auth-token.ts), as now.
 * Each is bundled like a route and run in a fresh process (bench/cold-start-child.mjs), the
 * variants interleaved so machine load hits them alike. Ratios are whole process / empty handler,
 * as bench/bundle-size.ts reports them.
 *
 *   npx tsx bench/database-login.ts [--samples=25]
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine } from '../local/command-line';
import { BENCH_DIR, REPO_DIR, RESULTS_DIR, bundleProbes, lambdaEnvironment, median, printTable, summarize, writeResults } from './lib';

const { values } = parseCommandLine('usage: npx tsx bench/database-login.ts [--samples=N]', { options: ['samples'] });
const SAMPLES = Math.min(Number(values.samples ?? 25), 200);
const OUT_DIR = join(RESULTS_DIR, 'database-login-build');
const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:000000000000:secret:bizops-app-AbCdEf';

const VARIANTS = [
  { name: 'empty', label: 'empty handler (baseline)', entry: 'bench/fixtures/empty-handler.ts' },
  { name: 'secret', label: 'secret read with the SDK client (before)', entry: 'bench/fixtures/database-login-secret.ts' },
  { name: 'iam', label: 'IAM token signed locally (now)', entry: 'bench/fixtures/database-login-iam.ts' },
];

/** Answers GetSecretValue as Secrets Manager's JSON protocol does; anything else is a 400. */
function secretsManager(request: IncomingMessage, response: ServerResponse): void {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    const signed = String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ');
    if (request.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue' || !signed || (JSON.parse(body) as { SecretId?: string }).SecretId !== SECRET_ARN) {
      response
        .writeHead(400, { 'content-type': 'application/x-amz-json-1.1' })
        .end(JSON.stringify({ __type: 'ValidationException', message: 'unexpected request' }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end(
      JSON.stringify({
        ARN: SECRET_ARN,
        Name: 'bizops-app',
        VersionId: '00000000-0000-4000-8000-000000000000',
        SecretString: JSON.stringify({ username: 'bizops_app', password: 'x'.repeat(30), host: 'proxy.local', port: 5432, dbname: 'bizops' }),
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 1_764_000_000,
      }),
    );
  });
}

const server = createServer(secretsManager);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const { dirs, eventFile } = await bundleProbes(VARIANTS, OUT_DIR);

// What the Lambda runtime gives a function (its region and role credentials), then the data layer's settings.
const env = lambdaEnvironment({
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'ASIABENCHEXAMPLE0000',
  AWS_SECRET_ACCESS_KEY: 'bench/secret/access/key/example/0000000',
  AWS_SESSION_TOKEN: 'bench-session-token',
  AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
  DB_SECRET_ARN: SECRET_ARN,
  DB_HOST: 'bizops-prod.proxy-c1x2y3z4.eu-west-1.rds.amazonaws.com',
  DB_PORT: '5432',
  DB_USER: 'bizops_app',
});

interface ChildResult {
  totalMs: number;
  sinceProcessStartMs: number;
  statusCode: number;
}

function runChild(name: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(BENCH_DIR, 'cold-start-child.mjs'), join(dirs[name], 'index.mjs'), eventFile],
      { cwd: REPO_DIR, encoding: 'utf8', env, timeout: 30_000 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
        if (error || !line) return reject(new Error(`${name} failed:\n${stdout}\n${stderr}`));
        const result = JSON.parse(line.slice('BENCH_RESULT '.length)) as ChildResult;
        if (result.statusCode !== 200) return reject(new Error(`${name} answered ${result.statusCode}:\n${stderr}`));
        resolve(result);
      },
    );
  });
}

for (const variant of VARIANTS) await runChild(variant.name); // warm the file system cache, check each works
const samples = new Map<string, ChildResult[]>(VARIANTS.map((variant) => [variant.name, []]));
for (let round = 0; round < SAMPLES; round++) {
  for (let k = 0; k < VARIANTS.length; k++) {
    const variant = VARIANTS[(round + k) % VARIANTS.length];
    samples.get(variant.name)!.push(await runChild(variant.name));
  }
}
server.close();

const wholeBaseline = median(samples.get('empty')!.map((sample) => sample.sinceProcessStartMs));
const rows = VARIANTS.map((variant) => {
  const runs = samples.get(variant.name)!;
  const importAndCall = summarize(runs.map((sample) => sample.totalMs));
  const whole = median(runs.map((sample) => sample.sinceProcessStartMs));
  return {
    name: variant.name,
    label: variant.label,
    bytes: statSync(join(dirs[variant.name], 'index.mjs')).size,
    importAndCall,
    wholeProcessMs: whole,
    ratio: whole / wholeBaseline,
  };
});
printTable(
  `the database password on a cold start, ${SAMPLES} fresh processes each (ms)`,
  ['variant', 'bundle bytes', 'import + call p50', 'p95', 'process start→done p50', 'ratio (whole)'],
  rows.map((row) => [row.label, row.bytes, row.importAndCall.p50, row.importAndCall.p95, row.wholeProcessMs, row.ratio]),
);
writeResults('database-login', { samples: SAMPLES, rows });
