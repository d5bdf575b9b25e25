/**
 * The reorder report over 50,000 products with 1,000,000 inventory transactions: its time through
 * the data layer and the GET /v1/purchasing/reorder-report handler (target: p50 under 300 ms for a
 * page, first or deep), and a walk of every page (100 rows each, cursor after cursor) against the
 * whole report in one call (target: the walk costs about one report, at most 1.5x).
 *
 *   npx tsx bench/reorder-report.ts [--products=50000] [--transactions=1000000] [--orders=20000] [--runs=10] [--walks=2] [--keep] [--reuse]
 *
 * --keep leaves the database for EXPLAIN; --reuse runs on the database a --keep run left (migrated
 * again, not reseeded) when it holds the same counts, and keeps it too.
 *
 * Seeds a dedicated database (bizops_bench_reorder, migrated with migrate(), dropped at the end) as
 * the postgres superuser with INSERT ... SELECT generate_series: products (a third with a preferred
 * vendor, lead time and order multiple), transactions spread over the last 400 days across the
 * demand-relevant types, the balance rows they imply, and open orders (committed and on_order are
 * computed from open order lines on every report): --orders documents of 5 lines each, a mix of
 * confirmed sales orders, confirmed purchase orders and closed or draft documents that must not
 * count. DATABASE_URL picks the server.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import pg from 'pg';
import { withDatabase } from '../shared/db/connection-url';
import { createDatabase, databaseUrl, dropDatabase, hrtimeMs, printTable, round, summarize, writeResults, countOption } from './lib';
import { getEvent, migrateBenchDatabase, seed, type Seeded } from './seed';

process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// The whole report in one call (the walk's yardstick, never a request) may outlast a request's 15 s.
process.env.DATABASE_STATEMENT_TIMEOUT_MS ??= '600000';

const PRODUCTS = Math.min(countOption('products', 50_000), 1_000_000);
const TRANSACTIONS = Math.min(countOption('transactions', 1_000_000), 20_000_000);
const RUNS = Math.min(countOption('runs', 10), 200);
const ORDERS = Math.min(countOption('orders', 20_000), 1_000_000);
const TARGET_MS = 300;
const WALK_TARGET_RATIO = 1.5;
const WALKS = Math.min(countOption('walks', 2), 20);
const DATABASE = 'bizops_bench_reorder';
const DEADLINE = Date.now() + 9 * 60_000;
const REUSE = process.argv.includes('--reuse');

/** The entity a --keep run seeded with these same counts, or undefined when there is none to reuse. */
async function seededEarlier(url: string): Promise<Pick<Seeded, 'entityId' | 'locationId' | 'authorizer'> | undefined> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  try {
    const found = await client.query<{ entity_id: string; code: string; key_id: string; user_id: string; location_id: string }>(
      `SELECT e.id AS entity_id, e.code, k.id AS key_id, k.created_by_user_id AS user_id, l.id AS location_id
         FROM entities e JOIN api_keys k ON k.entity_id = e.id JOIN locations l ON l.entity_id = e.id
        WHERE (SELECT count(*) FROM products p WHERE p.entity_id = e.id) = $1
          AND (SELECT count(*) FROM inventory_transactions t WHERE t.entity_id = e.id) = $2
          AND (SELECT count(*) FROM orders o WHERE o.entity_id = e.id) = $3
        ORDER BY k.created_at LIMIT 1`,
      [PRODUCTS, TRANSACTIONS, ORDERS],
    );
    const row = found.rows[0];
    if (!row) return undefined;
    return {
      entityId: row.entity_id,
      locationId: row.location_id,
      authorizer: { entityId: row.entity_id, entityCode: row.code, keyId: row.key_id, userId: row.user_id, mode: 'test', scopes: 'purchasing:read' },
    };
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

/** Products, vendors, transactions, balances and orders of the seeded entity, as the superuser. */
async function seedReportData(url: string, seeded: Pick<Seeded, 'entityId' | 'locationId'>): Promise<void> {
  const entity = seeded.entityId;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      `INSERT INTO products (id, entity_id, sku, name, product_type, cost, reorder_point, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'SKU-' || lpad(i::text, 7, '0'), 'Product ' || i, 'simple', 2.5, i % 50, now() - interval '500 days', now()
       FROM generate_series(1, $2::int) AS i`,
      [entity, PRODUCTS],
    );
    await admin.query(`INSERT INTO vendors (id, entity_id, name) SELECT gen_random_uuid(), $1, 'Vendor ' || i FROM generate_series(1, 50) AS i`, [entity]);
    await admin.query(
      `INSERT INTO product_vendors (id, entity_id, product_id, vendor_id, lead_time_days, order_multiple, vendor_cost, is_preferred)
       SELECT gen_random_uuid(), $1, p.id, (SELECT id FROM vendors WHERE entity_id = $1 ORDER BY id OFFSET (p.n % 50) LIMIT 1), 5 + p.n % 20, 6, 2.25, true
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM products WHERE entity_id = $1) p WHERE p.n % 3 = 0`,
      [entity],
    );
    // Transactions: products round-robin, dates over 400 days, a mix of sales, build draws, receipts and adjustments.
    for (let from = 1; from <= TRANSACTIONS; from += 250_000) {
      const to = Math.min(TRANSACTIONS, from + 249_999);
      await admin.query(
        `WITH p AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM products WHERE entity_id = $1)
         INSERT INTO inventory_transactions (id, entity_id, product_id, location_id, transaction_type, quantity, unit_cost, total_cost, occurred_at, created_at)
         SELECT gen_random_uuid(), $1, p.id, $2, t.kind, t.qty, 2.5, t.qty * 2.5, now() - (i % 400) * interval '1 day', now()
         FROM generate_series($3::int, $4::int) AS i
         JOIN p ON p.n = i % $5
         CROSS JOIN LATERAL (SELECT CASE i % 10 WHEN 0 THEN 'receive' WHEN 1 THEN 'build_consume' WHEN 2 THEN 'adjust' ELSE 'sale_fulfillment' END AS kind,
                                    CASE i % 10 WHEN 0 THEN 40 ELSE -(1 + i % 3) END AS qty) t`,
        [entity, seeded.locationId, from, to, PRODUCTS],
      );
    }
    await admin.query(
      `INSERT INTO inventory_balances (id, entity_id, product_id, location_id, on_hand, first_activity_at)
       SELECT gen_random_uuid(), $1, product_id, location_id, sum(quantity), min(occurred_at) FROM inventory_transactions WHERE entity_id = $1 GROUP BY product_id, location_id`,
      [entity],
    );
    // Orders: 30 % confirmed sales orders, 30 % confirmed purchase orders, the rest fulfilled, cancelled or draft.
    await admin.query(
      `INSERT INTO orders (id, entity_id, order_number, document_type, order_status, vendor_id, location_id, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'B-' || i, CASE WHEN i % 5 IN (0, 1) THEN 'purchase_order' ELSE 'sales_order' END,
              CASE WHEN i % 10 IN (2, 3, 4, 5) THEN 'confirmed' WHEN i % 10 IN (0, 1) THEN 'confirmed' WHEN i % 10 = 6 THEN 'fulfilled'
                   WHEN i % 10 = 7 THEN 'cancelled' ELSE 'draft' END,
              CASE WHEN i % 5 IN (0, 1) THEN (SELECT id FROM vendors WHERE entity_id = $1 LIMIT 1) END, $2, now(), now()
       FROM generate_series(1, $3::int) AS i`,
      [entity, seeded.locationId, ORDERS],
    );
    await admin.query(
      `WITH p AS (SELECT id, sku, row_number() OVER (ORDER BY id) - 1 AS n FROM products WHERE entity_id = $1),
            o AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM orders WHERE entity_id = $1)
       INSERT INTO order_lines (id, entity_id, order_id, product_id, sku, title, quantity, quantity_fulfilled, sell_rate, sort_order)
       SELECT gen_random_uuid(), $1, o.id, p.id, p.sku, p.sku, 1 + (o.n + k) % 7, (o.n + k) % 2, 3, k
       FROM o CROSS JOIN generate_series(1, 5) AS k JOIN p ON p.n = (o.n * 5 + k) % $2`,
      [entity, PRODUCTS],
    );
    // As autovacuum leaves a table of this size: statistics and the visibility map (index-only scans).
    await admin.query('VACUUM ANALYZE');
  } finally {
    await admin.end();
  }
}

async function main() {
  const adminUrl = databaseUrl();
  const earlier = REUSE ? await seededEarlier(withDatabase(adminUrl, DATABASE)) : undefined;
  const url = earlier ? withDatabase(adminUrl, DATABASE) : await createDatabase(adminUrl, DATABASE);
  try {
    await migrateBenchDatabase(url);
    const { configureDatabase, closeDatabase, withTransaction } = await import('../shared/db/database');
    configureDatabase(() => new pg.Pool({ connectionString: url, max: 4 }));
    const seeded = earlier ?? (await seed('purchasing:read'));
    const entity = seeded.entityId;
    const seedStart = process.hrtime.bigint();
    if (!earlier) await seedReportData(url, seeded);
    const seedMs = hrtimeMs(seedStart);

    const { reorderReport } = await import('../shared/inventory/reorder-report');
    const { openOrderQuantitiesSql } = await import('../shared/orders/open-order-quantities');
    const { handler } = await import('../functions/purchasing/get-reorder-report');
    const report = (basis: 'sales_and_builds' | 'consumption') =>
      withTransaction({ role: 'app_user', entityId: entity, readOnly: true }, (db) =>
        reorderReport(db, entity, { demand_window: 90, demand_basis: basis, limit: 100 }, openOrderQuantitiesSql),
      );
    const viaHandler = async (startingAfter?: string) => {
      const event = {
        ...getEvent({
          resource: '/v1/purchasing/reorder-report',
          path: '/v1/purchasing/reorder-report',
          authorizer: seeded.authorizer,
          requestId: `bench-${Math.random()}`,
        }),
        queryStringParameters: { demand_window: '90', ...(startingAfter && { starting_after: startingAfter }) },
      } as unknown as APIGatewayProxyEvent;
      const result = await handler(event, {} as Context);
      if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}: ${result.body}`);
    };
    const first = await report('sales_and_builds');
    await report('consumption');
    await viaHandler();
    // A deep page: the cursor halfway through the catalog in SKU order.
    const middle = (
      await withTransaction({ role: 'app_user', entityId: entity, readOnly: true }, (db) =>
        db.one<{ id: string }>('SELECT id FROM products WHERE entity_id = $1 ORDER BY sku_key LIMIT 1 OFFSET $2', [entity, Math.floor(PRODUCTS / 2)]),
      )
    ).id;
    await viaHandler(middle);
    const samples = { data: [] as number[], consumption: [] as number[], handler: [] as number[], handlerDeep: [] as number[] };
    for (let run = 0; run < RUNS && Date.now() < DEADLINE; run++) {
      let start = process.hrtime.bigint();
      await report('sales_and_builds');
      samples.data.push(hrtimeMs(start));
      start = process.hrtime.bigint();
      await report('consumption');
      samples.consumption.push(hrtimeMs(start));
      start = process.hrtime.bigint();
      await viaHandler();
      samples.handler.push(hrtimeMs(start));
      start = process.hrtime.bigint();
      await viaHandler(middle);
      samples.handlerDeep.push(hrtimeMs(start));
    }
    // The walk (every page of 100, each its own transaction as requests are) against the whole
    // report in one call, interleaved.
    const walk = async () => {
      let cursor: string | undefined;
      let pages = 0;
      let rows = 0;
      do {
        const page = await withTransaction({ role: 'app_user', entityId: entity, readOnly: true }, (db) =>
          reorderReport(db, entity, { demand_window: 90, demand_basis: 'sales_and_builds', limit: 100, starting_after: cursor }, openOrderQuantitiesSql),
        );
        pages++;
        rows += page.data.length;
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return { pages, rows };
    };
    const whole = () =>
      withTransaction({ role: 'app_user', entityId: entity, readOnly: true }, (db) =>
        reorderReport(db, entity, { demand_window: 90, demand_basis: 'sales_and_builds', limit: PRODUCTS + 1 }, openOrderQuantitiesSql),
      );
    const walkSamples = { walk: [] as number[], whole: [] as number[] };
    let walked = { pages: 0, rows: 0 };
    let wholeRows = 0;
    for (let run = 0; run < WALKS && Date.now() < DEADLINE; run++) {
      let start = process.hrtime.bigint();
      walked = await walk();
      walkSamples.walk.push(hrtimeMs(start));
      start = process.hrtime.bigint();
      wholeRows = (await whole()).data.length;
      walkSamples.whole.push(hrtimeMs(start));
    }
    if (walked.rows !== wholeRows) throw new Error(`the walk read ${walked.rows} rows, the whole report has ${wholeRows}`);
    const walkRatios = walkSamples.walk.map((ms, index) => ms / walkSamples.whole[index]);
    const stats = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)]));
    printTable(
      `Reorder report: ${PRODUCTS.toLocaleString()} products, ${TRANSACTIONS.toLocaleString()} transactions, ${ORDERS.toLocaleString()} orders (${(ORDERS * 5).toLocaleString()} lines), window 90 days (seeded in ${round(seedMs / 1000, 1)} s)`,
      ['path', 'p50 ms', 'p95 ms', 'max ms'],
      [
        ['data layer, sales_and_builds', stats.data.p50, stats.data.p95, stats.data.max],
        ['data layer, consumption', stats.consumption.p50, stats.consumption.p95, stats.consumption.max],
        ['GET handler (first page of 100)', stats.handler.p50, stats.handler.p95, stats.handler.max],
        ['GET handler (page of 100 at the middle SKU)', stats.handlerDeep.p50, stats.handlerDeep.p95, stats.handlerDeep.max],
      ],
    );
    printTable(
      `Every page (${walked.pages} pages of up to 100, ${walked.rows} rows) against the whole report in one call, ${walkSamples.walk.length} interleaved runs`,
      ['walk ms', 'one report ms', 'walk / one report'],
      walkSamples.walk.map((ms, index) => [round(ms, 0), round(walkSamples.whole[index], 0), `${round(walkRatios[index], 2)}x`]),
    );
    const walkRatio = summarize(walkRatios).p50;
    const pass = stats.handler.p50 < TARGET_MS && stats.handlerDeep.p50 < TARGET_MS && walkRatio <= WALK_TARGET_RATIO;
    console.log(`\nrows needing stock: first page ${first.data.length}, has_more ${first.has_more}`);
    console.log(
      `target: under ${TARGET_MS} ms per page (handler p50, first and deep) and a walk <= ${WALK_TARGET_RATIO}x one report: ${pass ? 'PASS' : 'FAIL'}`,
    );
    const file = writeResults('reorder-report', {
      products: PRODUCTS,
      transactions: TRANSACTIONS,
      orders: ORDERS,
      runs: samples.data.length,
      seedSeconds: round(seedMs / 1000, 1),
      stats,
      walk: { pages: walked.pages, rows: walked.rows, walkMs: walkSamples.walk, wholeMs: walkSamples.whole, ratios: walkRatios, ratio: walkRatio },
      targetMs: TARGET_MS,
      pass,
    });
    console.log(`results: ${file}`);
    await closeDatabase();
    if (!pass) process.exitCode = 1;
  } finally {
    // --keep (and --reuse) leave the seeded database for EXPLAIN (drop it with dropdb bizops_bench_reorder).
    if (!process.argv.includes('--keep') && !REUSE) await dropDatabase(adminUrl, DATABASE);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
