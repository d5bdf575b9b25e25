/**
 * How the operator commands (CLI, recurring runner) reach a database: DATABASE_URL when set;
 * else the embedded database of a running `npm start` (through the socket it publishes in
 * .data/server.json); else they open the embedded database themselves.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { closeDatabase, configureDatabase, createPool } from '../shared/db/database';
import { migrate } from '../shared/db/migrate';
import { embeddedPool, startEmbeddedPostgres } from './embedded';

/** Configures the data layer and returns how to let go of it. */
export async function connectForCommand(): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    await migrate(url);
    configureDatabase(() => createPool({ connectionString: url, max: 2 }));
    return closeDatabase;
  }
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  const serverFile = path.join(dataDir, 'server.json');
  const running = existsSync(serverFile) ? (JSON.parse(readFileSync(serverFile, 'utf8')) as { databaseUrl: string | null }).databaseUrl : null;
  if (running && (await reachable(running))) {
    configureDatabase(() => embeddedPool(running));
    return closeDatabase;
  }
  const embedded = await startEmbeddedPostgres(path.join(dataDir, 'pglite'));
  await migrate(embedded.url);
  configureDatabase(() => embeddedPool(embedded.url));
  return async () => {
    await closeDatabase();
    await embedded.close();
  };
}

async function reachable(url: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString: url });
  const ok = await probe.connect().then(
    () => true,
    () => false,
  );
  await probe.end().catch(() => undefined);
  return ok;
}
