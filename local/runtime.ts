/**
 * Wires the adapters for running outside AWS: database (DATABASE_URL or embedded PGlite),
 * idempotency store (dynalite), event bus (in process) and the webhook dispatcher on it, and the
 * events feed's retention sweep on a timer. Used by `npm start`, the e2e tests and
 * the benchmarks; the handlers themselves never know.
 *
 * With a data folder, what must survive a restart is kept in it: `pglite/` (the embedded database)
 * and `idempotency/` (the idempotency records, so a retry after a restart replays instead of
 * executing twice). Without one, both live in memory.
 */
import path from 'node:path';
import { configureDatabase, closeDatabase, createPool } from '../shared/db/database';
import { migrate } from '../shared/db/migrate';
import { configurePublisher, InProcessEventBus } from '../shared/events/publisher';
import { WebhookDispatcher } from '../shared/webhooks/dispatcher';
import { embeddedPool, startEmbeddedPostgres, startIdempotencyStore, type Closeable } from './embedded';
import { configureSnapshotRunner } from '../shared/migration/snapshot-workflow';
import { localSnapshotRunner } from './snapshot-workflow';
import { startRetentionSweeper } from './retention-sweep';

export interface LocalRuntime {
  databaseUrl: string;
  embedded: boolean;
  bus: InProcessEventBus;
  close(): Promise<void>;
}

export interface LocalRuntimeOptions {
  /** A real PostgreSQL; when absent, PGlite persisted in `dataDir`/pglite (or in memory). */
  databaseUrl?: string;
  /** The data folder (`DATA_DIR`); in memory when absent. */
  dataDir?: string;
  /** Port for the embedded PostgreSQL socket (0: any free port). */
  embeddedPort?: number;
}

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const closers: Closeable[] = [];
  let databaseUrl = options.databaseUrl;
  const embedded = !databaseUrl;
  if (!databaseUrl) {
    const postgres = await startEmbeddedPostgres(options.dataDir && path.join(options.dataDir, 'pglite'), options.embeddedPort ?? 0);
    closers.push(postgres);
    databaseUrl = postgres.url;
  }
  await migrate(databaseUrl);
  const url = databaseUrl;
  configureDatabase(() => (embedded ? embeddedPool(url) : createPool({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX ?? 10) })));

  const store = await startIdempotencyStore(options.dataDir && path.join(options.dataDir, 'idempotency'));
  closers.push(store);
  process.env.IDEMPOTENCY_TABLE_NAME = store.tableName;
  // The SDK's own endpoint variable: the idempotency store's DynamoDB client calls dynalite (shared/aws-clients.ts).
  process.env.AWS_ENDPOINT_URL_DYNAMODB = store.endpoint;

  const bus = new InProcessEventBus();
  configurePublisher(bus);
  // Webhook deliveries run in this process, from the same bus: an endpoint at http://localhost:<port>
  // (with WEBHOOK_URL_ALLOWLIST=localhost) receives the events of local requests.
  const dispatcher = new WebhookDispatcher(bus);
  // Cutover snapshots run the state machine's definition in process (its stub branch: no database service here).
  configureSnapshotRunner(localSnapshotRunner());
  // Events past EVENT_RETENTION_DAYS leave the feed here too, as the outbox sweeper deletes them on AWS.
  const retention = startRetentionSweeper();

  return {
    databaseUrl,
    embedded,
    bus,
    async close() {
      await retention.stop();
      await dispatcher.stop();
      await closeDatabase();
      for (const closer of closers.reverse()) await closer.close();
    },
  };
}
