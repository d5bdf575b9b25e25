/**
 * Loading volume through the local API (the local gateway, the authorizer with its cache, every
 * route's Lambda handler) on PostgreSQL, over HTTP from this process, one request at a time:
 *
 *   single   `--orders` sales orders of 5 lines for `--accounts` accounts, one POST /v1/orders each
 *   batch    the same orders again, 100 to a POST /v1/batch (atomic)
 *   floor    the same orders' header and line inserts alone, 100 to a transaction, in process: the
 *            rate no batch can pass
 *   ceiling  what a request costs beside its order's own work (single minus batch, per order) laid
 *            over the floor: (request cost + floor) / floor is the most a batch can reach while each
 *            of its operations is the route it names, since a faster route makes single requests
 *            faster by as much
 *   dry run  an invoice's confirmation (it posts to the ledger) with dry_run=true against the real
 *            one, on `--invoices` drafts, interleaved
 *
 * Targets (issue 44): batches ≥ 4× the records per second of single requests; a batch of 100
 * orders p50 ≤ 2 s; a dry-run confirmation ≤ 1.2× the real one (p50).
 *
 *   npx tsx bench/batch.ts [--orders=10000] [--accounts=1000] [--invoices=100]
 *   npx tsx bench/batch.ts --quick          (1,000 orders, 100 accounts, 40 invoices)
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres); the
 * database bizops_bench_batch is created from the migrations and dropped at the end.
 */
import type { AddressInfo } from 'node:net';
import { parseCommandLine } from '../local/command-line';
import { assertLocal, createDatabase, databaseUrl, dropDatabase, hrtimeMs, printTable, round, summarize, writeResults } from './lib';
import { connectBenchDatabase, seed, type Seeded } from './seed';
import type { Db } from '../shared/db/database';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// As npm start: nothing reads the metrics document locally, and printing it costs half the throughput.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const commandLine = parseCommandLine('usage: npx tsx bench/batch.ts [--orders=10000] [--accounts=1000] [--invoices=100] [--quick]', {
  options: ['orders', 'accounts', 'invoices'],
  flags: ['quick'],
});
const QUICK = commandLine.flags.has('quick');
const number = (name: string, full: number, quick: number) => Math.max(1, Number(commandLine.values[name] ?? (QUICK ? quick : full)));
const ORDERS = number('orders', 10_000, 1_000);
const ACCOUNTS = number('accounts', 1_000, 100);
const INVOICES = number('invoices', 100, 40);
const BATCH_SIZE = 100;
const LINES = 5;
const DATABASE = 'bizops_bench_batch';

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  const url = await createDatabase(adminUrl, DATABASE);
  const closers: (() => Promise<unknown>)[] = [() => dropDatabase(adminUrl, DATABASE)];
  try {
    closers.unshift(await connectBenchDatabase(url));
    const { ROUTE_MODULES } = await import('../functions/routes');
    const { createGatewayServer } = await import('../local/gateway');
    const { inEntity } = await import('../shared/tenants/identity-store');
    const seeded = await seed();
    const server = createGatewayServer({
      routes: Object.values(ROUTE_MODULES),
      authorizerCacheTtlMs: 300_000,
      rateLimit: { ratePerSecond: 1_000_000, burst: 1_000_000 },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.unshift(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const send = async (path: string, body: unknown, expected: number): Promise<Record<string, unknown>> => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${seeded.secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status !== expected) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json).slice(0, 500)}`);
      return json;
    };
    const inBatches = async <T>(items: T[], operation: (item: T) => unknown): Promise<Record<string, unknown>[]> => {
      const bodies: Record<string, unknown>[] = [];
      for (let start = 0; start < items.length; start += BATCH_SIZE) {
        const answer = await send('/v1/batch', { operations: items.slice(start, start + BATCH_SIZE).map(operation) }, 200);
        for (const result of answer.results as { body: Record<string, unknown> }[]) bodies.push(result.body);
      }
      return bodies;
    };

    console.log(`setup: ${ACCOUNTS} accounts, ${LINES} products (through batches)`);
    const accounts = await inBatches([...Array(ACCOUNTS).keys()], (i) => ({ method: 'POST', path: '/v1/accounts', body: { name: `Bench account ${i}` } }));
    const products = await inBatches([...Array(LINES).keys()], (i) => ({
      method: 'POST',
      path: '/v1/products',
      body: { sku: `BATCH-${i}`, name: `Batch product ${i}`, list_price: `${12 + i}.50`, cost: '4.00' },
    }));
    const orderBody = (i: number) => ({
      document_type: 'sales_order',
      account_id: accounts[i % ACCOUNTS].id,
      lines: products.map((product, line) => ({ product_id: product.id, quantity: 1 + ((i + line) % 4) })),
    });

    // Warm-up of both paths (JIT, pools, the authorizer cache): not counted.
    for (let i = 0; i < 20; i++) await send('/v1/orders', orderBody(i), 201);
    await send('/v1/batch', { operations: [0, 1].map((i) => ({ method: 'POST', path: '/v1/orders', body: orderBody(i) })) }, 200);

    console.log(`single: ${ORDERS} orders, one request each`);
    const singleStart = process.hrtime.bigint();
    const singleSamples: number[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const start = process.hrtime.bigint();
      await send('/v1/orders', orderBody(i), 201);
      singleSamples.push(hrtimeMs(start));
    }
    const singleSeconds = hrtimeMs(singleStart) / 1000;

    console.log(`batch: ${ORDERS} orders, ${BATCH_SIZE} a batch`);
    const batchStart = process.hrtime.bigint();
    const batchSamples: number[] = [];
    for (let start = 0; start < ORDERS; start += BATCH_SIZE) {
      const operations = [...Array(Math.min(BATCH_SIZE, ORDERS - start)).keys()].map((offset) => ({
        method: 'POST',
        path: '/v1/orders',
        body: orderBody(start + offset),
      }));
      const began = process.hrtime.bigint();
      const answer = await send('/v1/batch', { operations }, 200);
      batchSamples.push(hrtimeMs(began));
      if ((answer.results as unknown[]).length !== operations.length) throw new Error('a batch answered fewer results than it had operations');
    }
    const batchSeconds = hrtimeMs(batchStart) / 1000;

    // The floor of a batch: what an order must write at the least (its numbered header and its lines,
    // one statement each, as the route writes them) in transactions of 100 as a batch runs, without
    // HTTP, reads, checks, totals or events. No batch can load orders faster than this.
    console.log(`floor: ${ORDERS} orders, the header and line inserts alone, ${BATCH_SIZE} to a transaction`);
    const floorStart = process.hrtime.bigint();
    for (let start = 0; start < ORDERS; start += BATCH_SIZE) {
      await inEntity(seeded.entityId, async (db) => {
        for (let i = start; i < Math.min(ORDERS, start + BATCH_SIZE); i++) await insertMinimalOrder(db, seeded, orderBody(i), products);
      });
    }
    const floorSeconds = hrtimeMs(floorStart) / 1000;

    console.log(`dry run: ${INVOICES} invoice confirmations, dry run and real, interleaved`);
    const dryRunSamples: number[] = [];
    const realSamples: number[] = [];
    for (let i = 0; i < INVOICES; i++) {
      // Two drafts alike, one for each; alternating which runs first, so neither always meets a warmer cache.
      const drafts = {
        dry: await send('/v1/orders', { ...orderBody(i), document_type: 'invoice' }, 201),
        real: await send('/v1/orders', { ...orderBody(i), document_type: 'invoice' }, 201),
      };
      const runs = i % 2 === 0 ? (['dry', 'real'] as const) : (['real', 'dry'] as const);
      for (const kind of runs) {
        const path = `/v1/orders/${String(drafts[kind].id)}/confirm`;
        const start = process.hrtime.bigint();
        const answer = await send(kind === 'dry' ? `${path}?dry_run=true` : path, {}, 200);
        (kind === 'dry' ? dryRunSamples : realSamples).push(hrtimeMs(start));
        if (kind === 'dry' && answer.dry_run !== true) throw new Error('the dry run did not say so');
      }
    }

    const single = summarize(singleSamples);
    const batch = summarize(batchSamples);
    const dry = summarize(dryRunSamples);
    const real = summarize(realSamples);
    const singleRate = ORDERS / singleSeconds;
    const batchRate = ORDERS / batchSeconds;
    const floorRate = ORDERS / floorSeconds;
    printTable(
      `${ORDERS} sales orders of ${LINES} lines for ${ACCOUNTS} accounts`,
      ['load', 'seconds', 'orders/s', 'request p50 ms', 'request p95 ms'],
      [
        ['single requests', round(singleSeconds, 1), round(singleRate, 1), round(single.p50, 1), round(single.p95, 1)],
        [`batches of ${BATCH_SIZE}`, round(batchSeconds, 1), round(batchRate, 1), round(batch.p50, 1), round(batch.p95, 1)],
        ['floor (inserts alone)', round(floorSeconds, 1), round(floorRate, 1), '', ''],
      ],
    );
    printTable(
      `invoice confirmation (${INVOICES} each)`,
      ['request', 'p50 ms', 'p95 ms'],
      [
        ['real', round(real.p50, 1), round(real.p95, 1)],
        ['dry run', round(dry.p50, 1), round(dry.p95, 1)],
      ],
    );
    // Per order, ms: a single request is its order's work plus a request's own cost (HTTP, the
    // authorizer, the transaction, the outbox); in a batch, its order's work and a hundredth of that.
    const requestCostMs = 1000 / singleRate - 1000 / batchRate;
    const floorMs = 1000 / floorRate;
    const figures = {
      orders: ORDERS,
      accounts: ACCOUNTS,
      batchSpeedup: round(batchRate / singleRate, 2),
      floorSpeedup: round(floorRate / singleRate, 2),
      requestCostMs: round(requestCostMs, 2),
      floorMs: round(floorMs, 2),
      ceilingSpeedup: round((requestCostMs + floorMs) / floorMs, 2),
      batchP50Ms: round(batch.p50, 1),
      dryRunRatio: round(dry.p50 / real.p50, 2),
    };
    console.log(
      `a request's own cost ${figures.requestCostMs} ms an order, the inserts alone ${figures.floorMs} ms: no batch of routes can pass ${figures.ceilingSpeedup}× single requests`,
    );
    console.log(
      `batches ${figures.batchSpeedup}× the orders/s of single requests (target ≥ 4; the inserts alone ${figures.floorSpeedup}×); batch of ${BATCH_SIZE} p50 ${figures.batchP50Ms} ms (target ≤ 2000); dry run ${figures.dryRunRatio}× the real confirmation (target ≤ 1.2)`,
    );
    writeResults('batch', { ...figures, single, batch, dryRun: dry, real, singleRate, batchRate, floorRate });
  } finally {
    for (const close of closers) await close();
  }
}

/** The header (numbered by its INSERT, as the route numbers it) and the lines of a draft sales order, and nothing else. */
async function insertMinimalOrder(
  db: Db,
  seeded: Seeded,
  body: { account_id: unknown; lines: { product_id: unknown; quantity: number }[] },
  products: Record<string, unknown>[],
): Promise<void> {
  const { insertOrder } = await import('../shared/orders/order-store');
  const { newId } = await import('../shared/ids');
  const id = newId();
  await insertOrder(db, seeded.entityId, {
    id,
    document_type: 'sales_order',
    customer_account_id: String(body.account_id),
    vendor_id: null,
    location_id: seeded.locationId,
    po_number: null,
    order_date: null,
    due_date: null,
    shipping_total: '0',
    tax_exempt: false,
    delivery_option: null,
    notes: null,
    internal_notes: null,
    invoice_type: null,
    ship_complete: false,
    source_platform: null,
    external_order_id: null,
    external_order_number: null,
    metadata: {},
    created_by_user_id: seeded.userId,
    sales_channel_id: null,
  });
  await db.query(
    `INSERT INTO order_lines (entity_id, order_id, id, product_id, sku, title, quantity, list_price, sell_rate, unit_cost, sort_order)
     SELECT $1, $2, * FROM unnest($3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::numeric[], $8::numeric[], $8::numeric[], $9::numeric[], $10::integer[])`,
    [
      seeded.entityId,
      id,
      body.lines.map(() => newId()),
      body.lines.map((line) => line.product_id),
      products.map((product) => product.sku),
      products.map((product) => product.name),
      body.lines.map((line) => String(line.quantity)),
      products.map((product) => String(product.list_price)),
      products.map((product) => String(product.cost)),
      body.lines.map((_, index) => index + 1),
    ],
  );
}

await main();
