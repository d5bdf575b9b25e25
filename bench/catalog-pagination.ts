/**
 * List endpoints stay flat with depth: with 1,000,000 products in one entity, the page at cursor
 * depth 500,000 must cost at most 1.5x the first page (keyset pagination, no OFFSET). Product
 * search (?q=) that matches nothing must answer within 50 ms (the trigram index on lower(name)),
 * and one that matches a handful of products is timed beside it.
 *
 *   npx tsx bench/catalog-pagination.ts [--products=1000000] [--runs=30] [--limit=25]
 *
 * Seeds a dedicated database (bizops_bench_catalog, migrated with migrate(), dropped at the end)
 * with INSERT ... SELECT generate_series as the postgres superuser, then times listProducts() (the
 * data layer, inside the same entity-scoped transaction a request uses) and the GET /v1/products
 * Lambda handler, first page and deep page interleaved, p50 over --runs runs after a warm-up.
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import pg from 'pg';
import { createDatabase, databaseUrl, dropDatabase, hrtimeMs, printTable, round, summarize, writeResults, countOption } from './lib';
import { getEvent, migrateBenchDatabase, seed } from './seed';

process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const PRODUCTS = Math.min(countOption('products', 1_000_000), 5_000_000);
const RUNS = Math.min(countOption('runs', 30), 1000);
const LIMIT = Math.min(countOption('limit', 25), 100);
const DEPTH = Math.floor(PRODUCTS / 2);
const TARGET_RATIO = 1.5;
const SEARCH_TARGET_MS = 50;
const DATABASE = 'bizops_bench_catalog';
const DEADLINE = Date.now() + 9 * 60_000;

async function main() {
  const adminUrl = databaseUrl();
  const url = await createDatabase(adminUrl, DATABASE);
  try {
    await migrateBenchDatabase(url);
    const { configureDatabase, closeDatabase, withTransaction } = await import('../shared/db/database');
    configureDatabase(() => new pg.Pool({ connectionString: url, max: 4 }));
    const seeded = await seed('products:read');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const seedStart = process.hrtime.bigint();
    // One statement per 250,000 rows keeps each transaction's memory modest.
    for (let from = 1; from <= PRODUCTS; from += 250_000) {
      const to = Math.min(PRODUCTS, from + 249_999);
      await admin.query(
        `INSERT INTO products (id, entity_id, sku, name, product_type, list_price, cost, reorder_point, is_active, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'SKU-' || lpad(i::text, 8, '0'), 'Product ' || i, 'simple', (i % 1000) + 0.99, (i % 500) + 0.5, i % 20, true,
                timestamptz '2026-01-01' + i * interval '1 millisecond', timestamptz '2026-01-01' + i * interval '1 millisecond'
         FROM generate_series($2::int, $3::int) AS i`,
        [seeded.entityId, from, to],
      );
    }
    await admin.query('ANALYZE products');
    const seedMs = hrtimeMs(seedStart);
    // Finding the cursor is setup, not the measured path.
    const cursor = (
      await admin.query<{ id: string }>(`SELECT id FROM products WHERE entity_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`, [
        seeded.entityId,
        DEPTH - 1,
      ])
    ).rows[0].id;
    await admin.end();

    const { listProducts } = await import('../shared/catalog/products');
    const { productDemand } = await import('../shared/inventory/product-demand');
    const { handler } = await import('../functions/products/list-products');
    const page = (startingAfter?: string) =>
      withTransaction({ role: 'app_user', entityId: seeded.entityId, readOnly: true }, (db) =>
        listProducts(db, seeded.entityId, {}, { limit: LIMIT, starting_after: startingAfter }, productDemand),
      );
    const viaHandler = async (startingAfter?: string) => {
      const event = {
        ...getEvent({ resource: '/v1/products', path: '/v1/products', authorizer: seeded.authorizer, requestId: `bench-${Math.random()}` }),
        queryStringParameters: { limit: String(LIMIT), ...(startingAfter && { starting_after: startingAfter }) },
      } as unknown as APIGatewayProxyEvent;
      const result = await (handler as (e: APIGatewayProxyEvent, c: Context) => Promise<{ statusCode: number }>)(event, {} as Context);
      if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
    };

    const check = await page(cursor);
    if (check.data.length !== LIMIT) throw new Error(`deep page returned ${check.data.length} rows`);
    for (let i = 0; i < 5; i++) {
      await page();
      await page(cursor);
      await viaHandler();
      await viaHandler(cursor);
    }
    const search = (q: string) =>
      withTransaction({ role: 'app_user', entityId: seeded.entityId, readOnly: true }, (db) =>
        listProducts(db, seeded.entityId, { q }, { limit: LIMIT }, productDemand),
      );
    // 'product 12345' names products 12345 and 123450-123459 (and so on): a few matches, in any place.
    const someMatches = `product ${Math.floor(PRODUCTS / 80)}`;
    // 'product 9' names one product in nine: a common term, served by the ordered scan.
    const manyMatches = 'product 9';
    if ((await search('no such gizmo')).data.length !== 0 || (await search(someMatches)).data.length === 0 || (await search(manyMatches)).data.length !== LIMIT)
      throw new Error('search check failed');
    const samples = {
      dataFirst: [] as number[],
      dataDeep: [] as number[],
      handlerFirst: [] as number[],
      handlerDeep: [] as number[],
      searchNoMatch: [] as number[],
      searchSomeMatches: [] as number[],
      searchManyMatches: [] as number[],
    };
    for (let run = 0; run < RUNS && Date.now() < DEADLINE; run++) {
      // Alternate which goes first so neither benefits from the other's warm cache.
      const order = run % 2 === 0 ? [undefined, cursor] : [cursor, undefined];
      for (const startingAfter of order) {
        let start = process.hrtime.bigint();
        await page(startingAfter);
        (startingAfter ? samples.dataDeep : samples.dataFirst).push(hrtimeMs(start));
        start = process.hrtime.bigint();
        await viaHandler(startingAfter);
        (startingAfter ? samples.handlerDeep : samples.handlerFirst).push(hrtimeMs(start));
      }
      let start = process.hrtime.bigint();
      await search('no such gizmo');
      samples.searchNoMatch.push(hrtimeMs(start));
      start = process.hrtime.bigint();
      await search(someMatches);
      samples.searchSomeMatches.push(hrtimeMs(start));
      start = process.hrtime.bigint();
      await search(manyMatches);
      samples.searchManyMatches.push(hrtimeMs(start));
    }
    const stats = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)]));
    const dataRatio = stats.dataDeep.p50 / stats.dataFirst.p50;
    const handlerRatio = stats.handlerDeep.p50 / stats.handlerFirst.p50;
    printTable(
      `Product list pagination: ${PRODUCTS.toLocaleString()} products, page of ${LIMIT}, depth ${DEPTH.toLocaleString()} (seeded in ${round(seedMs / 1000, 1)} s)`,
      ['path', 'first p50 ms', 'deep p50 ms', 'deep p95 ms', 'ratio (p50)'],
      [
        ['data layer (listProducts)', stats.dataFirst.p50, stats.dataDeep.p50, stats.dataDeep.p95, dataRatio],
        ['GET /v1/products handler', stats.handlerFirst.p50, stats.handlerDeep.p50, stats.handlerDeep.p95, handlerRatio],
      ],
    );
    printTable(
      `Product search (?q=), ${PRODUCTS.toLocaleString()} products, data layer`,
      ['search', 'p50 ms', 'p95 ms', 'max ms'],
      [
        ["q='no such gizmo' (no match)", stats.searchNoMatch.p50, stats.searchNoMatch.p95, stats.searchNoMatch.max],
        [`q='${someMatches}' (a few matches)`, stats.searchSomeMatches.p50, stats.searchSomeMatches.p95, stats.searchSomeMatches.max],
        [`q='${manyMatches}' (one product in nine)`, stats.searchManyMatches.p50, stats.searchManyMatches.p95, stats.searchManyMatches.max],
      ],
    );
    const searchPass = stats.searchNoMatch.p50 <= SEARCH_TARGET_MS;
    const pass = dataRatio <= TARGET_RATIO && searchPass;
    console.log(`\ntarget: deep page <= ${TARGET_RATIO}x first page (data layer): ${dataRatio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`);
    console.log(`target: search with no match <= ${SEARCH_TARGET_MS} ms (p50): ${searchPass ? 'PASS' : 'FAIL'}`);
    const file = writeResults('catalog-pagination', {
      products: PRODUCTS,
      limit: LIMIT,
      depth: DEPTH,
      runs: samples.dataFirst.length,
      seedSeconds: round(seedMs / 1000, 1),
      stats,
      ratio: { dataLayer: round(dataRatio), handler: round(handlerRatio) },
      target: TARGET_RATIO,
      searchTargetMs: SEARCH_TARGET_MS,
      pass,
    });
    console.log(`results: ${file}`);
    await closeDatabase();
    if (!pass) process.exitCode = 1;
  } finally {
    await dropDatabase(adminUrl, DATABASE);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
