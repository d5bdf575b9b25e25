/**
 * AR aging and inventory valuation at 300,000 invoices (100,000 open), 5,000 customers and
 * 20,000 products, as of today and as of a year back. Target: handler p50 ≤ 300 ms, p95 ≤ 600 ms.
 *
 * The data: 5,000 customer accounts; invoice i dated over two years up to today, due 30 days
 * later; two invoices in three paid in full by one check payment dated 0 to 59 days after the
 * invoice (never after today), the rest open. 20,000 products at the default location, each with
 * three FIFO layers received over the two years and one sale that drew part of the oldest. The
 * accounts receivable and inventory day balances (gl_daily_balances) are what those documents post,
 * so each report's total is checked against its control account before anything is timed.
 *
 * p50 / p95 over --runs runs (after a warm-up) of the Lambda handler of each route, called with an
 * API Gateway proxy event, beside the trial balance's on the same data.
 *
 * Generated in SQL as the table owner with triggers off; the database (bizops_bench_subledger) is
 * created from the migrations and dropped at the end.
 *
 *   npx tsx bench/subledger-reports.ts [--runs=20] [--invoices=300000] [--products=20000] [--keep]
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import pg from 'pg';
import {
  assertLocal,
  countOption,
  createDatabase,
  databaseUrl,
  dropDatabase,
  hrtimeMs,
  option,
  printTable,
  round,
  timed,
  writeResults,
  type Summary,
} from './lib';
import { connectBenchDatabase, getEvent, seed } from './seed';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const DATABASE = 'bizops_bench_subledger';
const P50_TARGET_MS = 300;
const P95_TARGET_MS = 600;
const CUSTOMERS = 5_000;
const SPAN_DAYS = 730;

const RUNS = Math.max(3, Math.min(option('runs', 20), 200));
const INVOICES = countOption('invoices', 300_000);
const PRODUCTS = countOption('products', 20_000);

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Customers, invoices and their payments, and the AR day balances, as the owner with triggers off. */
async function generateReceivables(owner: pg.Client, entityId: string, today: string): Promise<void> {
  const first = `'${today}'::date - ${SPAN_DAYS}`;
  await owner.query('BEGIN');
  await owner.query('SET LOCAL session_replication_role = replica');
  await owner.query(
    `INSERT INTO accounts (id, entity_id, name) SELECT md5('c' || c)::uuid, $1, 'Customer ' || lpad(c::text, 5, '0') FROM generate_series(0, ${CUSTOMERS - 1}) AS g(c)`,
    [entityId],
  );
  // total: 10.00 .. 909.99; paid when i % 3 <> 0, on a date 0 to 59 days after the invoice, never after today.
  await owner.query(
    `CREATE TEMP TABLE bench_invoices ON COMMIT DROP AS
       SELECT i, md5('i' || i)::uuid AS id, md5('c' || (i % ${CUSTOMERS}))::uuid AS account_id,
              ${first} + (i * ${SPAN_DAYS}::bigint / $1)::int AS invoice_date,
              ((i::bigint * 7919) % 90000 + 1000) / 100.0 AS total,
              CASE WHEN i % 3 <> 0 THEN least(${first} + (i * ${SPAN_DAYS}::bigint / $1)::int + i % 60, '${today}'::date) END AS paid_on
         FROM generate_series(0, $1::int - 1) AS g(i)`,
    [INVOICES],
  );
  await owner.query(
    `INSERT INTO orders (id, entity_id, order_number, invoice_number, document_type, order_status, payment_status, customer_account_id, order_date, due_date,
       subtotal, order_total, amount_received, amount_paid, balance_due, journal_entry_id, last_applied_on)
     SELECT id, $1, 'INV-' || lpad(i::text, 7, '0'), 'INV-' || lpad(i::text, 7, '0'), 'invoice', 'confirmed',
            CASE WHEN paid_on IS NULL THEN 'unpaid' ELSE 'paid' END, account_id,
            (invoice_date + time '12:00') AT TIME ZONE 'UTC', (invoice_date + 30 + time '00:00') AT TIME ZONE 'UTC',
            total, total, CASE WHEN paid_on IS NULL THEN 0 ELSE total END, CASE WHEN paid_on IS NULL THEN 0 ELSE total END,
            CASE WHEN paid_on IS NULL THEN total ELSE 0 END, md5('ije' || i)::uuid, paid_on
       FROM bench_invoices`,
    [entityId],
  );
  await owner.query(
    `INSERT INTO payments (id, entity_id, account_id, amount, unapplied_amount, payment_method, payment_date, status, journal_entry_id)
     SELECT md5('p' || i)::uuid, $1, account_id, total, 0, 'check', paid_on, 'undeposited', md5('pje' || i)::uuid FROM bench_invoices WHERE paid_on IS NOT NULL`,
    [entityId],
  );
  await owner.query(
    `INSERT INTO payment_applications (id, entity_id, payment_id, order_id, amount_applied)
     SELECT md5('a' || i)::uuid, $1, md5('p' || i)::uuid, id, total FROM bench_invoices WHERE paid_on IS NOT NULL`,
    [entityId],
  );
  // What posting did to accounts receivable: debit the invoice on its date, credit the payment on its date.
  await owner.query(
    `INSERT INTO gl_daily_balances (entity_id, account_id, balance_date, debit_total, credit_total)
     SELECT $1, a.id, x.day, sum(x.debit), sum(x.credit)
       FROM (SELECT invoice_date AS day, total AS debit, 0 AS credit FROM bench_invoices
             UNION ALL SELECT paid_on, 0, total FROM bench_invoices WHERE paid_on IS NOT NULL) x
       JOIN gl_accounts a ON a.entity_id = $1 AND a.system_key = 'accounts_receivable'
      GROUP BY a.id, x.day`,
    [entityId],
  );
  await owner.query('COMMIT');
}

/** Products, three FIFO layers each and one sale drawing from the oldest, and the inventory day balances. */
async function generateStock(owner: pg.Client, entityId: string, locationId: string, today: string): Promise<void> {
  const first = `'${today}'::date - ${SPAN_DAYS}`;
  await owner.query('BEGIN');
  await owner.query('SET LOCAL session_replication_role = replica');
  await owner.query(
    `INSERT INTO products (id, entity_id, sku, name, product_type) SELECT md5('pr' || p)::uuid, $1, 'SKU-' || lpad(p::text, 6, '0'), 'Product ' || p, 'simple'
       FROM generate_series(0, $2::int - 1) AS g(p)`,
    [entityId, PRODUCTS],
  );
  // Layer j of product p: 10 + j units at 1.00 .. 50.99, received (p + 240 j) days into the span; the sale takes 4 units of layer 0, 30 days after it.
  await owner.query(
    `CREATE TEMP TABLE bench_layers ON COMMIT DROP AS
       SELECT p, j, md5('l' || p || '-' || j)::uuid AS id, md5('pr' || p)::uuid AS product_id, md5('t' || p || '-' || j)::uuid AS transaction_id,
              10 + j AS quantity, ((p * 31 + j * 17) % 5000 + 100) / 100.0 AS unit_cost,
              ${first} + ((p % 240) + 240 * j) AS received_on
         FROM generate_series(0, $1::int - 1) AS g(p) CROSS JOIN generate_series(0, 2) AS h(j)`,
    [PRODUCTS],
  );
  await owner.query(
    `INSERT INTO inventory_transactions (id, entity_id, product_id, location_id, transaction_type, quantity, unit_cost, total_cost, occurred_at)
     SELECT transaction_id, $1::uuid, product_id, $2::uuid, 'receive', quantity, unit_cost, quantity * unit_cost, (received_on + time '09:00') AT TIME ZONE 'UTC' FROM bench_layers
     UNION ALL
     SELECT md5('s' || p)::uuid, $1::uuid, product_id, $2::uuid, 'sale_fulfillment', -4, unit_cost, -4 * unit_cost, (received_on + 30 + time '15:00') AT TIME ZONE 'UTC'
       FROM bench_layers WHERE j = 0`,
    [entityId, locationId],
  );
  await owner.query(
    `INSERT INTO inventory_cost_layers (id, entity_id, product_id, location_id, transaction_id, unit_cost, original_quantity, remaining_quantity, remaining_value, received_at)
     SELECT id, $1, product_id, $2, transaction_id, unit_cost, quantity, quantity - CASE WHEN j = 0 THEN 4 ELSE 0 END,
            round((quantity - CASE WHEN j = 0 THEN 4 ELSE 0 END) * unit_cost, 2), (received_on + time '09:00') AT TIME ZONE 'UTC'
       FROM bench_layers`,
    [entityId, locationId],
  );
  await owner.query(
    `INSERT INTO inventory_layer_draws (id, entity_id, transaction_id, layer_id, quantity, unit_cost, cost, value)
     SELECT md5('d' || p)::uuid, $1, md5('s' || p)::uuid, id, 4, unit_cost, 4 * unit_cost, round(4 * unit_cost, 2) FROM bench_layers WHERE j = 0`,
    [entityId],
  );
  await owner.query(
    `INSERT INTO inventory_balances (id, entity_id, product_id, location_id, on_hand)
     SELECT md5('b' || p)::uuid, $1, product_id, $2, sum(quantity) - 4 FROM bench_layers GROUP BY p, product_id`,
    [entityId, locationId],
  );
  await owner.query(
    `INSERT INTO gl_daily_balances (entity_id, account_id, balance_date, debit_total, credit_total)
     SELECT $1, a.id, x.day, sum(x.debit), sum(x.credit)
       FROM (SELECT received_on AS day, round(quantity * unit_cost, 2) AS debit, 0 AS credit FROM bench_layers
             UNION ALL SELECT received_on + 30, 0, round(4 * unit_cost, 2) FROM bench_layers WHERE j = 0) x
       JOIN gl_accounts a ON a.entity_id = $1 AND a.system_key = 'inventory'
      GROUP BY a.id, x.day`,
    [entityId],
  );
  await owner.query('COMMIT');
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  console.log(
    `Subledger reports: ${INVOICES.toLocaleString('en-US')} invoices, ${CUSTOMERS.toLocaleString('en-US')} customers, ${PRODUCTS.toLocaleString('en-US')} products, ${RUNS} runs, target p50 ≤ ${P50_TARGET_MS} ms, p95 ≤ ${P95_TARGET_MS} ms`,
  );
  const url = await createDatabase(adminUrl, DATABASE);
  const owner = new pg.Client({ connectionString: url });
  const keep = process.argv.includes('--keep');
  const closers: (() => Promise<unknown>)[] = keep ? [] : [() => dropDatabase(adminUrl, DATABASE)];
  try {
    const { todayUtc } = await import('../shared/dates');
    const arAging = await import('../functions/reconciliation/get-ar-aging');
    const valuation = await import('../functions/reconciliation/get-inventory-valuation');
    const trialBalance = await import('../functions/reconciliation/get-trial-balance');
    closers.unshift(await connectBenchDatabase(url));
    await owner.connect();
    closers.unshift(() => owner.end());

    const { entityId, authorizer, locationId } = await seed('migration:read');
    const today = todayUtc();
    const yearBack = new Date(Date.parse(`${today}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
    const started = process.hrtime.bigint();
    await generateReceivables(owner, entityId, today);
    await generateStock(owner, entityId, locationId, today);
    for (const table of [
      'accounts',
      'orders',
      'payments',
      'payment_applications',
      'products',
      'inventory_transactions',
      'inventory_cost_layers',
      'inventory_layer_draws',
      'inventory_balances',
      'gl_daily_balances',
    ])
      await owner.query(`VACUUM ANALYZE ${table}`);
    const seedSeconds = hrtimeMs(started) / 1000;
    console.log(`seeded in ${round(seedSeconds, 1)} s`);

    let sequence = 0;
    const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;
    const invoke = async (handler: Handler, resource: string, asOf: string) => {
      const base = getEvent({
        resource,
        path: resource.replace('{entity_id}', entityId),
        pathParameters: { entity_id: entityId },
        authorizer,
        requestId: `bench-${++sequence}`,
      });
      const event = { ...base, queryStringParameters: { as_of_date: asOf }, multiValueQueryStringParameters: { as_of_date: [asOf] } };
      const response = await handler(event as unknown as APIGatewayProxyEvent, context);
      if (response.statusCode !== 200) throw new Error(`${resource}: ${response.statusCode} ${response.body}`);
      return JSON.parse(response.body) as Record<string, unknown>;
    };

    const reports = [
      ['AR aging', arAging],
      ['inventory valuation', valuation],
      ['trial balance', trialBalance],
    ] as const;
    const figures: Record<string, Record<string, unknown>> = {};
    const rows: (string | number)[][] = [];
    for (const [label, asOf] of [
      ['today', today],
      ['a year back', yearBack],
    ] as const) {
      // Checked before timing: each total against its control account.
      const aging = (await invoke(arAging.handler, arAging.route.path, asOf)) as {
        customers: unknown[];
        totals: { total: number };
        accounts_receivable_balance: number;
      };
      if (aging.totals.total !== aging.accounts_receivable_balance)
        throw new Error(`${asOf}: aging ${aging.totals.total} ≠ AR ${aging.accounts_receivable_balance}`);
      const stock = (await invoke(valuation.handler, valuation.route.path, asOf)) as {
        items: unknown[];
        totals: { value: number };
        inventory_account_balance: number;
      };
      if (stock.totals.value !== stock.inventory_account_balance)
        throw new Error(`${asOf}: valuation ${stock.totals.value} ≠ inventory ${stock.inventory_account_balance}`);
      const open = (
        await owner.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM orders o WHERE o.entity_id = $1 AND o.document_type = 'invoice' AND (o.order_date AT TIME ZONE 'UTC')::date <= $2
              AND NOT EXISTS (SELECT 1 FROM payments p JOIN payment_applications a ON a.payment_id = p.id WHERE a.order_id = o.id AND p.payment_date <= $2)`,
          [entityId, asOf],
        )
      ).rows[0].n;
      console.log(
        `${label} (${asOf}): ${open} open invoices of ${aging.customers.length} customers, AR ${aging.totals.total} = control; ${stock.items.length} stock rows, value ${stock.totals.value} = inventory`,
      );
      for (const [name, module] of reports) {
        const summary: Summary = await timed(RUNS, () => invoke(module.handler, module.route.path, asOf));
        figures[`${name}, ${label}`] = { as_of_date: asOf, open_invoices: open, handler: summary };
        rows.push([name, label, round(summary.p50, 1), round(summary.p95, 1)]);
      }
    }
    printTable(`handler p50 / p95 in ms (${RUNS} runs)`, ['report', 'as of', 'p50', 'p95'], rows);
    const measured = rows.filter((row) => row[0] !== 'trial balance');
    const verdict = measured.every((row) => (row[2] as number) <= P50_TARGET_MS && (row[3] as number) <= P95_TARGET_MS) ? 'PASS' : 'FAIL';
    console.log(`\ntargets p50 ≤ ${P50_TARGET_MS} ms, p95 ≤ ${P95_TARGET_MS} ms: ${verdict}`);
    const file = writeResults('subledger-reports', {
      runs: RUNS,
      invoices: INVOICES,
      customers: CUSTOMERS,
      products: PRODUCTS,
      seed_seconds: round(seedSeconds, 1),
      verdict,
      figures,
    });
    console.log(`results: ${file}`);
  } finally {
    for (const close of closers) await close().catch((error) => console.error(String(error)));
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
