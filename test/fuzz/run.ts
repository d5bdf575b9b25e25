/**
 * `npm run fuzz -- --n=20000 [--seed=123]`: the long fuzz run, outside vitest.
 *
 * Starts its own API (the local gateway in process on an ephemeral port, over a fresh database:
 * a new one on DATABASE_URL's server, dropped afterwards, or the embedded PGlite), seeds the
 * caller's world, sends the requests and prints the status histogram, the 5xx count and one
 * example per failing category. Exits 1 on any failure.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { ROUTE_MODULES } from '../../functions/routes';
import { createGatewayServer } from '../../local/gateway';
import { startLocalRuntime } from '../../local/runtime';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { withDatabase } from '../../shared/db/connection-url';
import { inEntity } from '../../shared/tenants/identity-store';
import { provisionEntity } from '../../shared/tenants/provision-entity';
import { createClient } from '../support/client';
import type { TestApi } from '../support/harness';
import { runFuzz, summarise } from './runner';
import { seedWorld } from './world';

function argument(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(sql);
  await admin.end();
}

async function main(): Promise<number> {
  const count = Number(argument('n') ?? process.env.FUZZ_N ?? 20_000);
  const seed = Number(argument('seed') ?? process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) throw new Error('usage: npm run fuzz -- --n=<count> [--seed=<integer>]');

  const adminUrl = process.env.DATABASE_URL;
  const databaseName = `bizops_fuzz_${randomBytes(4).toString('hex')}`;
  if (adminUrl) await adminQuery(adminUrl, `CREATE DATABASE ${databaseName}`);
  const runtime = await startLocalRuntime({ databaseUrl: adminUrl && withDatabase(adminUrl, databaseName) });
  // The gateway's own server (its over-long URL and header answers included), without rate limits:
  // the fuzzer sends thousands of requests, some with bogus keys, from one address.
  const unlimited = { ratePerSecond: 100_000, burst: 100_000 };
  const server = createGatewayServer({ routes: Object.values(ROUTE_MODULES), rateLimit: unlimited, authFailureLimit: unlimited });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const api = createClient(() => baseUrl) as TestApi;
    api.newEntity = async () => {
      const provisioned = await provisionEntity({ code: `fuzz${randomBytes(4).toString('hex')}`, name: 'Fuzz entity', mode: 'test', scopes: ALL_SCOPES });
      return { ...provisioned, secret: provisioned.key.secret, sql: (work) => inEntity(provisioned.entity.id, work) };
    };
    console.log(`fuzz: ${adminUrl ? `PostgreSQL database ${databaseName}` : 'embedded PGlite'}; seeding the world...`);
    const world = await seedWorld(api);
    console.log(`fuzz: ${world.operations.length} operations, seed ${seed}, ${count} requests`);
    // Ctrl-C ends the run early: the summary still prints and the database is still dropped.
    let interrupted = false;
    process.once('SIGINT', () => (interrupted = true));
    const report = await runFuzz(baseUrl, world, {
      seed,
      count,
      stopped: () => interrupted,
      progressEvery: 1000,
      onProgress: (sent, partial) => console.log(`  ${sent} sent, ${partial.failures.length} failures, ${((Date.now() - startedAt) / 1000).toFixed(0)} s`),
    });
    const labels = Object.entries(report.labels).sort(([a], [b]) => a.localeCompare(b));
    console.log(`\ncategories: ${labels.map(([label, n]) => `${label}×${n}`).join(' ')}`);
    console.log(`\n${summarise(report)}`);
    console.log(`\nreplay: npm run fuzz -- --n=${count} --seed=${seed}`);
    return report.failures.length > 0 ? 1 : 0;
  } finally {
    await new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await runtime.close();
    if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  }
}

const startedAt = Date.now();
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
