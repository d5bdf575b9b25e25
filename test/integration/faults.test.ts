/**
 * Database faults: backends terminated under a write load, a row lock held by another session,
 * and a database that cannot be reached. What must hold: the process stays up (vitest fails a run
 * on an unhandled error), every failure is an error envelope (503 or 409, never a 500 or a stall),
 * every acknowledged write is whole, and the API answers normally afterwards.
 *
 * The timeouts are shortened through their environment variables, read when each transaction
 * begins and when the pool is built (in the harness's beforeAll, after this module ran).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { embeddedPool } from '../../local/embedded';
import { closeDatabase, configureDatabase, createPool, withTransaction } from '../../shared/db/database';
import { reloadDatabaseTimeouts } from '../../shared/db/opening-batch';
import { ApiError } from '../../shared/errors';
import { statusOf } from '../../shared/http/error-status';
import { setupTestApi, type TestEntity } from '../support/harness';
import type { ApiResponse } from '../support/client';

const TEST_TIMEOUTS = {
  DATABASE_LOCK_TIMEOUT_MS: '1500',
  DATABASE_STATEMENT_TIMEOUT_MS: '8000',
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '9000',
  DATABASE_ACQUIRE_TIMEOUT_MS: '4000',
};
const LOCK_TIMEOUT_MS = Number(TEST_TIMEOUTS.DATABASE_LOCK_TIMEOUT_MS);
const saved = Object.fromEntries(Object.keys(TEST_TIMEOUTS).map((name) => [name, process.env[name]]));
Object.assign(process.env, TEST_TIMEOUTS);
reloadDatabaseTimeouts();
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadDatabaseTimeouts();
});

const api = setupTestApi();
const database = inject('database');
// PGlite serves one transaction at a time over a single session: it has no backend to terminate,
// and a transaction held open by another connection stops every other one by design.
const onPostgres = database.mode === 'postgres';

/** A 503 service_unavailable envelope with Retry-After: what a request the database failed gets. */
function expectUnavailable(response: ApiResponse<unknown>): void {
  expect(response.status, response.text).toBe(503);
  expect(response.error).toMatchObject({ error: 'service_unavailable', code: 'service_unavailable', type: 'internal' });
  expect(response.error.request_id).toEqual(expect.any(String));
  expect(response.headers.get('retry-after')).toBe('1');
}

interface Fixtures {
  owner: TestEntity;
  accountId: string;
  productIds: [string, string, string];
  expenseId: string;
  bankId: string;
}

async function fixtures(): Promise<Fixtures> {
  const owner = await api.newEntity();
  // Short random suffixes: a 13-digit timestamp in a string could pass for a card number.
  const n = randomBytes(4).toString('hex');
  const account = await api.post(owner, '/v1/accounts', { name: `Fault customer ${n}` });
  const products = await Promise.all(
    [10, 20, 30].map((price, i) => api.post(owner, '/v1/products', { sku: `FAULT-${n}-${i}`, name: `Fault product ${i}`, list_price: price })),
  );
  const expense = await api.post(owner, '/v1/gl-accounts', { code: `FX-${n}`, name: 'Fault expense', type: 'expense' });
  const bank = await api.post(owner, '/v1/gl-accounts', { code: `FB-${n}`, name: 'Fault bank', type: 'asset', subtype: 'bank' });
  return { owner, accountId: account.id, productIds: [products[0].id, products[1].id, products[2].id], expenseId: expense.id, bankId: bank.id };
}

describe('timeouts', () => {
  it('bounds every transaction with the configured lock, statement and idle-in-transaction timeouts', async () => {
    const owner = await api.newEntity();
    const settings = await owner.sql((db) =>
      db.one<Record<string, string>>(
        `SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement,
                current_setting('idle_in_transaction_session_timeout') AS idle`,
      ),
    );
    expect(settings).toEqual({ lock: '1500ms', statement: '8s', idle: '9s' });
  });
});

/** Runs `work` with one timeout variable changed, read by the transactions it opens. */
async function withTimeout<T>(name: keyof typeof TEST_TIMEOUTS, ms: number, work: () => Promise<T>): Promise<T> {
  process.env[name] = String(ms);
  reloadDatabaseTimeouts();
  try {
    return await work();
  } finally {
    process.env[name] = TEST_TIMEOUTS[name];
    reloadDatabaseTimeouts();
  }
}

async function expectFailure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe.skipIf(!onPostgres)('timeouts and lost commits in the data layer (PostgreSQL only: PGlite has no timers or backends)', () => {
  it('ends a statement that runs past the statement timeout with 503, and the pool serves the next one', async () => {
    const started = performance.now();
    const error = await expectFailure(
      withTimeout('DATABASE_STATEMENT_TIMEOUT_MS', 300, () => withTransaction({ role: 'app_worker' }, (db) => db.query('SELECT pg_sleep(5)'))),
    );
    expect([error.code, statusOf(error), error.options.headers]).toEqual(['service_unavailable', 503, { 'Retry-After': '1' }]);
    expect(error.message).toMatch(/statement timeout/);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await withTransaction({ role: 'app_worker' }, (db) => db.one('SELECT 1 AS one'))).toEqual({ one: 1 });
  });

  it('ends a transaction left idle past the idle-in-transaction timeout, discards its connection, and answers 503', async () => {
    const error = await expectFailure(
      withTimeout('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 300, () =>
        withTransaction({ role: 'app_worker' }, async (db) => {
          await db.query('SELECT 1');
          await new Promise((resolve) => setTimeout(resolve, 800));
          return db.query('SELECT 2');
        }),
      ),
    );
    expect([error.code, statusOf(error)]).toEqual(['service_unavailable', 503]);
    expect(await withTransaction({ role: 'app_worker' }, (db) => db.one('SELECT 1 AS one'))).toEqual({ one: 1 });
  });

  it('resolves a COMMIT that lost its connection through txid_status: aborted is a plain 503, nothing changed', async () => {
    const admin = new pg.Client({ connectionString: api.databaseUrl });
    await admin.connect();
    try {
      let pid = 0;
      const failed = expectFailure(
        withTransaction({ role: 'app_worker' }, async (db) => {
          pid = (await db.one<{ pid: number }>('SELECT pg_backend_pid() AS pid')).pid;
          // A deferred constraint trigger runs inside COMMIT: it holds the COMMIT open long enough
          // for the session to be terminated during it.
          await db.query('CREATE TEMP TABLE commit_probe (x int) ON COMMIT DROP');
          await db.query(`CREATE FUNCTION pg_temp.slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$`);
          await db.query(
            'CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON commit_probe DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pg_temp.slow_commit()',
          );
          await db.query('INSERT INTO commit_probe VALUES (1)');
          setTimeout(() => void admin.query('SELECT pg_terminate_backend($1)', [pid]), 500);
          return 'written';
        }),
      );
      const error = await failed;
      expect([error.code, statusOf(error), error.options.details]).toEqual(['service_unavailable', 503, undefined]);
      expect(error.message).toMatch(/nothing was changed/);
    } finally {
      await admin.end();
    }
  });
});

describe.skipIf(!onPostgres)('backends terminated under a write load (PostgreSQL only: PGlite has no backends to terminate)', () => {
  it('keeps the process up, answers 503 for what failed, keeps every acknowledged write whole and recovers', async () => {
    const world = await fixtures();
    const { owner } = world;
    const admin = new pg.Client({ connectionString: database.mode === 'postgres' ? database.adminUrl : '' });
    await admin.connect();
    const databaseName = new URL(api.databaseUrl).pathname.slice(1);

    const acknowledged = { orders: [] as string[], entries: [] as string[], payments: [] as string[] };
    const failures: ApiResponse<unknown>[] = [];
    let unknownOutcomes = 0;
    let running = true;

    const operations = [
      async () => {
        const response = await api.request('POST', '/v1/orders', {
          key: owner.secret,
          body: {
            document_type: 'sales_order',
            account_id: world.accountId,
            shipping_total: 5,
            lines: world.productIds.map((product_id, i) => ({ product_id, quantity: i + 1 })),
          },
        });
        if (response.status === 201) acknowledged.orders.push(response.body.id);
        return response;
      },
      async () => {
        const response = await api.request('POST', '/v1/journal-entries', {
          key: owner.secret,
          body: {
            entry_date: '2026-03-10',
            post: true,
            lines: [
              { account_id: world.expenseId, debit: 12.34 },
              { account_id: world.bankId, credit: 12.34 },
            ],
          },
        });
        if (response.status === 201) acknowledged.entries.push(response.body.id);
        return response;
      },
      async () => {
        const response = await api.request('POST', '/v1/payments/multi-invoice-apply', {
          key: owner.secret,
          body: { account_id: world.accountId, amount: 7.5, route_unapplied: 'credit' },
        });
        if (response.status === 201) acknowledged.payments.push(response.body.data.id);
        return response;
      },
    ];

    const worker = async (offset: number) => {
      for (let i = offset; running; i++) {
        const response = await operations[i % operations.length]();
        if (response.status !== 201) {
          failures.push(response);
          if (response.error?.commit_outcome === 'unknown') unknownOutcomes++;
        }
      }
    };

    let killRounds = 0;
    let killedBackends = 0;
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const killer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      while (running) {
        const { rows } = await admin.query<{ killed: number }>(
          `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS killed
             FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
          [databaseName],
        );
        if (rows[0].killed > 0) {
          killRounds++;
          killedBackends += rows[0].killed;
        }
        // After the first 7 s, further apart: a slow machine then gets a write of each kind through.
        await new Promise((resolve) => setTimeout(resolve, (elapsed() < 7000 ? 150 : 600) * (1 + Math.random())));
      }
    };

    // At least 7 s of kills, and then until every kind of write has been acknowledged at least once
    // (a slow machine gets few through between two kill rounds), up to 45 s.
    const stop = (async () => {
      const everyKindAcknowledged = () => Object.values(acknowledged).every((ids) => ids.length > 0);
      while (elapsed() < 7000 || (!everyKindAcknowledged() && elapsed() < 45_000)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      running = false;
    })();
    try {
      await Promise.all([stop, killer(), ...Array.from({ length: 8 }, (_, i) => worker(i))]);
    } finally {
      await admin.end();
    }
    console.info(
      `faults: ${killRounds} kill rounds (${killedBackends} backends) survived; ` +
        `${acknowledged.orders.length + acknowledged.entries.length + acknowledged.payments.length} writes acknowledged, ${failures.length} answered 503`,
    );

    expect(killRounds).toBeGreaterThanOrEqual(10);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expectUnavailable(failure);
    expect(acknowledged.orders.length).toBeGreaterThan(0);
    expect(acknowledged.entries.length).toBeGreaterThan(0);
    expect(acknowledged.payments.length).toBeGreaterThan(0);

    // Every order of the entity is whole: its three lines, totals that add up, its event. A 503 said
    // nothing was changed, so the orders are exactly the acknowledged ones (unless an outcome was unknown).
    const orders = await owner.sql((db) =>
      db.query<{ id: string; lines: number; subtotal: string; line_subtotals: string; order_total: string; line_totals: string; events: number }>(
        `SELECT o.id, count(l.id)::int AS lines, o.subtotal::text, sum(l.line_subtotal)::text AS line_subtotals,
                o.order_total::text, (sum(l.line_total) + o.shipping_total + o.fee_total)::text AS line_totals,
                (SELECT count(*)::int FROM event_outbox e WHERE e.type = 'order.created' AND e.payload->'data'->'object'->>'id' = o.id::text) AS events
           FROM orders o LEFT JOIN order_lines l ON l.order_id = o.id
          GROUP BY o.id`,
      ),
    );
    const orderIds = orders.map((order) => order.id).sort();
    if (unknownOutcomes === 0) expect(orderIds).toEqual([...acknowledged.orders].sort());
    else expect(orderIds).toEqual(expect.arrayContaining(acknowledged.orders));
    for (const order of orders) {
      expect(order, order.id).toEqual({
        id: order.id,
        lines: 3,
        subtotal: '140.00',
        line_subtotals: '140.00',
        order_total: '145.00',
        line_totals: '145.00',
        events: 1,
      });
    }

    // Every journal entry balances, manual or posted by a payment, and each manual one has its event.
    const entries = await owner.sql((db) =>
      db.query<{ id: string; source_type: string; source_id: string | null; lines: number; debits: string; credits: string; total: string; events: number }>(
        `SELECT j.id, j.source_type, j.source_id, count(l.id)::int AS lines, sum(l.debit)::text AS debits, sum(l.credit)::text AS credits,
                j.total_amount::text AS total,
                (SELECT count(*)::int FROM event_outbox e WHERE e.type = 'journal_entry.posted' AND e.payload->'data'->'object'->>'id' = j.id::text) AS events
           FROM journal_entries j LEFT JOIN journal_lines l ON l.entry_id = j.id
          GROUP BY j.id`,
      ),
    );
    for (const entry of entries) {
      expect(entry.lines, entry.id).toBeGreaterThanOrEqual(2);
      expect(entry.debits, entry.id).toBe(entry.credits);
      expect(entry.total, entry.id).toBe(entry.debits);
    }
    const manual = entries.filter((entry) => entry.source_type === 'manual');
    if (unknownOutcomes === 0) expect(manual.map((entry) => entry.id).sort()).toEqual([...acknowledged.entries].sort());
    for (const entry of manual) expect([entry.total, entry.events], entry.id).toEqual(['12.34', 1]);

    // Every payment has its ledger entry (7.50, balanced above) and its event.
    const payments = await owner.sql((db) =>
      db.query<{ id: string; amount: string; entries: number; events: number }>(
        `SELECT p.id, p.amount::text,
                (SELECT count(*)::int FROM journal_entries j WHERE j.source_id = p.id AND j.total_amount = p.amount) AS entries,
                (SELECT count(*)::int FROM event_outbox e WHERE e.type = 'payment.created' AND e.payload->'data'->'object'->>'id' = p.id::text) AS events
           FROM payments p`,
      ),
    );
    if (unknownOutcomes === 0) expect(payments.map((payment) => payment.id).sort()).toEqual([...acknowledged.payments].sort());
    for (const payment of payments) expect(payment, payment.id).toEqual({ id: payment.id, amount: '7.50', entries: 1, events: 1 });

    // And the API answers normally again.
    const order = await api.get(owner, `/v1/orders/${acknowledged.orders[0]}`);
    expect([order.id, order.order_total]).toEqual([acknowledged.orders[0], 145]);
    const after = await operations[0]();
    expect(after.status, after.text).toBe(201);
  }, 90_000);
});

describe.skipIf(!onPostgres)('a row lock held by another session (PostgreSQL only: PGlite runs one transaction at a time)', () => {
  it('delays only the requests that need the row: they get 409 resource_locked within the lock timeout; others keep their latency', async () => {
    const world = await fixtures();
    const { owner } = world;
    const order = (productId: string) =>
      api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: world.accountId, lines: [{ product_id: productId, quantity: 1 }] });
    const locked = await order(world.productIds[0]);
    const other = await order(world.productIds[1]);

    // Direct SQL: no endpoint holds a lock open; this stands in for a long transaction of another request.
    const holder = new pg.Client({ connectionString: api.databaseUrl });
    await holder.connect();
    try {
      // The key was last stamped two hours ago, so every request below wants to stamp it again,
      // and its row is locked too: authentication must skip the stamp rather than wait.
      await holder.query(`UPDATE api_keys SET last_used_at = now() - interval '2 hours' WHERE id = $1`, [owner.key.id]);
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE', [locked.id]);
      await holder.query('SELECT id FROM api_keys WHERE id = $1 FOR UPDATE', [owner.key.id]);

      const timed = async <T>(call: () => Promise<T>) => {
        const started = performance.now();
        const result = await call();
        return { result, ms: performance.now() - started };
      };
      const writers = Array.from({ length: 4 }, (_, i) =>
        timed(() => api.request('PATCH', `/v1/orders/${locked.id}`, { key: owner.secret, body: { notes: `while locked ${i}` } })),
      );
      const unrelated: number[] = [];
      const readers = (async () => {
        // Give the writers a head start so they are queued on the lock while these run.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const paths = [`/v1/orders/${other.id}`, `/v1/accounts/${world.accountId}`, `/v1/orders/${locked.id}`, `/v1/products/${world.productIds[2]}`];
        for (let i = 0; i < 20; i++) {
          const { result, ms } = await timed(() => api.raw('GET', paths[i % paths.length], { key: owner.secret }));
          expect(result.status, result.text).toBe(200);
          unrelated.push(ms);
        }
      })();
      const invalidKey = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return timed(() => api.raw('GET', `/v1/orders/${other.id}`, { key: `${owner.secret.slice(0, -4)}zzzz` }));
      })();

      const [results, , denied] = await Promise.all([Promise.all(writers), readers, invalidKey]);
      for (const { result, ms } of results) {
        expect(result.status, result.text).toBe(409);
        expect(result.error).toMatchObject({ error: 'resource_locked', code: 'resource_locked', type: 'conflict' });
        expect(result.headers.get('retry-after')).toBe('1');
        expect(ms).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 50);
        expect(ms).toBeLessThan(LOCK_TIMEOUT_MS + 2000);
      }
      console.info(`held lock: unrelated GETs max ${Math.max(...unrelated).toFixed(1)} ms; invalid key ${denied.ms.toFixed(1)} ms`);
      expect(Math.max(...unrelated)).toBeLessThan(LOCK_TIMEOUT_MS / 3);
      expect(denied.result.status, denied.result.text).toBe(401);
      expect(denied.result.error.code).toBe('api_key_invalid');
      expect(denied.ms).toBeLessThan(LOCK_TIMEOUT_MS / 3);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    // Nothing the refused writers sent was kept; once the lock is gone the same change goes through,
    // and the key's stamp is taken again.
    expect((await api.get(owner, `/v1/orders/${locked.id}`)).notes).toBeNull();
    const stamp = new pg.Client({ connectionString: api.databaseUrl });
    await stamp.connect();
    const { rows } = await stamp.query<{ recent: boolean }>(`SELECT last_used_at > now() - interval '1 minute' AS recent FROM api_keys WHERE id = $1`, [
      owner.key.id,
    ]);
    await stamp.end();
    expect(rows).toEqual([{ recent: true }]);
    expect((await api.patch(owner, `/v1/orders/${locked.id}`, { notes: 'after the lock' })).notes).toBe('after the lock');
  });
});

describe('a database that cannot be reached', () => {
  it('answers authentication with a 503 envelope at once, and recovers when the database is back', async () => {
    const owner = await api.newEntity();
    await closeDatabase();
    // Port 1 on the loopback refuses connections: the database is down.
    configureDatabase(() => createPool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', max: 2 }));
    try {
      const started = performance.now();
      const response = await api.raw('GET', '/v1/accounts', { key: owner.secret });
      expectUnavailable(response);
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      await closeDatabase();
      configureDatabase(() => (database.mode === 'embedded' ? embeddedPool(api.databaseUrl) : createPool({ connectionString: api.databaseUrl, max: 10 })));
    }
    const list = await api.get(owner, '/v1/accounts');
    expect(list.data).toEqual([]);
  });

  it('answers a 503 when the pool cannot be built (its secret unreadable), and builds it on the next request', async () => {
    const owner = await api.newEntity();
    await closeDatabase();
    let attempts = 0;
    const serving = () => (database.mode === 'embedded' ? embeddedPool(api.databaseUrl) : createPool({ connectionString: api.databaseUrl, max: 10 }));
    configureDatabase(() => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })) : serving();
    });
    try {
      expectUnavailable(await api.raw('GET', '/v1/accounts', { key: owner.secret }));
      expect((await api.get(owner, '/v1/accounts')).data).toEqual([]);
      expect(attempts).toBe(2);
    } finally {
      await closeDatabase();
      configureDatabase(serving);
    }
  });
});
