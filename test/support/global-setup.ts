/**
 * Once per test run: a migrated database template.
 *
 * With DATABASE_URL (CI: a real PostgreSQL 15) a template database is migrated once and every
 * test file clones it (CREATE DATABASE ... TEMPLATE), so files never see each other's rows.
 * Without it, one in-memory PGlite is started and shared; files then isolate by entity.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { withDatabase } from '../../shared/db/connection-url';
import { migrate } from '../../shared/db/migrate';
import { startEmbeddedPostgres } from '../../local/embedded';

// Each run has its own prefix, so two runs on one server (two developers, a benchmark) never
// drop each other's databases.
const RUN_PREFIX = `bizops_test_${randomBytes(3).toString('hex')}`;
const TEMPLATE_DB = `${RUN_PREFIX}_template`;

declare module 'vitest' {
  export interface ProvidedContext {
    database: { mode: 'postgres'; adminUrl: string; template: string; prefix: string } | { mode: 'embedded'; url: string };
  }
}

export default async function setup(project: TestProject) {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.end();
    await migrate(withDatabase(adminUrl, TEMPLATE_DB));
    project.provide('database', { mode: 'postgres', adminUrl, template: TEMPLATE_DB, prefix: RUN_PREFIX });
    return async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      const left = await cleanup.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [RUN_PREFIX]);
      for (const { datname } of left.rows) await cleanup.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await cleanup.end();
    };
  }
  const embedded = await startEmbeddedPostgres();
  await migrate(embedded.url);
  project.provide('database', { mode: 'embedded', url: embedded.url });
  return () => embedded.close();
}
