/**
 * Row level security is the second wall behind the handlers' own entity filters: these tests
 * talk SQL directly, as the application role, with no WHERE clause helping.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withTransaction } from '../../shared/db/database';
import { newId } from '../../shared/ids';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();
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

  it('the authenticator role reads keys across entities but cannot read business data', async () => {
    await withTransaction({ role: 'app_authenticator' }, async (db) => {
      const keys = await db.query('SELECT id FROM api_keys WHERE entity_id = ANY($1)', [[a.entity.id, b.entity.id]]);
      expect(keys).toHaveLength(2);
    });
    await expect(withTransaction({ role: 'app_authenticator' }, (db) => db.query('SELECT * FROM locations'))).rejects.toThrow(/permission denied/);
  });
});
