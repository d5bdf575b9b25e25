/**
 * Order write latency through the Lambda handlers (the whole stack: validation, one transaction
 * with the role switch, pricing, the totals engine, the outbox, JSON and ETag), called directly
 * with API Gateway proxy events. Target: p50 under 50 ms for each.
 *
 *   create 50     POST /v1/orders with 50 lines (a sales order; catalog pricing, tax on every line)
 *   patch 1/500   PATCH /v1/orders/{id}/items/{item_id}: the quantity of one line of a 500-line
 *                 order, which recalculates the whole order (every line's adjustments and tax, and
 *                 the header totals) in the same transaction
 *
 *   npx tsx bench/order-latency.ts [--runs=100] [--warmup=10]
 *
 * BENCH_COUNT_QUERIES=1 also prints the statements one 50-line create sends (count per text).
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres); the
 * database bizops_bench_orders is created from the migrations and dropped at the end.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import pg from 'pg';
import { assertLocal, createDatabase, databaseUrl, dropDatabase, hrtimeMs, printTable, round, summarize, writeResults, type Summary, option } from './lib';
import { connectBenchDatabase, seed } from './seed';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const DATABASE = 'bizops_bench_orders';
const TARGET_MS = 50;
const RUNS = Math.max(5, Math.min(option('runs', 100), 2000));
const WARMUP = Math.max(1, Math.min(option('warmup', 10), 200));
const PRODUCTS = 500;

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const context = { getRemainingTimeInMillis: () => 30_000, awsRequestId: 'bench' } as unknown as Context;
let requestCount = 0;

function event(
  authorizer: Record<string, string>,
  method: string,
  resource: string,
  path: string,
  pathParameters: Record<string, string> | null,
  body?: unknown,
): APIGatewayProxyEvent {
  requestCount += 1;
  return {
    resource,
    path,
    httpMethod: method,
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', Host: 'api.example.com', 'User-Agent': 'bench' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters,
    stageVariables: null,
    body: body === undefined ? null : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: `bench-${requestCount}`, authorizer, httpMethod: method, path, resourcePath: resource, stage: 'prod' },
  } as unknown as APIGatewayProxyEvent;
}

async function call(handler: Handler, request: APIGatewayProxyEvent, expected: number): Promise<Record<string, unknown>> {
  const response = await handler(request, context);
  if (response.statusCode !== expected) throw new Error(`${request.httpMethod} ${request.path}: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body) as Record<string, unknown>;
}

async function timed(work: (i: number) => Promise<unknown>): Promise<Summary> {
  for (let i = 0; i < WARMUP; i++) await work(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await work(WARMUP + i);
    samples.push(hrtimeMs(start));
  }
  return summarize(samples);
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  console.log(`order latency: ${RUNS} runs after ${WARMUP} warm-up, target p50 < ${TARGET_MS} ms`);
  const url = await createDatabase(adminUrl, DATABASE);
  const closers: (() => Promise<unknown>)[] = [() => dropDatabase(adminUrl, DATABASE)];
  try {
    const createProduct = (await import('../functions/products/create-product')).handler;
    const createAccount = (await import('../functions/accounts/create-account')).handler;
    const createTaxRate = (await import('../functions/tax-rates/create-tax-rate')).handler;
    const createOrder = (await import('../functions/orders/create-order')).handler;
    const updateLine = (await import('../functions/orders/update-line')).handler;
    closers.unshift(await connectBenchDatabase(url));

    const { authorizer } = await seed('products:write orders:write accounts:write settings:write');
    const account = await call(createAccount, event(authorizer, 'POST', '/v1/accounts', '/v1/accounts', null, { name: 'Bench customer' }), 201);
    const taxRate = await call(createTaxRate, event(authorizer, 'POST', '/v1/tax-rates', '/v1/tax-rates', null, { name: 'Sales tax', rate: '8.25' }), 201);
    const productIds: string[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      const body = {
        sku: `BENCH-${String(i).padStart(4, '0')}`,
        name: `Bench product ${i}`,
        list_price: `${10 + (i % 90)}.${String(i % 100).padStart(2, '0')}`,
        cost: '4.1000',
      };
      productIds.push((await call(createProduct, event(authorizer, 'POST', '/v1/products', '/v1/products', null, body), 201)).id as string);
    }
    const line = (productId: string, i: number) => ({
      product_id: productId,
      quantity: String(1 + (i % 7)),
      ...(i % 5 === 0 && { discount_percent: '10' }),
      tax_rate_id: taxRate.id as string,
    });
    const orderBody = (lines: number) => ({
      document_type: 'sales_order',
      account_id: account.id,
      shipping_total: '12.50',
      lines: productIds.slice(0, lines).map(line),
    });

    if (process.env.BENCH_COUNT_QUERIES) {
      const counts = new Map<string, number>();
      // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the patched call's own `this` (apply below)
      const original = pg.Client.prototype.query;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string })?.text ?? '?');
        const key = text.replace(/\s+/g, ' ').slice(0, 90);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof original;
      await call(createOrder, event(authorizer, 'POST', '/v1/orders', '/v1/orders', null, orderBody(50)), 201);
      console.log(
        'create 50:',
        [...counts.values()].reduce((a, b) => a + b, 0),
        'queries',
      );
      for (const [k, v] of [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(v, k);
      pg.Client.prototype.query = original;
    }
    const create50 = await timed(() => call(createOrder, event(authorizer, 'POST', '/v1/orders', '/v1/orders', null, orderBody(50)), 201));

    const big = await call(createOrder, event(authorizer, 'POST', '/v1/orders', '/v1/orders', null, orderBody(500)), 201);
    const orderId = big.id as string;
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    closers.unshift(() => pool.end());
    const lines = (await pool.query<{ id: string }>('SELECT id FROM order_lines WHERE order_id = $1 ORDER BY sort_order LIMIT 500', [orderId])).rows;
    if (lines.length !== 500) throw new Error(`expected 500 lines, got ${lines.length}`);
    const target = lines[250].id;
    const patch500 = await timed((i) =>
      call(
        updateLine,
        event(
          authorizer,
          'PATCH',
          '/v1/orders/{id}/items/{item_id}',
          `/v1/orders/${orderId}/items/${target}`,
          { id: orderId, item_id: target },
          { quantity: String(2 + (i % 9)) },
        ),
        200,
      ),
    );
    const check = (
      await pool.query<{ lines: number; total: string }>(
        'SELECT count(*)::int AS lines, (SELECT order_total FROM orders WHERE id = $1) AS total FROM order_lines WHERE order_id = $1',
        [orderId],
      )
    ).rows[0];

    printTable(
      'order writes through the handler (ms)',
      ['operation', 'p50', 'p95', 'p99', 'target p50'],
      [
        ['create 50 lines', round(create50.p50, 2), round(create50.p95, 2), round(create50.p99, 2), `< ${TARGET_MS}`],
        ['patch 1 line of 500', round(patch500.p50, 2), round(patch500.p95, 2), round(patch500.p99, 2), `< ${TARGET_MS}`],
      ],
    );
    console.log(`500-line order after the patches: ${check.lines} lines, order_total ${check.total}`);
    const file = writeResults('order-latency', { runs: RUNS, warmup: WARMUP, target_ms: TARGET_MS, create_50_lines: create50, patch_one_of_500: patch500 });
    console.log(`results: ${file}`);
    const failed = [create50, patch500].some((summary) => summary.p50 >= TARGET_MS);
    if (failed) process.exitCode = 1;
  } finally {
    for (const close of closers) await close().catch((error) => console.warn(`cleanup: ${(error as Error).message}`));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
