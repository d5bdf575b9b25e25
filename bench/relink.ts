/**
 * The relink pass (POST .../migration/inventory-transactions/relink-source) with 10,000 items in
 * one request, through the route's Lambda handler (body parse, validation, the one statement).
 * Target: under 1 s against PostgreSQL.
 *
 *   npx tsx bench/relink.ts [--items=10000] [--native=100000] [--runs=6] [--keep]
 *
 * Seeds a dedicated database (bizops_bench_relink, dropped at the end) with two orders per item
 * and one migrated receipt per item, plus --native native transactions that must never match.
 * The runs alternate between the two orders, so every run changes reference_id of every item
 * (a no-op run, the re-run case, is measured separately). It also counts the statements sent to
 * PostgreSQL for 10 items and for all of them: a set-based pass sends the same number whatever the
 * item count. DATABASE_URL picks the server.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import pg from 'pg';
import { countOption, createDatabase, databaseUrl, dropDatabase, hrtimeMs, printTable, round, summarize, writeResults } from './lib';
import { getEvent, migrateBenchDatabase, seed } from './seed';

process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const ITEMS = Math.min(countOption('items', 10_000), 10_000);
const NATIVE = Math.min(countOption('native', 100_000), 5_000_000);
const RUNS = Math.min(countOption('runs', 6), 100);
const TARGET_MS = 1000;
const BODY_LIMIT = 1024 * 1024;
const DATABASE = 'bizops_bench_relink';

/** Counts Client#query calls (each a statement or a simple-protocol batch sent to PostgreSQL) while `work` runs. */
async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- restored below and called with the patched call's own `this`
  const original = pg.Client.prototype.query;
  let statements = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await work(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

async function main() {
  const adminUrl = databaseUrl();
  const url = await createDatabase(adminUrl, DATABASE);
  try {
    await migrateBenchDatabase(url);
    const { configureDatabase, closeDatabase } = await import('../shared/db/database');
    configureDatabase(() => new pg.Pool({ connectionString: url, max: 4 }));
    const seeded = await seed('migration:write');
    const entity = seeded.entityId;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const product = (
      await admin.query<{ id: string }>(
        `INSERT INTO products (id, entity_id, sku, name, product_type, cost) VALUES (gen_random_uuid(), $1, 'RELINK', 'Relinked', 'simple', 2) RETURNING id`,
        [entity],
      )
    ).rows[0].id;
    await admin.query(
      `INSERT INTO orders (id, entity_id, order_number, document_type, order_status, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'M-' || i, 'sales_order', 'fulfilled', now(), now() FROM generate_series(1, $2::int) AS i`,
      [entity, ITEMS * 2],
    );
    // External ids like a source system's: ITX- and base-36 (no long digit runs).
    await admin.query(
      `INSERT INTO inventory_transactions (id, entity_id, product_id, location_id, transaction_type, quantity, unit_cost, total_cost, reference_type, transaction_id)
       SELECT gen_random_uuid(), $1, $2, $3, 'receive', 1, 2, 2, 'source_migration', 'ITX-' || to_hex(i * 7919) FROM generate_series(1, $4::int) AS i`,
      [entity, product, seeded.locationId, ITEMS],
    );
    await admin.query(
      `INSERT INTO inventory_transactions (id, entity_id, product_id, location_id, transaction_type, quantity, unit_cost, total_cost, reference_type, transaction_id)
       SELECT gen_random_uuid(), $1, $2, $3, 'receive', 1, 2, 2, NULL, 'ITX-' || to_hex(i * 7919) FROM generate_series(1, $4::int) AS i`,
      [entity, product, seeded.locationId, NATIVE],
    );
    await admin.query('ANALYZE');
    const orders = (await admin.query<{ id: string }>('SELECT id FROM orders WHERE entity_id = $1 ORDER BY order_number', [entity])).rows.map((row) => row.id);
    const externals = (
      await admin.query<{ transaction_id: string }>(
        `SELECT transaction_id FROM inventory_transactions WHERE entity_id = $1 AND reference_type = 'source_migration'`,
        [entity],
      )
    ).rows.map((row) => row.transaction_id);
    await admin.end();

    const bodies = [0, 1].map((set) => JSON.stringify({ items: externals.map((external_id, n) => ({ external_id, source_id: orders[n * 2 + set] })) }));
    const bodyBytes = Buffer.byteLength(bodies[0]);
    const { handler } = await import('../functions/migration/relink-inventory-transaction-sources');
    const path = `/v1/entities/${entity}/migration/inventory-transactions/relink-source`;
    const call = async (body: string) => {
      const base = getEvent({
        resource: '/v1/entities/{entity_id}/migration/inventory-transactions/relink-source',
        path,
        pathParameters: { entity_id: entity },
        authorizer: seeded.authorizer,
        requestId: `bench-${Math.random()}`,
      });
      const event = {
        ...base,
        httpMethod: 'POST',
        body,
        headers: { ...(base.headers as object), 'Content-Type': 'application/json' },
      } as unknown as APIGatewayProxyEvent;
      const result = await handler(event, {} as Context);
      if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}: ${result.body.slice(0, 500)}`);
      return JSON.parse(result.body) as { relinked: number; already_linked: number; not_found: number; failed: number };
    };
    // Warm-up: the first set links everything.
    const first = await call(bodies[0]);
    if (first.relinked !== ITEMS) throw new Error(`expected ${ITEMS} relinked, got ${JSON.stringify({ ...first, results: undefined })}`);
    const relinking: number[] = [];
    const noop: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let start = process.hrtime.bigint();
      const changed = await call(bodies[(run + 1) % 2]);
      relinking.push(hrtimeMs(start));
      if (changed.relinked !== ITEMS) throw new Error(`run ${run}: ${changed.relinked} relinked`);
      start = process.hrtime.bigint();
      const same = await call(bodies[(run + 1) % 2]);
      noop.push(hrtimeMs(start));
      if (same.already_linked !== ITEMS) throw new Error(`run ${run}: ${same.already_linked} already linked`);
    }
    // Statements per request: 10 items against all of them (each relinks every item it names).
    const few = (set: number) => JSON.stringify({ items: externals.slice(0, 10).map((external_id, n) => ({ external_id, source_id: orders[n * 2 + set] })) });
    const last = (RUNS % 2) as 0 | 1;
    const large = await countStatements(() => call(bodies[1 - last]));
    const small = await countStatements(() => call(few(last)));
    if (small.result.relinked !== 10 || large.result.relinked !== ITEMS) throw new Error('statement count runs did not relink every item');
    const statements = { items10: small.statements, [`items${ITEMS}`]: large.statements, fixed: small.statements === large.statements };
    const stats = { relinking: summarize(relinking), noop: summarize(noop) };
    printTable(
      `Relink: ${ITEMS.toLocaleString()} items in one request (body ${round(bodyBytes / 1024, 1)} KiB of the 1024 KiB limit), ${NATIVE.toLocaleString()} native transactions beside them`,
      ['run', 'p50 ms', 'p95 ms', 'max ms'],
      [
        ['every item relinked', stats.relinking.p50, stats.relinking.p95, stats.relinking.max],
        ['re-run (every item already linked)', stats.noop.p50, stats.noop.p95, stats.noop.max],
      ],
    );
    console.log(`statements sent to PostgreSQL per request: ${small.statements} for 10 items, ${large.statements} for ${ITEMS.toLocaleString()} items`);
    const pass = stats.relinking.p50 < TARGET_MS && bodyBytes < BODY_LIMIT && statements.fixed;
    console.log(
      `target: under ${TARGET_MS} ms (p50, every item relinked), a body under 1 MiB, and as many statements for 10 items as for all: ${pass ? 'PASS' : 'FAIL'}`,
    );
    const file = writeResults('relink', { items: ITEMS, native: NATIVE, runs: RUNS, bodyBytes, stats, statements, targetMs: TARGET_MS, pass });
    console.log(`results: ${file}`);
    await closeDatabase();
    if (!pass) process.exitCode = 1;
  } finally {
    if (!process.argv.includes('--keep')) await dropDatabase(adminUrl, DATABASE);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
