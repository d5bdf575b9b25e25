/**
 * The ledger's reports over a growing ledger of one entity: 200,000, 1,000,000 and 2,000,000
 * journal lines (two lines an entry, 50 accounts of which 4 are bank accounts, dates spread over
 * three years). Cash balance (E20) and trial balance, and beside them on the same data the
 * balance sheet, the profit and loss (fiscal year to date, and by month with the previous year) and
 * account activity (its first page and its deepest page, over the fiscal year and over the whole
 * history of one account). Target: handler p50 under 300 ms and p95 under 600 ms at 2,000,000
 * lines; account activity's deepest page within 1.5x its first.
 *
 * For each size, p50 over --runs runs (after a warm-up) of:
 *   data layer   cashBalance() / trialBalance() in a read-only entity-scoped transaction
 *   handler      the Lambda handler of the route, called with an API Gateway proxy event
 *   raw lines    the same balances summed straight from journal_lines (what the reports would cost
 *                without gl_daily_balances), fewer runs: for comparison only
 *
 * The ledger is generated in SQL (INSERT ... SELECT generate_series) as the table owner, with
 * triggers off for speed; gl_daily_balances is then built from the lines, exactly what the
 * posting trigger maintains, and checked against them before anything is timed. The database
 * (bizops_bench_ledger) is created from the migrations and dropped at the end (--keep leaves it for EXPLAIN).
 *
 *   npx tsx bench/ledger-reports.ts [--runs=20] [--sizes=200000,1000000,2000000] [--keep]
 *
 * DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import pg from 'pg';
import { assertLocal, createDatabase, databaseUrl, dropDatabase, hrtimeMs, printTable, round, timed, writeResults, type Summary, option } from './lib';
import { connectBenchDatabase, invokeGet, seed } from './seed';

// Before any application module is loaded: production skips response validation.
process.env.NODE_ENV = 'production';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// Nothing reads the metrics document here; printing it per request would time the printing.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

// Another name (BENCH_DATABASE) lets two runs share a server.
const DATABASE = process.env.BENCH_DATABASE ?? 'bizops_bench_ledger';
const TARGET_MS = 300;
const TARGET_P95_MS = 600;
/** Account activity's deepest page may cost at most this many times its first. */
const DEEPEST_PAGE_RATIO = 1.5;
const ACCOUNTS = 50;
const BANK_ACCOUNTS = 4;
const DAYS = 1096; // 2024-01-01 .. 2026-12-31
const FIRST_DAY = '2024-01-01';
const AS_OF = ['2025-06-30', '2026-12-31'];

const RUNS = Math.max(3, Math.min(option('runs', 20), 200));
const SIZES = (process.argv.find((arg) => arg.startsWith('--sizes='))?.split('=')[1] ?? '200000,1000000,2000000').split(',').map(Number);
if (SIZES.some((size, i) => !Number.isInteger(size) || size <= 0 || size % 2 || (i > 0 && size <= SIZES[i - 1]))) {
  throw new Error('--sizes: increasing even line counts');
}

/** One ledger size: its counts, and the timings under each as-of date. */
type Stage = Record<string, unknown> & { lines: number };

/** Adds entries [from, to) of two lines each, as the owner with triggers off, and rebuilds the day balances. */
async function grow(owner: pg.Client, entityId: string, from: number, to: number): Promise<void> {
  await owner.query('BEGIN');
  await owner.query(`SET LOCAL session_replication_role = replica`);
  await owner.query(
    `CREATE TEMP TABLE IF NOT EXISTS bench_accounts ON COMMIT DROP AS
       SELECT (row_number() OVER (ORDER BY code) - 1)::int AS k, id FROM gl_accounts WHERE entity_id = $1`,
    [entityId],
  );
  await owner.query(
    `INSERT INTO journal_entries (id, entity_id, entry_number, status, entry_date, memo, source_type, line_count, total_amount, posted_at, created_at, updated_at)
     SELECT md5('je' || i)::uuid, $1, 'B-' || i, 'posted', $4::date + (i % ${DAYS})::int, 'bench', 'manual', 2, ((i * 7919) % 100000 + 1) / 100.0, now(), now(), now()
       FROM generate_series($2::bigint, $3::bigint - 1) AS g(i)`,
    [entityId, from, to, FIRST_DAY],
  );
  // Debit account (i*31) mod n, credit account (i*17+5) mod n, never the same one. Line ids are
  // shaped as version 4 UUIDs: account activity's cursor is one, and the API validates it.
  await owner.query(
    `INSERT INTO journal_lines (id, entity_id, entry_id, line_number, account_id, debit, credit, entry_date, created_at)
     SELECT overlay(overlay(md5('jl' || i || side) placing '4' from 13) placing '8' from 17)::uuid, $1, md5('je' || i)::uuid, side, a.id,
            CASE WHEN side = 1 THEN ((i * 7919) % 100000 + 1) / 100.0 ELSE 0 END,
            CASE WHEN side = 2 THEN ((i * 7919) % 100000 + 1) / 100.0 ELSE 0 END,
            $4::date + (i % ${DAYS})::int, now()
       FROM generate_series($2::bigint, $3::bigint - 1) AS g(i)
       CROSS JOIN (VALUES (1), (2)) AS s(side)
       JOIN bench_accounts a ON a.k = CASE WHEN side = 1 THEN (i * 31) % ${ACCOUNTS}
                                           ELSE ((i * 17 + 5) % ${ACCOUNTS} + CASE WHEN (i * 17 + 5) % ${ACCOUNTS} = (i * 31) % ${ACCOUNTS} THEN 1 ELSE 0 END) % ${ACCOUNTS} END`,
    [entityId, from, to, FIRST_DAY],
  );
  await owner.query('DELETE FROM gl_daily_balances WHERE entity_id = $1', [entityId]);
  await owner.query(
    `INSERT INTO gl_daily_balances (entity_id, account_id, balance_date, debit_total, credit_total)
     SELECT entity_id, account_id, entry_date, sum(debit), sum(credit) FROM journal_lines WHERE entity_id = $1 GROUP BY 1, 2, 3`,
    [entityId],
  );
  await owner.query('COMMIT');
  await owner.query('VACUUM ANALYZE journal_entries');
  await owner.query('VACUUM ANALYZE journal_lines');
  await owner.query('VACUUM ANALYZE gl_daily_balances');
  // The chart too, as autovacuum leaves it: without statistics the planner takes 50 accounts for one.
  await owner.query('ANALYZE gl_accounts');
}

async function main(): Promise<void> {
  const adminUrl = databaseUrl();
  assertLocal(adminUrl);
  console.log(`ledger reports: sizes ${SIZES.join(', ')} lines, ${RUNS} runs each, target p50 < ${TARGET_MS} ms, p95 < ${TARGET_P95_MS} ms`);
  const url = await createDatabase(adminUrl, DATABASE);
  const owner = new pg.Client({ connectionString: url });
  const closers: (() => Promise<unknown>)[] = process.argv.includes('--keep') ? [] : [() => dropDatabase(adminUrl, DATABASE)];
  try {
    const { withTransaction } = await import('../shared/db/database');
    const { cashBalance, trialBalance } = await import('../shared/ledger/ledger-reports');
    const { amount, sum } = await import('../shared/money');
    const cashRoute = await import('../functions/reconciliation/get-cash-balance');
    const trialRoute = await import('../functions/reconciliation/get-trial-balance');
    const sheetRoute = await import('../functions/reports/get-balance-sheet');
    const profitRoute = await import('../functions/reports/get-profit-and-loss');
    const activityRoute = await import('../functions/reports/get-account-activity');
    closers.unshift(await connectBenchDatabase(url));
    await owner.connect();
    closers.unshift(() => owner.end());

    const seeded = await seed('migration:read');
    const { entityId, authorizer } = seeded;
    // The chart: the system accounts plus enough others for ACCOUNTS, BANK_ACCOUNTS of them banks.
    const existing = (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM gl_accounts WHERE entity_id = $1', [entityId])).rows[0].n;
    await owner.query(
      `INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype, bank_account_id)
       SELECT gen_random_uuid(), $1, 'X' || lpad(i::text, 3, '0'), 'Bench account ' || i,
              CASE WHEN i <= $3 THEN 'asset' ELSE (ARRAY['asset', 'liability', 'equity', 'revenue', 'expense'])[1 + i % 5] END,
              CASE WHEN i <= $3 THEN 'bank' ELSE (ARRAY['other_current_asset', 'other_current_liability', 'owners_equity', 'income', 'expense'])[1 + i % 5] END,
              CASE WHEN i <= $3 THEN gen_random_uuid() END
         FROM generate_series(1, $2::int) AS g(i)`,
      [entityId, ACCOUNTS - existing, BANK_ACCOUNTS - 1],
    );

    const invoke = <T = { total_gl_balance?: number; total_debits?: number; total_credits?: number }>(
      handler: unknown,
      resource: string,
      asOf: string | Record<string, string>,
    ) =>
      invokeGet<T>(handler, { resource, pathParameters: { entity_id: entityId }, query: typeof asOf === 'string' ? { as_of_date: asOf } : asOf, authorizer });
    /** The busiest non-bank account, and the cursor of its deepest page of `limit` lines over a range. */
    const busiest = (
      await owner.query<{ id: string }>(
        `SELECT a.id FROM gl_accounts a WHERE a.entity_id = $1 AND a.code LIKE 'X%' AND a.subtype <> 'bank' ORDER BY a.code LIMIT 1`,
        [entityId],
      )
    ).rows[0].id;
    const deepestCursor = async (start: string, end: string, limit: number) =>
      (
        await owner.query<{ id: string }>(
          `SELECT id FROM journal_lines WHERE entity_id = $1 AND account_id = $2 AND entry_date BETWEEN $3 AND $4
            ORDER BY entry_date DESC, id DESC OFFSET $5 LIMIT 1`,
          [entityId, busiest, start, end, limit],
        )
      ).rows[0]?.id;
    const inEntity = <T>(work: (db: import('../shared/db/database').Db) => Promise<T>) => withTransaction({ role: 'app_user', entityId, readOnly: true }, work);
    const rawCash = (asOf: string) =>
      owner.query<{ id: string; balance: string }>(
        `SELECT a.id, coalesce(sum(l.debit - l.credit), 0) AS balance FROM gl_accounts a LEFT JOIN journal_lines l ON l.entity_id = a.entity_id AND l.account_id = a.id AND l.entry_date <= $2
          WHERE a.entity_id = $1 AND a.subtype = 'bank' GROUP BY a.id`,
        [entityId, asOf],
      );
    const rawTrial = (asOf: string) =>
      owner.query(`SELECT account_id, sum(debit), sum(credit) FROM journal_lines WHERE entity_id = $1 AND entry_date <= $2 GROUP BY account_id`, [
        entityId,
        asOf,
      ]);

    /** The balance sheet, profit and loss and account activity as of a date: handler timings (and the pages' sizes). */
    const newReports = async (asOf: string) => {
      const fiscalStart = `${asOf.slice(0, 4)}-01-01`;
      const sheet = (await invoke(sheetRoute.handler, sheetRoute.route.path, asOf)) as unknown as {
        assets: { total: number };
        total_liabilities_and_equity: number;
      };
      if (sheet.assets.total !== sheet.total_liabilities_and_equity) throw new Error(`balance sheet does not tie at ${asOf}`);
      const activity = async (start: string) => {
        const query = { account_id: busiest, start_date: start, end_date: asOf, limit: '100' };
        // A range shorter than a page (small sizes): the last line, an empty last page.
        const cursor = (await deepestCursor(start, asOf, 100)) ?? (await deepestCursor(start, asOf, 0));
        if (!cursor) throw new Error(`account ${busiest} has no lines from ${start} to ${asOf}`);
        return {
          first_page: await timed(RUNS, () => invoke(activityRoute.handler, activityRoute.route.path, query)),
          deepest_page: await timed(RUNS, () => invoke(activityRoute.handler, activityRoute.route.path, { ...query, starting_after: cursor })),
        };
      };
      const fiscalYear = await activity(fiscalStart);
      const history = await activity(FIRST_DAY);
      return {
        balance_sheet: { handler: await timed(RUNS, () => invoke(sheetRoute.handler, sheetRoute.route.path, asOf)) },
        balance_sheet_compared: {
          handler: await timed(RUNS, () =>
            invoke(sheetRoute.handler, sheetRoute.route.path, { as_of_date: asOf, compare_to: `${Number(asOf.slice(0, 4)) - 1}${asOf.slice(4)}` }),
          ),
        },
        profit_and_loss: { handler: await timed(RUNS, () => invoke(profitRoute.handler, profitRoute.route.path, { end_date: asOf })) },
        profit_and_loss_by_month: {
          handler: await timed(RUNS, () => invoke(profitRoute.handler, profitRoute.route.path, { end_date: asOf, columns: 'month', compare: 'previous_year' })),
        },
        account_activity_first_page: { handler: fiscalYear.first_page },
        account_activity_deepest_page: { handler: fiscalYear.deepest_page },
        account_activity_history_first_page: { handler: history.first_page },
        account_activity_history_deepest_page: { handler: history.deepest_page },
      };
    };

    const stages: Stage[] = [];
    let lines = 0;
    for (const size of SIZES) {
      const started = process.hrtime.bigint();
      await grow(owner, entityId, lines / 2, size / 2);
      lines = size;
      const seedSeconds = hrtimeMs(started) / 1000;
      const counts = (
        await owner.query<{ lines: number; days: number; mismatched: number }>(
          `SELECT (SELECT count(*)::int FROM journal_lines WHERE entity_id = $1) AS lines,
                  (SELECT count(*)::int FROM gl_daily_balances WHERE entity_id = $1) AS days,
                  (SELECT count(*)::int FROM (SELECT entry_id FROM journal_lines WHERE entity_id = $1 GROUP BY entry_id HAVING sum(debit) <> sum(credit)) u) AS mismatched`,
          [entityId],
        )
      ).rows[0];
      if (counts.lines !== size || counts.mismatched !== 0) throw new Error(`seeding went wrong: ${JSON.stringify(counts)}`);
      console.log(`\n${size.toLocaleString('en-US')} lines seeded in ${round(seedSeconds, 1)} s; ${counts.days} (account, day) balance rows`);

      const stage: Stage = { lines: size, entries: size / 2, day_balance_rows: counts.days, seed_seconds: round(seedSeconds, 1) };
      for (const asOf of AS_OF) {
        // The reports must agree with the raw lines before they are timed.
        const cash = await inEntity((db) => cashBalance(db, entityId, asOf));
        const trial = await inEntity((db) => trialBalance(db, entityId, asOf));
        const rawTotal = sum((await rawCash(asOf)).rows.map((row) => row.balance));
        if (!rawTotal.eq(amount(cash.total_gl_balance))) throw new Error(`cash balance disagrees with the lines at ${asOf}`);
        if (trial.total_debits !== trial.total_credits) throw new Error(`trial balance does not tie at ${asOf}`);
        stage[asOf] = {
          cash_balance: {
            data_layer: await timed(RUNS, () => inEntity((db) => cashBalance(db, entityId, asOf))),
            handler: await timed(RUNS, () => invoke(cashRoute.handler, cashRoute.route.path, asOf)),
            raw_lines: await timed(Math.min(RUNS, 5), () => rawCash(asOf)),
          },
          trial_balance: {
            data_layer: await timed(RUNS, () => inEntity((db) => trialBalance(db, entityId, asOf))),
            handler: await timed(RUNS, () => invoke(trialRoute.handler, trialRoute.route.path, asOf)),
            raw_lines: await timed(Math.min(RUNS, 5), () => rawTrial(asOf)),
          },
          ...(await newReports(asOf)),
        };
      }
      stages.push(stage);
    }

    const rows: (string | number)[][] = [];
    for (const stage of stages) {
      for (const asOf of AS_OF) {
        const figures = stage[asOf] as Record<string, Record<string, Summary>>;
        for (const report of Object.keys(figures)) {
          const f = figures[report];
          rows.push([
            stage.lines.toLocaleString('en-US'),
            asOf,
            report,
            f.data_layer ? round(f.data_layer.p50, 2) : '',
            round(f.handler.p50, 2),
            round(f.handler.p95, 2),
            f.raw_lines ? round(f.raw_lines.p50, 1) : '',
          ]);
        }
      }
    }
    printTable(
      `p50 / p95 in ms (${RUNS} runs; raw lines: 5 runs)`,
      ['lines', 'as of', 'report', 'data layer p50', 'handler p50', 'handler p95', 'raw lines p50'],
      rows,
    );
    const first = stages[0];
    const last = stages[stages.length - 1];
    const largest = rows.filter((row) => row[0] === last.lines.toLocaleString('en-US'));
    const worst = Math.max(...largest.map((row) => row[4] as number));
    const worstP95 = Math.max(...largest.map((row) => row[5] as number));
    const depthRatios = AS_OF.flatMap((asOf) => {
      const figures = last[asOf] as Record<string, Record<string, Summary>>;
      return [
        figures.account_activity_deepest_page.handler.p50 / figures.account_activity_first_page.handler.p50,
        figures.account_activity_history_deepest_page.handler.p50 / figures.account_activity_history_first_page.handler.p50,
      ];
    });
    const worstDepth = round(Math.max(...depthRatios), 2);
    const verdict = worst < TARGET_MS && worstP95 < TARGET_P95_MS && worstDepth <= DEEPEST_PAGE_RATIO ? 'PASS' : 'FAIL';
    const growth = (report: string, variant: string) =>
      round(
        (last[AS_OF[1]] as Record<string, Record<string, Summary>>)[report][variant].p50 /
          (first[AS_OF[1]] as Record<string, Record<string, Summary>>)[report][variant].p50,
        2,
      );
    const summary = {
      target_ms: TARGET_MS,
      target_p95_ms: TARGET_P95_MS,
      worst_handler_p50_ms: worst,
      worst_handler_p95_ms: worstP95,
      worst_deepest_to_first_page: worstDepth,
      verdict,
      growth_first_to_last: {
        lines: `${first.lines} → ${last.lines}`,
        cash_balance_handler: growth('cash_balance', 'handler'),
        trial_balance_handler: growth('trial_balance', 'handler'),
        cash_balance_raw_lines: growth('cash_balance', 'raw_lines'),
        trial_balance_raw_lines: growth('trial_balance', 'raw_lines'),
      },
    };
    console.log(
      `\nat ${last.lines} lines: worst handler p50 ${worst} ms (target < ${TARGET_MS}), p95 ${worstP95} ms (< ${TARGET_P95_MS}), account activity deepest page ${worstDepth}x its first (<= ${DEEPEST_PAGE_RATIO}): ${verdict}`,
    );
    console.log(`growth ${first.lines} → ${last.lines} lines (as of ${AS_OF[1]}): ${JSON.stringify(summary.growth_first_to_last)}`);
    const file = writeResults('ledger-reports', { runs: RUNS, accounts: ACCOUNTS, bank_accounts: BANK_ACCOUNTS, days: DAYS, ...summary, stages });
    console.log(`results: ${file}`);
  } finally {
    for (const close of closers) await close().catch((error) => console.error(String(error)));
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
