/**
 * Row level security is the second wall behind the handlers' own entity filters: these tests
 * talk SQL directly, as the application role, with no WHERE clause helping.
 */
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAlone, withTransaction } from '../../shared/db/database';
import { newId } from '../../shared/ids';
import { withDatabase } from '../../shared/db/connection-url';
import { migrate } from '../../shared/db/migrate';
import { parseApiKey } from '../../shared/auth/api-key-format';
import { authenticate } from '../../shared/auth/authenticate';
import { insertApiKey } from '../../shared/tenants/identity-store';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();
const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));
let a: TestEntity;
let b: TestEntity;
let client: pg.Client;

beforeAll(async () => {
  a = await api.newEntity();
  b = await api.newEntity();
  await api.request('POST', '/v1/locations', { key: a.secret, body: { name: 'A1' } });
  await api.request('POST', '/v1/locations', { key: b.secret, body: { name: 'B1' } });
  client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
});
afterAll(() => client.end());

async function tenantTables(): Promise<string[]> {
  const result = await client.query<{ table_name: string }>(
    `SELECT DISTINCT table_name FROM information_schema.columns c JOIN pg_class k ON k.relname = c.table_name
      WHERE c.table_schema = 'public' AND c.column_name = 'entity_id' AND k.relkind = 'r' ORDER BY 1`,
  );
  return result.rows.map((row) => row.table_name);
}

describe('row level security', () => {
  it('is enabled and forced on every table with an entity_id, and on entities', async () => {
    const tables = await tenantTables();
    expect(tables.length).toBeGreaterThanOrEqual(5);
    const flags = await client.query<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>(
      `SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = ANY($1) AND relkind = 'r'`,
      [[...tables, 'entities']],
    );
    expect(flags.rows).toHaveLength(tables.length + 1);
    for (const row of flags.rows) expect(row, row.relname).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true });
    const policies = await client.query<{ tablename: string }>(`SELECT tablename FROM pg_policies WHERE policyname = 'tenant_isolation'`);
    expect(new Set(policies.rows.map((p) => p.tablename))).toEqual(new Set([...tables, 'entities']));
  });

  it('the application roles cannot bypass it: no superuser, no BYPASSRLS, no ownership', async () => {
    const roles = await client.query(
      `SELECT rolname, rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname IN ('app_user', 'app_authenticator', 'app_worker')`,
    );
    expect(roles.rows).toHaveLength(3);
    for (const role of roles.rows) expect(role).toMatchObject({ rolsuper: false, rolbypassrls: false, rolcanlogin: false });
    const owned = await client.query(`SELECT relname FROM pg_class WHERE relowner IN (SELECT oid FROM pg_roles WHERE rolname LIKE 'app_%')`);
    expect(owned.rows).toEqual([]);
  });

  it('without an entity, the application role sees no tenant rows at all', async () => {
    for (const table of await tenantTables()) {
      await client.query('BEGIN');
      await client.query('SET LOCAL ROLE app_user');
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      await client.query('ROLLBACK');
      expect(rows[0].n, table).toBe(0);
    }
  });

  it("with entity A set, a query with no WHERE sees only A's rows, and cannot write B's", async () => {
    await withTransaction({ role: 'app_user', entityId: a.entity.id }, async (db) => {
      const locations = await db.query<{ entity_id: string }>('SELECT entity_id FROM locations');
      expect(locations.length).toBe(1);
      expect(locations.every((row) => row.entity_id === a.entity.id)).toBe(true);
      const entities = await db.query<{ id: string }>('SELECT id FROM entities');
      expect(entities.map((e) => e.id)).toEqual([a.entity.id]);
      const keys = await db.query('SELECT id FROM api_keys');
      expect(keys).toHaveLength(1);
      // Direct SQL on purpose: row level security must keep B's rows out of reach.
      const updated = await db.query(`UPDATE locations SET name = 'hijacked' WHERE entity_id = $1 RETURNING id`, [b.entity.id]);
      expect(updated).toEqual([]);
    });
    await expect(
      withTransaction({ role: 'app_user', entityId: a.entity.id }, (db) =>
        db.query(`INSERT INTO locations (id, entity_id, name) VALUES ($1, $2, 'planted')`, [newId(), b.entity.id]),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  // PGlite has a single superuser session whatever user connects, so this is a PostgreSQL-only check (CI runs it).
  it.runIf(inject('database').mode === 'postgres')('the deployed login role (NOINHERIT member of the app roles only) cannot act outside them', async () => {
    // On AWS the functions log in as bizops_app, which the deploy step grants the three app roles
    // and nothing else. SET ROLE is checked against the login role, so even injected SQL stays put.
    await client.query(`DO $$ BEGIN CREATE ROLE bizops_app_test LOGIN NOINHERIT; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    await client.query('ALTER ROLE bizops_app_test NOINHERIT');
    await client.query('GRANT app_user, app_authenticator, app_worker TO bizops_app_test');
    const url = new URL(api.databaseUrl);
    url.username = 'bizops_app_test';
    const app = new pg.Client({ connectionString: url.toString() });
    await app.connect();
    try {
      await app.query('BEGIN');
      await app.query('SET LOCAL ROLE app_user');
      await expect(app.query('SET LOCAL ROLE postgres')).rejects.toThrow(/permission denied/);
      await app.query('ROLLBACK');
      // NOINHERIT: a statement that forgot to switch role has no privileges at all.
      await expect(app.query('SELECT count(*) FROM locations')).rejects.toThrow(/permission denied/);
    } finally {
      await app.end();
    }
  });

  it("product search's definer function returns only the current entity's ids, and nothing without one", async () => {
    const name = 'Searchable walnut chair';
    const mine = await api.request('POST', '/v1/products', { key: a.secret, body: { sku: 'WAL-A', name } });
    const theirs = await api.request('POST', '/v1/products', { key: b.secret, body: { sku: 'WAL-B', name } });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const search = (entityId?: string) =>
      withTransaction({ role: 'app_user', entityId }, (db) =>
        db.one<{ ids: string[] }>(`SELECT product_search_ids('wal%', '%walnut%', 100) AS ids`).then((row) => row.ids),
      );
    expect(await search(a.entity.id)).toEqual([mine.body.id]);
    expect(await search(b.entity.id)).toEqual([theirs.body.id]);
    await client.query('BEGIN');
    await client.query('SET LOCAL ROLE app_user');
    const unset = await client.query<{ ids: string[] }>(`SELECT product_search_ids('wal%', '%walnut%', 100) AS ids`);
    await client.query('ROLLBACK');
    expect(unset.rows[0].ids).toEqual([]);
  });

  it("product search's role cannot log in or bypass the policies, and reads four columns of products only", async () => {
    const role = await client.query(`SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = 'app_product_search'`);
    expect(role.rows).toEqual([{ rolsuper: false, rolbypassrls: false, rolcanlogin: false }]);
    const members = await client.query<{ member: boolean }>(`SELECT pg_has_role('app_user', 'app_product_search', 'MEMBER') AS member`);
    expect(members.rows[0].member).toBe(false);
    const columns = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.column_privileges WHERE grantee = 'app_product_search' AND table_name = 'products' ORDER BY 1`,
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual(['entity_id', 'id', 'name', 'sku']);
    const tables = await client.query(`SELECT table_name FROM information_schema.table_privileges WHERE grantee = 'app_product_search'`);
    expect(tables.rows).toEqual([]);
    const executable = await client.query<{ proname: string }>(
      `SELECT p.proname FROM pg_proc p WHERE p.proowner = (SELECT oid FROM pg_roles WHERE rolname = 'app_product_search')`,
    );
    expect(executable.rows.map((row) => row.proname)).toEqual(['product_search_ids']);
    const callers = await client.query(
      `SELECT has_function_privilege('app_worker', 'product_search_ids(text, text, int)', 'EXECUTE') AS worker,
              has_function_privilege('app_authenticator', 'product_search_ids(text, text, int)', 'EXECUTE') AS authenticator`,
    );
    expect(callers.rows[0]).toEqual({ worker: false, authenticator: false });
  });

  it('a statement run alone (one round trip) is confined like a transaction, and rolled back whole by an error', async () => {
    const name = (entity: TestEntity) =>
      withTransaction({ role: 'app_user', entityId: entity.entity.id }, (db) =>
        db.one<{ name: string }>('SELECT name FROM locations ORDER BY created_at LIMIT 1'),
      );
    const before = { a: (await name(a)).name, b: (await name(b)).name };
    // No WHERE clause: row level security alone keeps B's row out of reach.
    await runAlone({ role: 'app_user', entityId: a.entity.id }, "UPDATE locations SET name = name || ' (alone)'");
    expect((await name(a)).name).toBe(`${before.a} (alone)`);
    expect((await name(b)).name).toBe(before.b);
    // A batch that fails part way keeps nothing of its earlier statements.
    await expect(runAlone({ role: 'app_user', entityId: a.entity.id }, "UPDATE locations SET name = 'rolled back'; SELECT 1 / 0")).rejects.toThrow(
      /division by zero/,
    );
    expect((await name(a)).name).toBe(`${before.a} (alone)`);
    // The role and entity ended with it: the next statement on the pool's connection is the superuser's again, with no entity.
    const after = await withTransaction({ role: 'app_worker' }, (db) =>
      db.one<{ entity: string | null }>("SELECT nullif(current_setting('app.entity_id', true), '') AS entity"),
    );
    expect(after.entity).toBeNull();
    await expect(
      runAlone(
        { role: 'app_user', entityId: a.entity.id },
        "INSERT INTO locations (id, entity_id, name) VALUES ('" + newId() + "', '" + b.entity.id + "', 'planted')",
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('the authenticator role reads keys across entities but cannot read business data', async () => {
    await withTransaction({ role: 'app_authenticator' }, async (db) => {
      const keys = await db.query('SELECT id FROM api_keys WHERE entity_id = ANY($1)', [[a.entity.id, b.entity.id]]);
      expect(keys).toHaveLength(2);
    });
    await expect(withTransaction({ role: 'app_authenticator' }, (db) => db.query('SELECT * FROM locations'))).rejects.toThrow(/permission denied/);
  });
});

describe('test mode apart from live mode', () => {
  let live: TestEntity;
  let test: TestEntity;

  beforeAll(async () => {
    ({ live, test } = await api.newEntityPair());
  });

  it('one entity code, two entities: the key resolves to the row of its mode', async () => {
    expect(live.entity.code).toBe(test.entity.code);
    expect(live.entity.id).not.toBe(test.entity.id);
    expect(parseApiKey(live.secret)).toMatchObject({ mode: 'live', entityCode: live.entity.code });
    expect(parseApiKey(test.secret)).toMatchObject({ mode: 'test', entityCode: live.entity.code });
    const asLive = await authenticate(`Bearer ${live.secret}`, ['live', 'test']);
    const asTest = await authenticate(`Bearer ${test.secret}`, ['live', 'test']);
    expect(asLive.ok && asLive.caller).toMatchObject({ entityId: live.entity.id, mode: 'live', userId: live.owner.id });
    expect(asTest.ok && asTest.caller).toMatchObject({ entityId: test.entity.id, mode: 'test', userId: live.owner.id });
    // The sandbox stage accepts test keys only.
    expect(await authenticate(`Bearer ${live.secret}`, ['test'])).toEqual({ ok: false, code: 'api_key_mode_not_allowed' });
    const rows = await client.query<{ id: string; livemode: boolean; live_entity_id: string | null }>(
      'SELECT id, livemode, live_entity_id FROM entities WHERE code = $1 ORDER BY livemode',
      [live.entity.code],
    );
    expect(rows.rows).toEqual([
      { id: test.entity.id, livemode: false, live_entity_id: live.entity.id },
      { id: live.entity.id, livemode: true, live_entity_id: null },
    ]);
  });

  it('two data sets: the same name in each mode, each key sees only its own, the other is a 404', async () => {
    const inTest = await api.post(test, '/v1/locations', { name: 'Main warehouse' });
    const inLive = await api.post(live, '/v1/locations', { name: 'Main warehouse' });
    expect(inTest).toMatchObject({ livemode: false, entity_id: test.entity.id });
    expect(inLive).toMatchObject({ livemode: true, entity_id: live.entity.id });
    expect((await api.get(test, '/v1/locations')).data.map((l) => l.id)).toEqual([inTest.id]);
    expect((await api.get(live, '/v1/locations')).data.map((l) => l.id)).toEqual([inLive.id]);
    const cross = await api.request('GET', `/v1/locations/${inLive.id}`, { key: test.secret });
    expect(cross.status).toBe(404);
    expect(cross.error).toMatchObject({ code: 'not_found', param: 'id' });
    // Entity-scoped paths: a key names its own entity's id; the other mode's id is a 404.
    const keys = await api.request('GET', `/v1/entities/${live.entity.id}/api-keys`, { key: test.secret });
    expect(keys.status).toBe(404);
    expect(keys.error).toMatchObject({ code: 'not_found', param: 'entity_id' });
    const own = await api.get(test, `/v1/entities/${test.entity.id}/api-keys`);
    expect(own.data.map((k) => [k.id, k.mode, k.livemode])).toEqual([[test.key.id, 'test', false]]);
  });

  it('objects at every depth and their events carry the livemode of the key', async () => {
    for (const [owner, mode] of [
      [test, false],
      [live, true],
    ] as const) {
      const account = await api.post(owner, '/v1/accounts', { name: `Buyer ${String(mode)}` });
      const product = await api.post(owner, '/v1/products', { sku: `LM-${String(mode)}`, name: 'Widget', list_price: 4 });
      const order = await api.post(owner, '/v1/orders', {
        document_type: 'sales_order',
        account_id: account.id,
        lines: [{ product_id: product.id, quantity: 2 }],
      });
      expect(order.livemode).toBe(mode);
      expect(order.lines.map((line) => line.livemode)).toEqual([mode]);
      const expanded = await api.get(owner, `/v1/orders/${order.id}`, { 'expand[]': 'account' });
      expect((expanded.account as { livemode: boolean }).livemode).toBe(mode);
      const events = api.published.filter((event) => event.data.object.id === order.id);
      expect(events.map((event) => [event.type, event.livemode, event.data.object.livemode, event.entity_id])).toEqual([
        ['order.created', mode, mode, owner.entity.id],
      ]);
      const stored = await owner.sql((db) =>
        db.one<{ payload: { livemode: boolean; data: { object: { livemode: boolean } } } }>(
          `SELECT payload FROM event_outbox WHERE type = 'order.created' AND payload->'data'->'object'->>'id' = $1`,
          [order.id],
        ),
      );
      expect([stored.payload.livemode, stored.payload.data.object.livemode]).toEqual([mode, mode]);
    }
  });

  it("row level security confines each mode's transaction to its own entity, events included", async () => {
    await withTransaction({ role: 'app_user', entityId: test.entity.id }, async (db) => {
      expect((await db.query<{ id: string }>('SELECT id FROM entities')).map((e) => e.id)).toEqual([test.entity.id]);
      const foreign = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_outbox WHERE entity_id = $1', [live.entity.id]);
      expect(foreign[0].n).toBe(0);
      const ownEvents = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_outbox');
      expect(ownEvents[0].n).toBeGreaterThan(0);
    });
  });

  it('the user is one person in both modes: the same id, and a live key cannot issue test keys', async () => {
    const users = await client.query<{ entity_id: string }>('SELECT entity_id FROM users WHERE id = $1 ORDER BY entity_id', [live.owner.id]);
    expect(users.rows.map((u) => u.entity_id).sort()).toEqual([live.entity.id, test.entity.id].sort());
    const refused = await api.request('POST', `/v1/entities/${live.entity.id}/api-keys`, {
      key: live.secret,
      body: { scopes: ['settings:read'], mode: 'test' },
    });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'insufficient_permissions', param: 'mode' });
    // The database itself refuses a key stored on the entity of the other mode.
    await expect(
      test.sql((db) => insertApiKey(db, { ...test.entity, livemode: true }, { userId: live.owner.id, mode: 'live', scopes: ['settings:read'] })),
    ).rejects.toThrow(/foreign key|api_keys_entity_mode/);
  });
});

// Creating databases needs a PostgreSQL server; the embedded PGlite is one database. CI runs it on PostgreSQL.
describe.runIf(inject('database').mode === 'postgres')('the test-mode migration, on data made before it', () => {
  const TWINS = '20261124070000_test_mode_twins.sql';
  let admin: pg.Client;
  let url: string;
  let name: string;

  beforeAll(async () => {
    const database = inject('database');
    if (database.mode !== 'postgres') return;
    name = `${database.prefix}_twins_${newId().slice(-8)}`;
    admin = new pg.Client({ connectionString: database.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    url = withDatabase(database.adminUrl, name);
  });
  afterAll(async () => {
    if (!admin) return;
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('keeps every row where it was: an entity a live key reached holds live data, one only test keys reached holds test data', async () => {
    const all = readdirSync(MIGRATIONS).filter((file) => file.endsWith('.sql'));
    const before = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    for (const file of all.filter((f) => f < TWINS)) copyFileSync(path.join(MIGRATIONS, file), path.join(before, file));
    await migrate(url, before);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const ids = { prod: newId(), demo: newId(), owner: newId(), demoOwner: newId(), liveKey: newId(), testKey: newId(), demoKey: newId() };
      const key = (id: string, entity: string, user: string, mode: string) =>
        db.query(`INSERT INTO api_keys (id, entity_id, created_by_user_id, mode, key_hash, redacted_key, scopes) VALUES ($1, $2, $3, $4, $5, 'r', '{}')`, [
          id,
          entity,
          user,
          mode,
          id,
        ]);
      // As the migrating superuser: rows as the old code left them (one entity row per code).
      await db.query(`INSERT INTO entities (id, code, name) VALUES ($1, 'prod', 'Prod'), ($2, 'demo', 'Demo')`, [ids.prod, ids.demo]);
      await db.query(
        `INSERT INTO users (id, entity_id, email, name, permissions) VALUES ($1, $2, 'o@p', 'Owner', '{orders.approve}'), ($3, $4, 'o@d', 'Owner', '{}')`,
        [ids.owner, ids.prod, ids.demoOwner, ids.demo],
      );
      await key(ids.liveKey, ids.prod, ids.owner, 'live');
      await key(ids.testKey, ids.prod, ids.owner, 'test');
      await key(ids.demoKey, ids.demo, ids.demoOwner, 'test');
      await db.query(`INSERT INTO locations (id, entity_id, name) VALUES ($1, $2, 'Prod store'), ($3, $4, 'Demo store')`, [
        newId(),
        ids.prod,
        newId(),
        ids.demo,
      ]);
      await db.query(
        `INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype, system_key, bank_account_id) VALUES ($1, $2, '1000', 'Bank', 'asset', 'bank', 'bank', $3)`,
        [newId(), ids.prod, newId()],
      );

      await migrate(url);

      const entities = await db.query<{ id: string; code: string; livemode: boolean; live_entity_id: string | null }>(
        'SELECT id, code, livemode, live_entity_id FROM entities ORDER BY code, livemode',
      );
      const row = (code: string, live: boolean) => entities.rows.find((e) => e.code === code && e.livemode === live)!;
      expect(entities.rows).toHaveLength(4);
      // prod had a live key: it stays the live entity and gets an empty test twin.
      expect(row('prod', true).id).toBe(ids.prod);
      expect(row('prod', false).live_entity_id).toBe(ids.prod);
      // demo had test keys only: its rows are test data, so it becomes the twin of a new live entity.
      expect(row('demo', false).id).toBe(ids.demo);
      expect(row('demo', false).live_entity_id).toBe(row('demo', true).id);

      const keys = await db.query<{ id: string; entity_id: string }>('SELECT id, entity_id FROM api_keys');
      const keyEntity = Object.fromEntries(keys.rows.map((k) => [k.id, k.entity_id]));
      expect(keyEntity).toEqual({ [ids.liveKey]: ids.prod, [ids.testKey]: row('prod', false).id, [ids.demoKey]: ids.demo });

      const locations = await db.query<{ entity_id: string; name: string }>('SELECT entity_id, name FROM locations ORDER BY name');
      expect(locations.rows).toEqual([
        { entity_id: ids.demo, name: 'Demo store' },
        { entity_id: ids.prod, name: 'Prod store' },
      ]);
      const users = await db.query<{ id: string; entity_id: string; permissions: string[] }>('SELECT id, entity_id, permissions FROM users WHERE id = $1', [
        ids.owner,
      ]);
      expect(users.rows.map((u) => u.entity_id).sort()).toEqual([ids.prod, row('prod', false).id].sort());
      expect(users.rows.every((u) => u.permissions.join() === 'orders.approve')).toBe(true);
      const twinBank = await db.query('SELECT code FROM gl_accounts WHERE entity_id = $1 AND system_key = $2', [row('prod', false).id, 'bank']);
      expect(twinBank.rows).toEqual([{ code: '1000' }]);
      const forced = await db.query<{ relname: string; relforcerowsecurity: boolean }>(
        `SELECT relname, relforcerowsecurity FROM pg_class WHERE relname IN ('entities', 'users', 'api_keys', 'gl_accounts') ORDER BY relname`,
      );
      expect(forced.rows.every((r) => r.relforcerowsecurity)).toBe(true);
    } finally {
      await db.end();
    }
  });
});
