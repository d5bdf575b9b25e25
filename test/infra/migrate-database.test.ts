/**
 * The deploy-time migration handler against real PostgreSQL (PGlite served over the wire
 * protocol): the login role it provisions, the grants, and the SCRAM verifier it sends in place
 * of the plaintext password. Only TLS and Secrets Manager are AWS-specific and not exercised.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler, provisionDatabase, scramVerifier } from '../../functions/platform/migrate-database';
import { type Closeable, startEmbeddedPostgres } from '../../local/embedded';
import { repoRoot } from './synth';

let server: Closeable & { url: string };
let admin: pg.Client;

const urlFor = (database: string) => {
  const url = new URL(server.url);
  url.pathname = `/${database}`;
  return url.toString();
};

beforeAll(async () => {
  server = await startEmbeddedPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await server?.close();
});

describe('scramVerifier', () => {
  it('computes exactly what PostgreSQL stores for the same password and salt', async () => {
    const password = 'Zq8-vR2.kL5_xW9=Tn4,hJ7^bM3';
    await admin.query("SET password_encryption = 'scram-sha-256'");
    await admin.query(`CREATE ROLE scram_probe LOGIN PASSWORD ${admin.escapeLiteral(password)}`);
    const { rows } = await admin.query<{ rolpassword: string }>("SELECT rolpassword FROM pg_authid WHERE rolname = 'scram_probe'");
    await admin.query('DROP ROLE scram_probe');
    const stored = rows[0].rolpassword;
    const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(stored)!;
    expect(scramVerifier(password, Buffer.from(salt, 'base64'), Number(iterations))).toBe(stored);
  });

  it('refuses passwords SASLprep would change', () => {
    expect(() => scramVerifier('pässword')).toThrow(/printable ASCII/);
  });
});

describe('provisionDatabase', () => {
  const app = { username: 'bizops_app', password: 'Hx4-pP9.qW2_rT6=yU1,iO8^aS5' };

  it('creates the login, migrates, and lets it switch into (not inherit) the app roles; a rerun changes nothing', async () => {
    const input = { adminConnection: urlFor, database: 'postgres', app, migrationsDir: join(repoRoot, 'migrations') };
    const first = await provisionDatabase(input);
    expect(first.length).toBeGreaterThan(0);

    const role = await admin.query<{ rolpassword: string }>(
      "SELECT r.rolcanlogin, r.rolinherit, r.rolsuper, r.rolbypassrls, r.rolconfig, a.rolpassword FROM pg_roles r JOIN pg_authid a ON a.oid = r.oid WHERE r.rolname = 'bizops_app'",
    );
    expect(role.rows[0]).toMatchObject({
      rolcanlogin: true,
      rolinherit: false,
      rolsuper: false,
      rolbypassrls: false,
      rolconfig: ['lock_timeout=5000ms', 'statement_timeout=15000ms', 'idle_in_transaction_session_timeout=15000ms'],
    });
    expect(role.rows[0].rolpassword).toMatch(/^SCRAM-SHA-256\$4096:/);

    const memberships = await admin.query(
      `SELECT r.rolname, m.inherit_option, m.set_option FROM pg_auth_members m
         JOIN pg_roles r ON r.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
        WHERE u.rolname = 'bizops_app' ORDER BY r.rolname`,
    );
    expect(memberships.rows).toEqual([
      { rolname: 'app_authenticator', inherit_option: false, set_option: true },
      { rolname: 'app_user', inherit_option: false, set_option: true },
      { rolname: 'app_worker', inherit_option: false, set_option: true },
    ]);

    const rerun = await provisionDatabase(input);
    expect(rerun).toEqual([]);
  });

  it('leaves the login with no table privileges of its own', async () => {
    const { rows } = await admin.query(
      "SELECT has_table_privilege('bizops_app', 'locations', 'SELECT') AS direct, has_table_privilege('app_user', 'locations', 'SELECT') AS via_role",
    );
    expect(rows[0]).toEqual({ direct: false, via_role: true });

    // As the login itself: reading directly is refused; after SET LOCAL ROLE it works (RLS then
    // hides every row, since no entity is pinned).
    await admin.query('SET ROLE bizops_app');
    try {
      await expect(admin.query('SELECT count(*) FROM locations')).rejects.toThrow(/permission denied/);
      await admin.query('BEGIN');
      await admin.query('SET LOCAL ROLE app_user');
      const visible = await admin.query<{ count: string }>('SELECT count(*)::text AS count FROM locations');
      expect(visible.rows[0].count).toBe('0');
      await admin.query('COMMIT');
    } finally {
      await admin.query('RESET ROLE');
    }
  });
});

describe('handler', () => {
  it('does nothing on Delete: removing the stack never drops data', async () => {
    const result = await handler({ RequestType: 'Delete', PhysicalResourceId: 'bizops-database-migrations' } as never);
    expect(result).toEqual({ PhysicalResourceId: 'bizops-database-migrations' });
  });
});
