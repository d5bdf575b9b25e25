/**
 * The embedded defaults that let `npm start` and the tests run with nothing installed:
 * PostgreSQL compiled to WASM (PGlite) served over the wire protocol, and an in-memory
 * DynamoDB-API store (dynalite) for idempotency records.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import pg from 'pg';

export interface Closeable {
  close(): Promise<void>;
}

/** Serves a PGlite database (persisted in `dataDir`, or in memory) on 127.0.0.1. */
export async function startEmbeddedPostgres(dataDir?: string, port = 0): Promise<Closeable & { url: string }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  // Several clients may connect (the server's pool, migrations, the CLI); PGlite's queue keeps each
  // transaction's statements together.
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 16 });
  await server.start();
  const address = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return {
    url: `postgres://postgres@127.0.0.1:${address.port}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}

/**
 * PGlite runs one query at a time and shares session state across connections, so two
 * interleaved transactions would see each other's SET LOCAL. One connection serialises them.
 */
export function embeddedPool(url: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 1 });
}

const IDEMPOTENCY_TABLE = 'bizops-idempotency';

/** Starts dynalite in memory and creates the idempotency table the Powertools layer expects. */
export async function startIdempotencyStore(): Promise<Closeable & { endpoint: string; tableName: string }> {
  const { default: dynalite } = await import('dynalite');
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: IDEMPOTENCY_TABLE,
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    tableName: IDEMPOTENCY_TABLE,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
