/**
 * The month-end and cutover reports (issue 43) at scale, side by side with the trial balance on
 * the same books: AR aging, AP aging, inventory valuation, balance sheet, profit and loss (twelve
 * months, and by month) and account activity, each as of today and as of a year back.
 * Targets: p50 ≤ 300 ms and p95 ≤ 600 ms per report; account activity's deepest page within 1.5×
 * its first.
 *
 * The books (one entity, two years up to the seeding day), at --scale=1:
 *   5,000 customers, 160,000 posted invoices (100,000 open today: 60,000 unpaid, 40,000 half paid;
 *     the rest paid 10–59 days after their date, or by today), 100,000 customer payments, one in eighty
 *     overpaid by 25.00 (unapplied credit in Customer Deposits and Credits);
 *   20,000 products stocked at two of three locations: 120,000 FIFO cost layers received over
 *     the first 640 days, the oldest layer of each balance sold in full and the next one half;
 *   500 vendors, 100,000 posted bills (a quarter paid in full, the rest half) and 200,000 AP
 *     payments of one application each;
 *   manual entries between a bank and 30 other accounts up to 2,000,000 journal lines.
 * Each document's entry is what the API posts for it (invoice: AR / revenue / sales tax; payment:
 * undeposited funds / AR / customer credits; receipt: inventory / received not billed; sale:
 * cost of goods sold / inventory; bill: cost of goods sold / AP; AP payment: AP / bank), and the
 * documents carry the figures those entries imply (balance_due, amount_paid, paid_off_on, last_applied_on,
 * remaining_quantity and remaining_value, on_hand). gl_daily_balances is built from the lines.
 * Before anything is timed the seed is checked: every entry balances, and open invoices, open
 * bills, unapplied payments and the cost layers tie to their control accounts, today and a year
 * back.
 *
 * It is written with set-based SQL (INSERT ... SELECT generate_series) as the table owner with
 * triggers off, in database bizops_bench_reports, which is kept: the next run reuses it (the seed
 * is recorded in the database's comment); --reseed builds it again. Other --scale values get a
 * database of their own (bizops_bench_reports_<scale × 1000>).
 *
 * Each report is called through its route's Lambda handler (the handler stack the server runs),
 * found in the route table (functions/routes.ts) by path: a route not there yet is reported as
 * "not present". Account activity (the accounts receivable account, from the first day of the
 * books) walks its pages through next_cursor, then times its first page and the deepest one reached
 * (--walk-seconds bounds the walk).
 *
 *   npx tsx bench/reports.ts [--runs=20] [--scale=1] [--reseed] [--walk-seconds=180]
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import pg from 'pg';
import { assertLocal, databaseUrl, hrtimeMs, openDatabase, option, printTable, round, timed, writeResults, type Summary } from './lib';
import { connectBenchDatabase, invokeGet, seed } from './seed';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// The EMF document each request prints would bury the tables; locally nothing reads it (as npm start).
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const TARGET_P50_MS = 300;
const TARGET_P95_MS = 600;
const TARGET_DEPTH_RATIO = 1.5;
/** Changes whenever the generated books change, so an older seed is rebuilt. */
const SEED_VERSION = 3;
const SPAN_DAYS = 730;

const RUNS = Math.max(3, Math.min(option('runs', 20), 200));
const SCALE = option('scale', 1);
if (SCALE <= 0 || SCALE > 1) throw new Error('--scale: a fraction of the full books, (0, 1]');
const WALK_SECONDS = option('walk-seconds', 180);
const RESEED = process.argv.includes('--reseed');
const DATABASE = SCALE === 1 ? 'bizops_bench_reports' : `bizops_bench_reports_${Math.round(SCALE * 1000)}`;

const scaled = (count: number) => Math.max(1, Math.round(count * SCALE));
const SIZES = {
  journalLines: scaled(2_000_000 / 2) * 2,
  customers: scaled(5_000),
  invoices: Math.max(8, scaled(160_000 / 8) * 8),
  products: scaled(20_000),
  vendors: scaled(500),
  bills: scaled(100_000),
};
const LOCATIONS = 3;
const FILLER_ACCOUNTS = 30;

/** What the seed recorded on the database, enough to call the routes again without seeding. */
interface SeedRecord {
  version: number;
  scale: number;
  seeded_on: string;
  seed_seconds: number;
  entity_id: string;
  authorizer: Record<string, string>;
}

/** The books, as the owner with triggers off, in one transaction. */
async function generate(owner: pg.Client, entityId: string, mainLocationId: string, today: string): Promise<void> {
  const q = (sql: string, values: unknown[] = []) => owner.query(sql, values);
  const first = `('${today}'::date - ${SPAN_DAYS - 1})`;
  const noon = (day: string) => `((${day})::timestamp + time '12:00') AT TIME ZONE 'UTC'`;
  // `days` after `day`, or, when that is still to come, a point between `day` and today (`share` fiftieths of the way), so recent documents are settled on days spread up to today.
  const within = (day: string, days: string, share: string) =>
    `CASE WHEN ${day} + ${days} <= '${today}'::date THEN ${day} + ${days} ELSE ${day} + ('${today}'::date - ${day}) * (${share}) / 50 END`;
  await q('BEGIN');
  await q('SET LOCAL session_replication_role = replica');
  await q("SET LOCAL work_mem = '64MB'");

  // The chart: the system accounts provisioning made, and the accounts manual entries move money between.
  await q(
    `INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype)
     SELECT md5('ga' || i)::uuid, $1, 'X' || lpad(i::text, 3, '0'), 'Bench account ' || i,
            (ARRAY['asset', 'liability', 'equity', 'revenue', 'expense'])[1 + i % 5],
            (ARRAY['other_current_asset', 'other_current_liability', 'owners_equity', 'income', 'expense'])[1 + i % 5]
       FROM generate_series(1, ${FILLER_ACCOUNTS}) AS g(i)`,
    [entityId],
  );
  await q(`CREATE TEMP TABLE bench_keys ON COMMIT DROP AS SELECT system_key AS key, id FROM gl_accounts WHERE entity_id = $1 AND system_key IS NOT NULL`, [
    entityId,
  ]);
  const account = (key: string) => `(SELECT id FROM bench_keys WHERE key = '${key}')`;
  await q(
    `CREATE TEMP TABLE bench_filler ON COMMIT DROP AS
       SELECT (row_number() OVER (ORDER BY code) - 1)::int AS k, id FROM gl_accounts WHERE entity_id = $1 AND (code LIKE 'X%' OR system_key = 'bank')`,
    [entityId],
  );

  // Locations, customers, products, vendors.
  await q(
    `INSERT INTO locations (id, entity_id, name, city, country)
     SELECT md5('loc' || i)::uuid, $1, 'Bench warehouse ' || i, 'Rotterdam', 'NL' FROM generate_series(1, ${LOCATIONS - 1}) AS g(i)`,
    [entityId],
  );
  await q(
    `CREATE TEMP TABLE bench_locations ON COMMIT DROP AS
       SELECT 0 AS k, $1::uuid AS id UNION ALL SELECT i, md5('loc' || i)::uuid FROM generate_series(1, ${LOCATIONS - 1}) AS g(i)`,
    [mainLocationId],
  );
  await q(
    `INSERT INTO accounts (id, entity_id, name) SELECT md5('c' || c)::uuid, $1, 'Customer ' || lpad(c::text, 5, '0') FROM generate_series(0, ${SIZES.customers - 1}) AS g(c)`,
    [entityId],
  );
  await q(
    `INSERT INTO products (id, entity_id, sku, name, product_type)
     SELECT md5('pr' || p)::uuid, $1, 'SKU-' || lpad(p::text, 6, '0'), 'Product ' || p, 'simple' FROM generate_series(0, ${SIZES.products - 1}) AS g(p)`,
    [entityId],
  );
  await q(
    `INSERT INTO vendors (id, entity_id, name) SELECT md5('v' || v)::uuid, $1, 'Vendor ' || lpad(v::text, 4, '0') FROM generate_series(0, ${SIZES.vendors - 1}) AS g(v)`,
    [entityId],
  );

  // Invoices: kind i % 8 is 0–1 half paid, 2–4 unpaid, 5–7 paid; one payment each when paid.
  await q(
    `CREATE TEMP TABLE bench_invoices ON COMMIT DROP AS
       SELECT i, id, customer_id, inv_date, subtotal, tax, subtotal + tax AS total, paid, extra,
              CASE WHEN paid > 0 THEN ${within('inv_date', '10 + i % 50', 'i % 50')} END AS pay_date
         FROM (SELECT i, md5('inv' || i)::uuid AS id, md5('c' || (i * 13) % ${SIZES.customers})::uuid AS customer_id,
                      ${first} + i % ${SPAN_DAYS} AS inv_date, s.subtotal, round(s.subtotal * 0.08, 2) AS tax,
                      CASE WHEN i % 8 IN (0, 1) THEN round((s.subtotal + round(s.subtotal * 0.08, 2)) / 2, 2)
                           WHEN i % 8 >= 5 THEN s.subtotal + round(s.subtotal * 0.08, 2) ELSE 0 END AS paid,
                      CASE WHEN i % 80 = 5 THEN 25.00 ELSE 0 END AS extra
                 FROM generate_series(0, ${SIZES.invoices - 1}) AS g(i)
                 CROSS JOIN LATERAL (SELECT ((i * 7919) % 90000 + 1000) / 100.0 AS subtotal) s) x`,
  );
  await q(
    `INSERT INTO orders (id, entity_id, order_number, document_type, order_status, payment_status, customer_account_id, location_id,
                         order_date, due_date, subtotal, tax_total, order_total, amount_paid, amount_received, balance_due,
                         invoice_number, invoice_type, journal_entry_id, last_applied_on, created_at, updated_at)
     SELECT id, $1, 'INV-' || lpad(i::text, 7, '0'), 'invoice', 'confirmed',
            CASE WHEN paid = 0 THEN 'unpaid' WHEN paid < total THEN 'partially_paid' ELSE 'paid' END, customer_id, $2,
            ${noon('inv_date')}, ${noon('inv_date + 30')}, subtotal, tax, total, paid, paid, total - paid,
            'INV-' || lpad(i::text, 7, '0'), 'manual', md5('ie' || i)::uuid, pay_date, ${noon('inv_date')}, ${noon('coalesce(pay_date, inv_date)')}
       FROM bench_invoices`,
    [entityId, mainLocationId],
  );
  await q(
    `INSERT INTO payments (id, entity_id, account_id, amount, unapplied_amount, payment_method, payment_date, status, order_id, journal_entry_id, created_at, updated_at)
     SELECT md5('p' || i)::uuid, $1, customer_id, paid + extra, extra, 'check', pay_date, 'undeposited', id, md5('pe' || i)::uuid, ${noon('pay_date')}, ${noon('pay_date')}
       FROM bench_invoices WHERE paid > 0`,
    [entityId],
  );
  await q(
    `INSERT INTO payment_applications (id, entity_id, payment_id, order_id, amount_applied, created_at, updated_at)
     SELECT md5('pa' || i)::uuid, $1, md5('p' || i)::uuid, id, paid, ${noon('pay_date')}, ${noon('pay_date')} FROM bench_invoices WHERE paid > 0`,
    [entityId],
  );

  // Stock: product p at locations (p + s) % 3, s = 0, 1; three layers each, 120 days apart; layer 0 sold in full 60 days after, layer 1 half 30 days after.
  await q(
    `CREATE TEMP TABLE bench_layers ON COMMIT DROP AS
       SELECT b.l, b.p, b.s, b.k, md5('pr' || b.p)::uuid AS product_id, loc.id AS location_id, b.recv_date, b.unit_cost, b.qty, b.value, b.drawn,
              b.recv_date + CASE b.k WHEN 0 THEN 60 ELSE 30 END AS draw_date,
              CASE b.k WHEN 0 THEN b.value WHEN 1 THEN round(b.value * b.drawn / b.qty, 2) ELSE 0 END AS draw_value
         FROM (SELECT l, p, s, k, recv_date, unit_cost, qty, round(qty * unit_cost, 2) AS value,
                      CASE k WHEN 0 THEN qty WHEN 1 THEN floor(qty / 2) ELSE 0 END AS drawn
                 FROM (SELECT (p * 2 + s) * 3 + k AS l, p, s, k, ${first} + (p * 7 + s * 3) % 400 + k * 120 AS recv_date,
                              (((p * 2 + s) * 3 + k) * 7919 % 5000 + 100) / 100.0 AS unit_cost, (10 + ((p * 2 + s) * 3 + k) % 40)::numeric AS qty
                         FROM generate_series(0, ${SIZES.products - 1}) AS gp(p), generate_series(0, 1) AS gs(s), generate_series(0, 2) AS gk(k)) a) b
         JOIN bench_locations loc ON loc.k = (b.p + b.s) % ${LOCATIONS}`,
  );
  await q(
    `INSERT INTO inventory_transactions (id, entity_id, product_id, location_id, transaction_type, quantity, unit_cost, total_cost, occurred_at, created_at)
     SELECT md5('rt' || l)::uuid, $1::uuid, product_id, location_id, 'receive', qty, unit_cost, qty * unit_cost, ${noon('recv_date')}, ${noon('recv_date')} FROM bench_layers
     UNION ALL
     SELECT md5('dt' || l)::uuid, $1::uuid, product_id, location_id, 'sale_fulfillment', -drawn, unit_cost, -(drawn * unit_cost), ${noon('draw_date')}, ${noon('draw_date')}
       FROM bench_layers WHERE drawn > 0`,
    [entityId],
  );
  await q(
    `INSERT INTO inventory_cost_layers (id, entity_id, product_id, location_id, transaction_id, unit_cost, original_quantity, remaining_quantity, remaining_value, received_at, created_at)
     SELECT md5('l' || l)::uuid, $1, product_id, location_id, md5('rt' || l)::uuid, unit_cost, qty, qty - drawn, value - draw_value, ${noon('recv_date')}, ${noon('recv_date')}
       FROM bench_layers`,
    [entityId],
  );
  await q(
    `INSERT INTO inventory_layer_draws (id, entity_id, transaction_id, layer_id, quantity, unit_cost, cost, value, created_at)
     SELECT md5('ld' || l)::uuid, $1, md5('dt' || l)::uuid, md5('l' || l)::uuid, drawn, unit_cost, drawn * unit_cost, draw_value, ${noon('draw_date')}
       FROM bench_layers WHERE drawn > 0`,
    [entityId],
  );
  await q(
    `INSERT INTO inventory_balances (id, entity_id, product_id, location_id, on_hand, first_activity_at, created_at, updated_at)
     SELECT md5('ib' || p || '-' || s)::uuid, $1, product_id, location_id, sum(qty - drawn), ${noon('min(recv_date)')}, ${noon('min(recv_date)')}, ${noon('max(draw_date)')}
       FROM bench_layers GROUP BY p, s, product_id, location_id`,
    [entityId],
  );

  // Bills: a quarter total two units and are paid in full by their two applications, the rest four units and are half paid.
  await q(
    `CREATE TEMP TABLE bench_bills ON COMMIT DROP AS
       SELECT b, md5('b' || b)::uuid AS id, md5('v' || b % ${SIZES.vendors})::uuid AS vendor_id, ${first} + b % ${SPAN_DAYS} AS bill_date,
              ((b * 7919) % 90000 + 1000) / 100.0 AS unit, CASE WHEN b % 4 = 0 THEN 2 ELSE 4 END AS units
         FROM generate_series(0, ${SIZES.bills - 1}) AS g(b)`,
  );
  await q(
    `CREATE TEMP TABLE bench_ap_applications ON COMMIT DROP AS
       SELECT b.b * 2 + j AS k, b.id AS bill_id, b.vendor_id, b.unit AS amount, ${within('b.bill_date', '5 + 10 * j', '10 + 30 * j')} AS applied_on
         FROM bench_bills b CROSS JOIN generate_series(0, 1) AS g(j)`,
  );
  await q(
    `INSERT INTO vendor_bills (id, entity_id, bill_number, vendor_id, status, bill_date, due_date, subtotal, bill_total, amount_paid, paid_off_on, last_applied_on,
                               journal_entry_id, posted_at)
     SELECT b.id, $1, 'BILL-' || lpad(b.b::text, 7, '0'), b.vendor_id, CASE WHEN b.units = 2 THEN 'paid' ELSE 'partially_paid' END,
            b.bill_date, b.bill_date + 30, b.unit * b.units, b.unit * b.units, 2 * b.unit,
            CASE WHEN b.units = 2 THEN greatest(${within('b.bill_date', '5', '10')}, ${within('b.bill_date', '15', '40')}) END,
            greatest(${within('b.bill_date', '5', '10')}, ${within('b.bill_date', '15', '40')}), md5('be' || b.b)::uuid, ${noon('b.bill_date')}
       FROM bench_bills b`,
    [entityId],
  );
  await q(
    `INSERT INTO ap_payments (id, entity_id, payment_number, vendor_id, method, payment_date, amount, journal_entry_id)
     SELECT md5('ap' || k)::uuid, $1, 'APP-' || lpad(k::text, 7, '0'), vendor_id, 'ach', applied_on, amount, md5('ape' || k)::uuid FROM bench_ap_applications`,
    [entityId],
  );
  await q(
    `INSERT INTO ap_payment_applications (id, entity_id, payment_id, bill_id, amount, applied_on)
     SELECT md5('apa' || k)::uuid, $1, md5('ap' || k)::uuid, bill_id, amount, applied_on FROM bench_ap_applications`,
    [entityId],
  );

  // Every document's entry, then manual entries up to the line count.
  await q(
    `CREATE TEMP TABLE bench_postings ON COMMIT DROP AS
     SELECT md5('ie' || i)::uuid AS entry_id, 'BI-' || i AS entry_number, inv_date AS entry_date, 'invoice' AS source_type, id AS source_id, n AS line_number,
            CASE n WHEN 1 THEN ${account('accounts_receivable')} WHEN 2 THEN ${account('sales_revenue')} ELSE ${account('sales_tax_payable')} END AS account_id,
            CASE n WHEN 1 THEN total ELSE 0 END AS debit, CASE n WHEN 2 THEN subtotal WHEN 3 THEN tax ELSE 0 END AS credit
       FROM bench_invoices CROSS JOIN generate_series(1, 3) AS g(n)
     UNION ALL
     SELECT md5('pe' || i)::uuid, 'BP-' || i, pay_date, 'payment', md5('p' || i)::uuid, n,
            CASE n WHEN 1 THEN ${account('undeposited_funds')} WHEN 2 THEN ${account('accounts_receivable')} ELSE ${account('customer_credits')} END,
            CASE n WHEN 1 THEN paid + extra ELSE 0 END, CASE n WHEN 2 THEN paid WHEN 3 THEN extra ELSE 0 END
       FROM bench_invoices CROSS JOIN generate_series(1, 3) AS g(n) WHERE paid > 0 AND (n < 3 OR extra > 0)
     UNION ALL
     SELECT md5('rte' || l)::uuid, 'BR-' || l, recv_date, 'inventory_receipt', md5('rt' || l)::uuid, n,
            CASE n WHEN 1 THEN ${account('inventory')} ELSE ${account('received_not_billed')} END,
            CASE n WHEN 1 THEN value ELSE 0 END, CASE n WHEN 2 THEN value ELSE 0 END
       FROM bench_layers CROSS JOIN generate_series(1, 2) AS g(n)
     UNION ALL
     SELECT md5('dte' || l)::uuid, 'BS-' || l, draw_date, 'order_fulfillment', md5('dt' || l)::uuid, n,
            CASE n WHEN 1 THEN ${account('cost_of_goods_sold')} ELSE ${account('inventory')} END,
            CASE n WHEN 1 THEN draw_value ELSE 0 END, CASE n WHEN 2 THEN draw_value ELSE 0 END
       FROM bench_layers CROSS JOIN generate_series(1, 2) AS g(n) WHERE drawn > 0
     UNION ALL
     SELECT md5('be' || b)::uuid, 'BB-' || b, bill_date, 'vendor_bill', id, n,
            CASE n WHEN 1 THEN ${account('cost_of_goods_sold')} ELSE ${account('accounts_payable')} END,
            CASE n WHEN 1 THEN unit * units ELSE 0 END, CASE n WHEN 2 THEN unit * units ELSE 0 END
       FROM bench_bills CROSS JOIN generate_series(1, 2) AS g(n)
     UNION ALL
     SELECT md5('ape' || k)::uuid, 'BA-' || k, applied_on, 'ap_payment', md5('ap' || k)::uuid, n,
            CASE n WHEN 1 THEN ${account('accounts_payable')} ELSE ${account('bank')} END,
            CASE n WHEN 1 THEN amount ELSE 0 END, CASE n WHEN 2 THEN amount ELSE 0 END
       FROM bench_ap_applications CROSS JOIN generate_series(1, 2) AS g(n)`,
  );
  const documentLines = (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM bench_postings')).rows[0].n;
  const manualEntries = (SIZES.journalLines - documentLines) / 2;
  if (!Number.isInteger(manualEntries) || manualEntries < 0) throw new Error(`documents post ${documentLines} lines, more than ${SIZES.journalLines}`);
  // Debit filler account (i * 31) mod n, credit (i * 17 + 5) mod n, never the same one.
  await q(
    `INSERT INTO bench_postings
     SELECT md5('me' || i)::uuid, 'BM-' || i, ${first} + (i % ${SPAN_DAYS})::int, 'manual', NULL::uuid, side, f.id,
            CASE WHEN side = 1 THEN ((i * 7919) % 100000 + 1) / 100.0 ELSE 0 END, CASE WHEN side = 2 THEN ((i * 7919) % 100000 + 1) / 100.0 ELSE 0 END
       FROM generate_series(0, $1::bigint - 1) AS g(i)
       CROSS JOIN (VALUES (1), (2)) AS s(side)
       JOIN bench_filler f ON f.k = CASE WHEN side = 1 THEN (i * 31) % ${FILLER_ACCOUNTS + 1}
                                         ELSE ((i * 17 + 5) % ${FILLER_ACCOUNTS + 1} + CASE WHEN (i * 17 + 5) % ${FILLER_ACCOUNTS + 1} = (i * 31) % ${FILLER_ACCOUNTS + 1} THEN 1 ELSE 0 END) % ${FILLER_ACCOUNTS + 1} END`,
    [manualEntries],
  );
  await q(
    `INSERT INTO journal_entries (id, entity_id, entry_number, status, entry_date, memo, source_type, source_id, line_count, total_amount, posted_at, created_at, updated_at)
     SELECT entry_id, $1, min(entry_number), 'posted', min(entry_date), 'bench', min(source_type), (array_agg(source_id))[1], count(*), sum(debit),
            ${noon('min(entry_date)')}, ${noon('min(entry_date)')}, ${noon('min(entry_date)')}
       FROM bench_postings GROUP BY entry_id`,
    [entityId],
  );
  await q(
    `INSERT INTO journal_lines (id, entity_id, entry_id, line_number, account_id, debit, credit, entry_date, created_at)
     SELECT overlay(overlay(md5('jl' || entry_id || '-' || line_number) placing '4' from 13) placing '8' from 17)::uuid, $1, entry_id, line_number, account_id, debit, credit, entry_date, ${noon('entry_date')}
       FROM bench_postings ORDER BY entry_date, entry_number, line_number`,
    [entityId],
  );
  await q(
    `INSERT INTO gl_daily_balances (entity_id, account_id, balance_date, debit_total, credit_total)
     SELECT entity_id, account_id, entry_date, sum(debit), sum(credit) FROM journal_lines WHERE entity_id = $1 GROUP BY 1, 2, 3`,
    [entityId],
  );
  await q('COMMIT');
  for (const table of [
    'gl_accounts',
    'accounts',
    'products',
    'vendors',
    'locations',
    'orders',
    'payments',
    'payment_applications',
    'inventory_transactions',
    'inventory_cost_layers',
    'inventory_layer_draws',
    'inventory_balances',
    'vendor_bills',
    'ap_payments',
    'ap_payment_applications',
    'journal_entries',
    'journal_lines',
    'gl_daily_balances',
  ])
    await q(`VACUUM ANALYZE ${table}`);
}

/** The seed's own figures, computed from the documents and from the ledger; they must agree before anything is timed. */
async function checkBooks(owner: pg.Client, entityId: string, dates: string[]): Promise<Record<string, unknown>> {
  const one = async <T>(sql: string, values: unknown[]) => (await owner.query<T & pg.QueryResultRow>(sql, values)).rows[0];
  const counts = await one<{ lines: number; entries: number; unbalanced: number; open_invoices: number; open_bills: number; layers: number }>(
    `SELECT (SELECT count(*)::int FROM journal_lines WHERE entity_id = $1) AS lines,
            (SELECT count(*)::int FROM journal_entries WHERE entity_id = $1) AS entries,
            (SELECT count(*)::int FROM (SELECT entry_id FROM journal_lines WHERE entity_id = $1 GROUP BY entry_id HAVING sum(debit) <> sum(credit)) u) AS unbalanced,
            (SELECT count(*)::int FROM orders WHERE entity_id = $1 AND document_type = 'invoice' AND balance_due <> 0) AS open_invoices,
            (SELECT count(*)::int FROM vendor_bills WHERE entity_id = $1 AND bill_total <> amount_paid) AS open_bills,
            (SELECT count(*)::int FROM inventory_cost_layers WHERE entity_id = $1) AS layers`,
    [entityId],
  );
  if (counts.unbalanced !== 0) throw new Error(`${counts.unbalanced} journal entries do not balance`);
  const ties: Record<string, unknown> = {};
  for (const date of dates) {
    const tie = await one<Record<string, string>>(
      `WITH gl AS (
         SELECT a.system_key, sum(d.debit_total - d.credit_total) AS net FROM gl_daily_balances d JOIN gl_accounts a ON a.entity_id = d.entity_id AND a.id = d.account_id
          WHERE d.entity_id = $1 AND d.balance_date <= $2::date AND a.system_key IN ('accounts_receivable', 'accounts_payable', 'inventory', 'customer_credits')
          GROUP BY a.system_key)
       SELECT (SELECT coalesce(sum(o.order_total), 0) - coalesce((SELECT sum(a.amount_applied) FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
                                                                 WHERE a.entity_id = $1 AND p.payment_date <= $2::date), 0)
                 FROM orders o WHERE o.entity_id = $1 AND o.document_type = 'invoice' AND o.order_date < ($2::date + 1)::timestamp AT TIME ZONE 'UTC') AS open_invoices,
              (SELECT net FROM gl WHERE system_key = 'accounts_receivable') AS ar,
              (SELECT coalesce(sum(b.bill_total), 0) - coalesce((SELECT sum(a.amount) FROM ap_payment_applications a WHERE a.entity_id = $1 AND a.applied_on <= $2::date), 0)
                 FROM vendor_bills b WHERE b.entity_id = $1 AND b.bill_date <= $2::date) AS open_bills,
              (SELECT -net FROM gl WHERE system_key = 'accounts_payable') AS ap,
              (SELECT coalesce(sum(round(l.original_quantity * l.unit_cost, 2)), 0)
                      - coalesce((SELECT sum(d.value) FROM inventory_layer_draws d JOIN inventory_transactions t ON t.entity_id = d.entity_id AND t.id = d.transaction_id
                                   WHERE d.entity_id = $1 AND t.occurred_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'), 0)
                 FROM inventory_cost_layers l WHERE l.entity_id = $1 AND l.received_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC') AS layers,
              (SELECT net FROM gl WHERE system_key = 'inventory') AS inventory,
              (SELECT coalesce(sum(unapplied_amount), 0) FROM payments WHERE entity_id = $1 AND payment_date <= $2::date) AS unapplied,
              (SELECT -net FROM gl WHERE system_key = 'customer_credits') AS customer_credits`,
      [entityId, date],
    );
    for (const [documents, ledger] of [
      ['open_invoices', 'ar'],
      ['open_bills', 'ap'],
      ['layers', 'inventory'],
      ['unapplied', 'customer_credits'],
    ])
      if (Number(tie[documents]) !== Number(tie[ledger])) throw new Error(`${date}: ${documents} ${tie[documents]} ≠ ${ledger} ${tie[ledger]}`);
    ties[date] = tie;
  }
  return { ...counts, ties };
}

interface Report {
  name: string;
  path: string;
  query: (asOf: string) => Record<string, string>;
}

const yearBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  const { url, comment } = await openDatabase(adminUrl, DATABASE, { reset: RESEED });
  const owner = new pg.Client({ connectionString: url });
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const { todayUtc } = await import('../shared/dates');
    const { ROUTE_MODULES } = await import('../functions/routes');
    closers.unshift(await connectBenchDatabase(url));
    await owner.connect();
    closers.unshift(() => owner.end());
    const today = todayUtc();

    let record = comment ? (JSON.parse(comment) as SeedRecord) : null;
    if (record && (record.version !== SEED_VERSION || record.scale !== SCALE)) {
      throw new Error(`${DATABASE} holds another seed (${comment}); run with --reseed`);
    }
    if (!record) {
      console.log(`seeding ${DATABASE}: ${JSON.stringify(SIZES)}`);
      const started = process.hrtime.bigint();
      const seeded = await seed('migration:read accounting:read');
      await generate(owner, seeded.entityId, seeded.locationId, today);
      const seedSeconds = round(hrtimeMs(started) / 1000, 1);
      record = { version: SEED_VERSION, scale: SCALE, seeded_on: today, seed_seconds: seedSeconds, entity_id: seeded.entityId, authorizer: seeded.authorizer };
      await owner.query(`COMMENT ON DATABASE ${DATABASE} IS '${JSON.stringify(record).replaceAll("'", "''")}'`);
      console.log(`seeded in ${seedSeconds} s`);
    } else {
      console.log(`reusing ${DATABASE}, seeded on ${record.seeded_on} in ${record.seed_seconds} s (--reseed to build it again)`);
    }
    const { entity_id: entityId, authorizer } = record;
    const yearBack = yearBefore(today);
    const firstDay = (await owner.query<{ day: string }>(`SELECT min(entry_date)::text AS day FROM journal_lines WHERE entity_id = $1`, [entityId])).rows[0]
      .day;
    const books = await checkBooks(owner, entityId, [today, yearBack]);
    console.log(`books: ${JSON.stringify({ ...books, ties: undefined })}; documents tie to their control accounts on ${today} and ${yearBack}`);
    const arAccount = (await owner.query<{ id: string }>(`SELECT id FROM gl_accounts WHERE entity_id = $1 AND system_key = 'accounts_receivable'`, [entityId]))
      .rows[0].id;

    const reports: Report[] = [
      { name: 'trial balance', path: '/v1/entities/{entity_id}/reconciliation/trial-balance', query: (asOf) => ({ as_of_date: asOf }) },
      { name: 'AP aging', path: '/v1/entities/{entity_id}/reconciliation/ap-aging', query: (asOf) => ({ as_of_date: asOf }) },
      { name: 'AR aging', path: '/v1/entities/{entity_id}/reconciliation/ar-aging', query: (asOf) => ({ as_of_date: asOf }) },
      {
        name: 'AR aging, expand customers.invoices',
        path: '/v1/entities/{entity_id}/reconciliation/ar-aging',
        query: (asOf) => ({ as_of_date: asOf, 'expand[]': 'customers.invoices' }),
      },
      {
        name: 'inventory valuation, first page',
        path: '/v1/entities/{entity_id}/reconciliation/inventory-valuation',
        query: (asOf) => ({ as_of_date: asOf, limit: '100' }),
      },
      { name: 'balance sheet', path: '/v1/entities/{entity_id}/reports/balance-sheet', query: (asOf) => ({ as_of_date: asOf }) },
      {
        name: 'profit and loss, 12 months',
        path: '/v1/entities/{entity_id}/reports/profit-and-loss',
        query: (asOf) => ({ start_date: dayAfter(yearBefore(asOf)), end_date: asOf }),
      },
      {
        name: 'profit and loss, 12 months by month',
        path: '/v1/entities/{entity_id}/reports/profit-and-loss',
        query: (asOf) => ({ start_date: dayAfter(yearBefore(asOf)), end_date: asOf, columns: 'month' }),
      },
      {
        name: 'account activity (AR), first page',
        path: '/v1/entities/{entity_id}/reports/account-activity',
        query: (asOf) => ({ account_id: arAccount, start_date: firstDay, end_date: asOf, limit: '100' }),
      },
    ];
    const modules = Object.values(ROUTE_MODULES) as { route: { path: string; method: string }; handler: unknown }[];
    const handlerOf = (path: string) => modules.find((module) => module.route.method === 'GET' && module.route.path === path)?.handler;
    const call = (report: Report, query: Record<string, string>) =>
      invokeGet<Record<string, unknown>>(handlerOf(report.path), { resource: report.path, pathParameters: { entity_id: entityId }, query, authorizer });

    interface Figure {
      report: string;
      as_of_date: string;
      present: boolean;
      handler?: Summary;
      /** The response body's size (its JSON as the handler returns it), against Lambda's 6 MB response limit. */
      body_bytes?: number;
    }
    const figures: Figure[] = [];
    for (const report of reports) {
      for (const asOf of [today, yearBack]) {
        if (!handlerOf(report.path)) {
          figures.push({ report: report.name, as_of_date: asOf, present: false });
          continue;
        }
        const body = await call(report, report.query(asOf));
        checkReport(report.name, asOf, body, books.ties as Record<string, Record<string, string>>);
        const bodyBytes = Buffer.byteLength(JSON.stringify(body));
        figures.push({
          report: report.name,
          as_of_date: asOf,
          present: true,
          body_bytes: bodyBytes,
          handler: await timed(RUNS, () => call(report, report.query(asOf))),
        });
      }
    }

    // Account activity: walk the pages of the whole range to the deepest one within the time allowed, then time it against the first.
    const activity = reports[reports.length - 1];
    let depth: Record<string, unknown> = { present: false };
    if (handlerOf(activity.path)) {
      const query = activity.query(today);
      const started = process.hrtime.bigint();
      let cursor: string | null = null;
      let pages = 0;
      let lines = 0;
      let deepest = query;
      for (;;) {
        const page = await call(activity, cursor ? { ...query, starting_after: cursor } : query);
        pages++;
        deepest = cursor ? { ...query, starting_after: cursor } : query;
        lines += Array.isArray(page.lines) ? page.lines.length : Array.isArray(page.data) ? page.data.length : 0;
        cursor = typeof page.next_cursor === 'string' ? page.next_cursor : null;
        if (!cursor || hrtimeMs(started) > WALK_SECONDS * 1000) break;
      }
      const walkSeconds = round(hrtimeMs(started) / 1000, 1);
      const firstPage = await timed(RUNS, () => call(activity, query));
      const deepPage = await timed(RUNS, () => call(activity, deepest));
      depth = {
        present: true,
        pages_walked: pages,
        lines_walked: lines,
        reached_last_page: cursor === null,
        walk_seconds: walkSeconds,
        first_page: firstPage,
        deepest_page: deepPage,
        ratio_p50: round(deepPage.p50 / firstPage.p50, 2),
      };
    }

    const trial = new Map(figures.filter((f) => f.report === 'trial balance').map((f) => [f.as_of_date, f.handler!]));
    const verdictOf = (s: Summary) => (s.p50 <= TARGET_P50_MS && s.p95 <= TARGET_P95_MS ? 'PASS' : 'FAIL');
    printTable(
      `handler p50 / p95 in ms (${RUNS} runs after 3 warm-up), target p50 ≤ ${TARGET_P50_MS} and p95 ≤ ${TARGET_P95_MS}`,
      ['report', 'as of', 'p50', 'p95', 'p50 / trial balance', 'body KB', 'verdict'],
      figures.map((f) =>
        f.handler
          ? [
              f.report,
              f.as_of_date,
              round(f.handler.p50, 1),
              round(f.handler.p95, 1),
              `${round(f.handler.p50 / trial.get(f.as_of_date)!.p50, 2)}x`,
              round(f.body_bytes! / 1024, 1),
              verdictOf(f.handler),
            ]
          : [f.report, f.as_of_date, 'not present', '', '', '', ''],
      ),
    );
    if (depth.present) {
      const first = depth.first_page as Summary;
      const deep = depth.deepest_page as Summary;
      console.log(
        `\naccount activity (AR, ${firstDay} to ${today}): walked ${String(depth.pages_walked)} pages (${String(depth.lines_walked)} lines, ${depth.reached_last_page ? 'to the last page' : `stopped after ${WALK_SECONDS} s`}) in ${String(depth.walk_seconds)} s; ` +
          `first page p50 ${round(first.p50, 1)} ms, deepest p50 ${round(deep.p50, 1)} ms: ${String(depth.ratio_p50)}x (target ≤ ${TARGET_DEPTH_RATIO}x): ${Number(depth.ratio_p50) <= TARGET_DEPTH_RATIO ? 'PASS' : 'FAIL'}`,
      );
    } else {
      console.log('\naccount activity deepest page: not present');
    }
    const measured = figures.filter((f) => f.handler);
    const verdict =
      measured.every((f) => verdictOf(f.handler!) === 'PASS') && (!depth.present || Number(depth.ratio_p50) <= TARGET_DEPTH_RATIO) ? 'PASS' : 'FAIL';
    console.log(`\n${measured.length / 2} of ${reports.length} reports present; verdict on those: ${verdict}`);
    const file = writeResults('reports', {
      runs: RUNS,
      scale: SCALE,
      sizes: SIZES,
      seeded_on: record.seeded_on,
      seed_seconds: record.seed_seconds,
      books: { ...books, ties: undefined },
      target: { p50_ms: TARGET_P50_MS, p95_ms: TARGET_P95_MS, depth_ratio: TARGET_DEPTH_RATIO },
      verdict,
      figures,
      account_activity_depth: depth,
    });
    console.log(`results: ${file}`);
  } finally {
    for (const close of closers) await close().catch((error) => console.error(String(error)));
  }
}

/**
 * The identities the issue names, checked on the figures the seed knows, where the answer carries
 * them under the names the issue gives (a report whose shape differs is timed unchecked, with a warning).
 */
function checkReport(name: string, asOf: string, body: Record<string, unknown>, ties: Record<string, Record<string, string>>): void {
  const tie = ties[asOf];
  const expect = (label: string, actual: unknown, expected: string) => {
    if (typeof actual !== 'number') return console.warn(`${name} (${asOf}): no ${label} in the answer; not checked`);
    if (actual !== Number(expected)) throw new Error(`${name} (${asOf}): ${label} ${actual}, the books say ${expected}`);
  };
  const totals = body.totals as Record<string, unknown> | undefined;
  if (name.startsWith('AR aging')) {
    expect('totals.total', totals?.total, tie.open_invoices);
    expect('accounts_receivable_balance', body.accounts_receivable_balance, tie.ar);
  }
  if (name === 'AP aging') expect('totals.total', totals?.total, tie.open_bills);
  if (name.startsWith('inventory valuation')) {
    expect('totals.value', totals?.value ?? totals?.total_value ?? body.total_value, tie.layers);
    expect('inventory_account_balance', body.inventory_account_balance, tie.inventory);
  }
  if (name === 'trial balance' && body.total_debits !== body.total_credits) throw new Error(`trial balance (${asOf}) does not tie`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
