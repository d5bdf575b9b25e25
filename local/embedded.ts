/**
 * The embedded defaults that let `npm start` and the tests run with nothing installed:
 * PostgreSQL compiled to WASM (PGlite) served over the wire protocol, and a DynamoDB-API store
 * (dynalite) for idempotency records, each persisted in a folder or kept in memory.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ScanCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import type pg from 'pg';
import { createPool } from '../shared/db/database';

export interface Closeable {
  close(): Promise<void>;
}

/** Serves a PGlite database (persisted in `dataDir`, or in memory) on 127.0.0.1. */
export async function startEmbeddedPostgres(dataDir?: string, port = 0): Promise<Closeable & { url: string }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  // pg_trgm: the trigram index behind product search (?q=), created by a migration as on PostgreSQL.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
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
  return createPool({ connectionString: url, max: 1 });
}

const IDEMPOTENCY_TABLE = 'bizops-idempotency';
/** The attribute where the Powertools layer writes a record's expiry (epoch seconds). */
const EXPIRY_ATTRIBUTE = 'expiration';

/** DynamoDB TTL's counterpart, which dynalite lacks: a persisted store drops expired records on start. */
async function deleteExpiredRecords(client: DynamoDBClient): Promise<void> {
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: IDEMPOTENCY_TABLE,
        ProjectionExpression: 'id',
        FilterExpression: '#expiry < :now',
        ExpressionAttributeNames: { '#expiry': EXPIRY_ATTRIBUTE },
        ExpressionAttributeValues: { ':now': { N: String(Math.floor(Date.now() / 1000)) } },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) await client.send(new DeleteItemCommand({ TableName: IDEMPOTENCY_TABLE, Key: { id: item.id } }));
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * Starts dynalite and creates the idempotency table the Powertools layer expects. With `dataDir`
 * the records are kept there (LevelDB, through prebuilt binaries), so a retry after a restart
 * still replays; without it they live in memory.
 */
export async function startIdempotencyStore(dataDir?: string): Promise<Closeable & { endpoint: string; tableName: string }> {
  const { default: dynalite } = await import('dynalite');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(dataDir && { path: dataDir }) });
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
    // dynalite answers CreateTable with the table still CREATING, even at createTableMs 0; a
    // write before it is ACTIVE is a ResourceNotFoundException.
    while ((await client.send(new DescribeTableCommand({ TableName: IDEMPOTENCY_TABLE }))).Table?.TableStatus !== 'ACTIVE') {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await deleteExpiredRecords(client);
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    tableName: IDEMPOTENCY_TABLE,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
