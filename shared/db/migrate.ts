/**
 * Applies the versioned SQL migrations in `migrations/` with node-pg-migrate.
 * Runs at start-up locally and in tests, and as a deploy step (custom resource) on AWS.
 */
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';

const DEFAULT_MIGRATIONS_DIR = process.env.MIGRATIONS_DIR ?? fileURLToPath(new URL('../../migrations', import.meta.url));

export async function migrate(connection: string | pg.ClientConfig, dir = DEFAULT_MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
  await client.connect();
  try {
    const applied = await runner({
      dbClient: client,
      dir,
      direction: 'up',
      migrationsTable: 'schema_migrations',
      singleTransaction: true,
      // Two processes starting together (a test run and the local server) wait for each other.
      advisoryLockMode: 'wait',
      log: () => undefined,
    });
    return applied.map((migration) => migration.name);
  } finally {
    await client.end();
  }
}
