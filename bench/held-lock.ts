/**
 * What one held row lock costs requests that do not need that row.
 *
 * Over HTTP through the local gateway (authorizer not cached, so every request also authenticates
 * against the database), unrelated GETs (another order, an account, a product, and a plain read of
 * the locked order itself) are timed in two conditions, interleaved round by round:
 *
 *   free     nothing is locked
 *   locked   another session holds SELECT ... FOR UPDATE on one order, and `--waiters` clients keep
 *            PATCHing that order (each waits up to the lock timeout, gets 409 resource_locked, and
 *            tries again after Retry-After), so requests are queued on the lock throughout
 *
 * It prints p50/p99 of each condition side by side, the ratio, and what the waiters and an invalid
 * key got while the lock was held. Waiters past the pool size (DATABASE_POOL_MAX, 10) hold every
 * connection of this one process, so the GETs then wait for a connection: that is the local server's
 * limit, not AWS's (one Lambda environment per request there). Waiters honour Retry-After.
 *
 *   npx tsx bench/held-lock.ts [--rounds=3] [--gets=100] [--waiters=4]
 *
 * DATABASE_LOCK_TIMEOUT_MS (default 5000) is the lock timeout the waiters meet. DATABASE_URL picks
 * the server (default postgres://postgres@127.0.0.1:5432/postgres); the database
 * bizops_bench_lock is created from the migrations and dropped at the end.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { assertLocal, countOption, createDatabase, databaseUrl, dropDatabase, hrtimeMs, printTable, round, summarize, writeResults, type Summary } from './lib';
import { migrateBenchDatabase, seed } from './seed';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';

const DATABASE = 'bizops_bench_lock';
const ROUNDS = Math.min(countOption('rounds', 3), 50);
const GETS = Math.min(countOption('gets', 100), 10_000);
const WAITERS = Math.min(countOption('waiters', 4), 100);

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  const url = await createDatabase(adminUrl, DATABASE);
  const closers: (() => Promise<unknown>)[] = [() => dropDatabase(adminUrl, DATABASE)];
  try {
    const { configureDatabase, closeDatabase, createPool } = await import('../shared/db/database');
    const { databaseTimeouts } = await import('../shared/db/opening-batch');
    const { configurePublisher, InProcessEventBus } = await import('../shared/events/publisher');
    const { createGateway } = await import('../local/gateway');
    const { ROUTE_MODULES } = await import('../functions/routes');
    await migrateBenchDatabase(url);
    const poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10);
    configureDatabase(() => createPool({ connectionString: url, max: poolMax }));
    closers.unshift(closeDatabase);
    configurePublisher(new InProcessEventBus());
    const lockTimeoutMs = databaseTimeouts().lockMs;

    const server = http.createServer(
      createGateway({ routes: Object.values(ROUTE_MODULES), authorizerCacheTtlMs: 0, rateLimit: { ratePerSecond: 100_000, burst: 100_000 } }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.unshift(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const { secret } = await seed();
    const call = async (method: string, path: string, body?: unknown, key = secret) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    /** "409 resource_locked", "200 ok": the status and the error code, if any. */
    const outcomeOf = (response: { status: number; body: Record<string, unknown> }) =>
      `${response.status} ${typeof response.body.code === 'string' ? response.body.code : 'ok'}`;
    const created = async (path: string, body: unknown) => {
      const response = await call('POST', path, body);
      if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.id as string;
    };
    const accountId = await created('/v1/accounts', { name: 'Lock bench customer' });
    const productId = await created('/v1/products', { sku: 'LOCK-BENCH-1', name: 'Lock bench product', list_price: '10.00' });
    const order = () => created('/v1/orders', { document_type: 'sales_order', account_id: accountId, lines: [{ product_id: productId, quantity: 2 }] });
    const lockedId = await order();
    const otherId = await order();
    const paths = [`/v1/orders/${otherId}`, `/v1/accounts/${accountId}`, `/v1/products/${productId}`, `/v1/orders/${lockedId}`];

    /** Times GETs into `samples`; any answer but 200 is counted in `failed` by status and code. */
    const timedGets = async (samples: number[], failed: Map<string, number>) => {
      for (let i = 0; i < GETS; i++) {
        const start = process.hrtime.bigint();
        const response = await call('GET', paths[i % paths.length]);
        samples.push(hrtimeMs(start));
        const outcome = outcomeOf(response);
        if (response.status !== 200) failed.set(outcome, (failed.get(outcome) ?? 0) + 1);
      }
    };

    // Warm-up: connections, JIT, the route modules.
    await timedGets([], new Map());

    const free: number[] = [];
    const locked: number[] = [];
    const freeFailed = new Map<string, number>();
    const lockedFailed = new Map<string, number>();
    const refusedMs: number[] = [];
    const waiterOutcomes = new Map<string, number>();
    const invalidKeyMs: number[] = [];
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    closers.unshift(() => holder.end());
    for (let round = 0; round < ROUNDS; round++) {
      await timedGets(free, freeFailed);

      await holder.query('BEGIN');
      await holder.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE', [lockedId]);
      const lockedAt = Date.now();
      let holding = true;
      const waiter = async (n: number) => {
        while (holding) {
          const start = process.hrtime.bigint();
          const response = await call('PATCH', `/v1/orders/${lockedId}`, { notes: `waiter ${n}` });
          const outcome = outcomeOf(response);
          waiterOutcomes.set(outcome, (waiterOutcomes.get(outcome) ?? 0) + 1);
          if (response.status === 409) {
            refusedMs.push(hrtimeMs(start));
            // A well-behaved client: it waits Retry-After (1 s) before trying again.
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
      };
      const waiting = Array.from({ length: WAITERS }, (_, n) => waiter(n));
      try {
        // Let the waiters queue on the lock before the GETs start.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await timedGets(locked, lockedFailed);
        const start = process.hrtime.bigint();
        const denied = await call('GET', `/v1/orders/${otherId}`, undefined, `${secret.slice(0, -4)}zzzz`);
        invalidKeyMs.push(hrtimeMs(start));
        if (denied.status !== 401) lockedFailed.set(`invalid key ${denied.status}`, (lockedFailed.get(`invalid key ${denied.status}`) ?? 0) + 1);
        // Held past the lock timeout, so every waiter meets it at least once.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, lockedAt + lockTimeoutMs * 1.2 - Date.now())));
      } finally {
        holding = false;
        await holder.query('ROLLBACK');
        await Promise.all(waiting);
      }
    }

    const freeSummary = summarize(free);
    const lockedSummary = summarize(locked);
    const refusedSummary = summarize(refusedMs);
    const invalidKey = summarize(invalidKeyMs);
    const ratio = { p50: lockedSummary.p50 / freeSummary.p50, p99: lockedSummary.p99 / freeSummary.p99 };
    const row = (name: string, summary: Summary): (string | number)[] => [name, summary.n, round(summary.p50, 2), round(summary.p99, 2), round(summary.max, 2)];
    printTable(
      `unrelated GETs over HTTP, ${WAITERS} waiters on the locked order, lock timeout ${lockTimeoutMs} ms, pool ${poolMax} (ms)`,
      ['condition', 'n', 'p50', 'p99', 'max'],
      [
        row('no lock held', freeSummary),
        row('row lock held', lockedSummary),
        ['locked / free', '', `${round(ratio.p50, 2)}x`, `${round(ratio.p99, 2)}x`, ''],
        row('PATCH of the locked order: 409', refusedSummary),
        row('invalid key while locked', invalidKey),
      ],
    );
    const list = (outcomes: Map<string, number>) => [...outcomes].map(([outcome, count]) => `${count} × ${outcome}`).join(', ') || 'none';
    console.log(`PATCH outcomes while locked: ${list(waiterOutcomes)}`);
    console.log(`GETs not answered 200: free ${list(freeFailed)}; locked ${list(lockedFailed)}`);
    const file = writeResults('held-lock', {
      rounds: ROUNDS,
      gets_per_round: GETS,
      waiters: WAITERS,
      lock_timeout_ms: lockTimeoutMs,
      pool_max: poolMax,
      free: freeSummary,
      locked: lockedSummary,
      ratio,
      refused: refusedSummary,
      waiter_outcomes: Object.fromEntries(waiterOutcomes),
      failed_gets: { free: Object.fromEntries(freeFailed), locked: Object.fromEntries(lockedFailed) },
      invalid_key: invalidKey,
    });
    console.log(`results: ${file}`);
  } finally {
    for (const close of closers) await close().catch((error) => console.warn(`cleanup: ${(error as Error).message}`));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
