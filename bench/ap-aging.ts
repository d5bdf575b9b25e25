/**
 * AP aging (E23) at 100,000 posted vendor bills and 1,000,000 AP payment applications, as of today
 * and as of a year back. Target: p50 under 300 ms.
 *
 * The data: 500 vendors; bill i dated over two years up to today, due 30 days later, with ten
 * applications (200,000 payments of five applications each) dated 0 to 45 days after the bill;
 * a quarter of the bills are paid in full, the rest half; one application in fifty was voided
 * three days after it was applied. amount_paid, status, paid_off_on and last_applied_on are what the live applications give, and
 * the accounts payable day balances (gl_daily_balances) are what the bills, applications and voids
 * post, so the report's grand total can be checked against the control account, and its totals
 * against an independent computation from the applications, before anything is timed.
 *
 * p50 over --runs runs (after a warm-up) of:
 *   data layer   apAging() in a read-only entity-scoped transaction
 *   handler      the Lambda handler of the route, called with an API Gateway proxy event
 *
 * Generated in SQL as the table owner with triggers off; the database (bizops_bench_ap_aging) is
 * created from the migrations and dropped at the end.
 *
 *   npx tsx bench/ap-aging.ts [--runs=20] [--bills=100000] [--keep]   (--keep: leave the database for EXPLAIN)
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
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
import { connectBenchDatabase, invokeGet, seed } from './seed';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const DATABASE = 'bizops_bench_ap_aging';
const TARGET_MS = 300;
const VENDORS = 500;
const APPLICATIONS_PER_BILL = 10;
const SPAN_DAYS = 730;

const RUNS = Math.max(3, Math.min(option('runs', 20), 200));
const BILLS = countOption('bills', 100_000);

/** Vendors, bills, payments and applications, and the AP account's day balances, as the owner with triggers off. */
async function generate(owner: pg.Client, entityId: string, today: string): Promise<void> {
  const first = `'${today}'::date - ${SPAN_DAYS}`;
  await owner.query('BEGIN');
  await owner.query('SET LOCAL session_replication_role = replica');
  await owner.query(
    `INSERT INTO vendors (id, entity_id, name) SELECT md5('v' || v)::uuid, $1, 'Vendor ' || lpad(v::text, 4, '0') FROM generate_series(0, ${VENDORS - 1}) AS g(v)`,
    [entityId],
  );
  // unit: 10.00 .. 909.99; a quarter of the bills total 10 units (paid in full by their ten applications), the rest 20.
  await owner.query(
    `CREATE TEMP TABLE bench_bills ON COMMIT DROP AS
       SELECT i, md5('b' || i)::uuid AS id, md5('v' || (i % ${VENDORS}))::uuid AS vendor_id,
              ${first} + (i % ${SPAN_DAYS})::int AS bill_date,
              ((i * 7919) % 90000 + 1000) / 100.0 AS unit,
              CASE WHEN i % 4 = 0 THEN 10 ELSE 20 END AS units
         FROM generate_series(0, $1::int - 1) AS g(i)`,
    [BILLS],
  );
  await owner.query(
    `CREATE TEMP TABLE bench_applications ON COMMIT DROP AS
       SELECT b.i * ${APPLICATIONS_PER_BILL} + j AS k, b.id AS bill_id, b.vendor_id, b.unit AS amount, b.bill_date + 5 * j AS applied_on,
              CASE WHEN (b.i * ${APPLICATIONS_PER_BILL} + j) % 50 = 7 THEN b.bill_date + 5 * j + 3 END AS voided_on
         FROM bench_bills b CROSS JOIN generate_series(0, ${APPLICATIONS_PER_BILL - 1}) AS g(j)`,
  );
  await owner.query(
    `INSERT INTO vendor_bills (id, entity_id, bill_number, vendor_id, status, bill_date, due_date, subtotal, bill_total, amount_paid, paid_off_on, last_applied_on, journal_entry_id, posted_at)
     SELECT b.id, $1, 'BILL-' || lpad(b.i::text, 7, '0'), b.vendor_id,
            CASE WHEN p.paid = b.unit * b.units THEN 'paid' ELSE 'partially_paid' END,
            b.bill_date, b.bill_date + 30, b.unit * b.units, b.unit * b.units, p.paid,
            CASE WHEN p.paid = b.unit * b.units THEN p.last_applied END, p.last_applied, md5('je' || b.i)::uuid, now()
       FROM bench_bills b
       JOIN (SELECT bill_id, sum(amount) FILTER (WHERE voided_on IS NULL) AS paid, max(applied_on) FILTER (WHERE voided_on IS NULL) AS last_applied
               FROM bench_applications GROUP BY bill_id) p ON p.bill_id = b.id`,
    [entityId],
  );
  await owner.query(
    `INSERT INTO ap_payments (id, entity_id, payment_number, vendor_id, method, payment_date, amount, journal_entry_id)
     SELECT md5('p' || k / 5)::uuid, $1, 'APP-' || lpad((k / 5)::text, 7, '0'), min(vendor_id::text)::uuid, 'ach', min(applied_on), sum(amount), md5('pe' || k / 5)::uuid
       FROM bench_applications GROUP BY k / 5`,
    [entityId],
  );
  await owner.query(
    `INSERT INTO ap_payment_applications (id, entity_id, payment_id, bill_id, amount, applied_on, voided_on)
     SELECT md5('a' || k)::uuid, $1, md5('p' || k / 5)::uuid, bill_id, amount, applied_on, voided_on FROM bench_applications`,
    [entityId],
  );
  // What posting did to accounts payable: credit bill_total on bill_date, debit each application on
  // its date, credit it back on its void date.
  await owner.query(
    `INSERT INTO gl_daily_balances (entity_id, account_id, balance_date, debit_total, credit_total)
     SELECT $1, a.id, x.day, sum(x.debit), sum(x.credit)
       FROM (SELECT bill_date AS day, 0 AS debit, unit * units AS credit FROM bench_bills
             UNION ALL SELECT applied_on, amount, 0 FROM bench_applications
             UNION ALL SELECT voided_on, 0, amount FROM bench_applications WHERE voided_on IS NOT NULL) x
       JOIN gl_accounts a ON a.entity_id = $1 AND a.system_key = 'accounts_payable'
      GROUP BY a.id, x.day`,
    [entityId],
  );
  await owner.query('COMMIT');
  for (const table of ['vendors', 'vendor_bills', 'ap_payments', 'ap_payment_applications', 'gl_daily_balances']) await owner.query(`VACUUM ANALYZE ${table}`);
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  console.log(
    `AP aging: ${BILLS.toLocaleString('en-US')} bills, ${(BILLS * APPLICATIONS_PER_BILL).toLocaleString('en-US')} applications, ${RUNS} runs, target p50 < ${TARGET_MS} ms`,
  );
  const url = await createDatabase(adminUrl, DATABASE);
  const owner = new pg.Client({ connectionString: url });
  const keep = process.argv.includes('--keep');
  const closers: (() => Promise<unknown>)[] = keep ? [] : [() => dropDatabase(adminUrl, DATABASE)];
  try {
    const { withTransaction } = await import('../shared/db/database');
    const { apAging } = await import('../shared/payables/ap-aging');
    const { todayUtc } = await import('../shared/dates');
    const { amount } = await import('../shared/money');
    const route = await import('../functions/reconciliation/get-ap-aging');
    closers.unshift(await connectBenchDatabase(url));
    await owner.connect();
    closers.unshift(() => owner.end());

    const { entityId, authorizer } = await seed('migration:read');
    const today = todayUtc();
    const yearBack = new Date(Date.parse(`${today}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
    const started = process.hrtime.bigint();
    await generate(owner, entityId, today);
    const seedSeconds = hrtimeMs(started) / 1000;
    const counts = (
      await owner.query<{ bills: number; applications: number; payments: number }>(
        `SELECT (SELECT count(*)::int FROM vendor_bills WHERE entity_id = $1) AS bills,
                (SELECT count(*)::int FROM ap_payment_applications WHERE entity_id = $1) AS applications,
                (SELECT count(*)::int FROM ap_payments WHERE entity_id = $1) AS payments`,
        [entityId],
      )
    ).rows[0];
    console.log(`seeded in ${round(seedSeconds, 1)} s: ${JSON.stringify(counts)}`);

    const invoke = (asOf: string) =>
      invokeGet(route.handler, { resource: route.route.path, pathParameters: { entity_id: entityId }, query: { as_of_date: asOf }, authorizer });
    const inEntity = <T>(work: (db: import('../shared/db/database').Db) => Promise<T>) => withTransaction({ role: 'app_user', entityId, readOnly: true }, work);

    const figures: Record<string, Record<string, unknown>> = {};
    for (const [label, asOf] of [
      ['today', today],
      ['a year back', yearBack],
    ] as const) {
      // Checked before timing: the grand total against the control account and against the applications themselves.
      const report = await inEntity((db) => apAging(db, entityId, asOf));
      const independent = (
        await owner.query<{ total: string; bills: number }>(
          `SELECT coalesce(sum(b.bill_total - coalesce(a.paid, 0)), 0) AS total, count(*)::int AS bills
             FROM vendor_bills b
             LEFT JOIN (SELECT bill_id, sum(amount) AS paid FROM ap_payment_applications
                         WHERE entity_id = $1 AND applied_on <= $2 AND (voided_on IS NULL OR voided_on > $2) GROUP BY bill_id) a ON a.bill_id = b.id
            WHERE b.entity_id = $1 AND b.bill_date <= $2 AND b.bill_total - coalesce(a.paid, 0) <> 0`,
          [entityId, asOf],
        )
      ).rows[0];
      if (!amount(report.totals.total).eq(amount(independent.total)))
        throw new Error(`${asOf}: aging ${report.totals.total} ≠ applications ${independent.total}`);
      if (report.totals.total !== report.accounts_payable_balance)
        throw new Error(`${asOf}: aging ${report.totals.total} ≠ AP control ${report.accounts_payable_balance}`);
      console.log(`${label} (${asOf}): ${report.vendors.length} vendors, ${independent.bills} open bills, grand total ${report.totals.total} = AP control`);
      figures[label] = {
        as_of_date: asOf,
        open_bills: independent.bills,
        grand_total: report.totals.total,
        data_layer: await timed(RUNS, () => inEntity((db) => apAging(db, entityId, asOf))),
        handler: await timed(RUNS, () => invoke(asOf)),
      };
    }

    const rows = Object.entries(figures).map(([label, f]) => {
      const data = f.data_layer as Summary;
      const handler = f.handler as Summary;
      return [label, String(f.as_of_date), Number(f.open_bills), round(data.p50, 1), round(handler.p50, 1), round(handler.p95, 1)];
    });
    printTable(`p50 / p95 in ms (${RUNS} runs)`, ['as of', 'date', 'open bills', 'data layer p50', 'handler p50', 'handler p95'], rows);
    const worst = Math.max(...rows.map((row) => row[4] as number));
    const verdict = worst < TARGET_MS ? 'PASS' : 'FAIL';
    console.log(`\nworst handler p50 ${worst} ms (target < ${TARGET_MS} ms): ${verdict}`);
    const file = writeResults('ap-aging', {
      runs: RUNS,
      bills: counts.bills,
      applications: counts.applications,
      payments: counts.payments,
      vendors: VENDORS,
      seed_seconds: round(seedSeconds, 1),
      target_ms: TARGET_MS,
      worst_handler_p50_ms: worst,
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
