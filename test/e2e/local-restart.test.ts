/**
 * The local server keeps its promises across a restart: a payment retried with its
 * Idempotency-Key after the server stopped and started again on the same data folder (and the
 * same database) is replayed, not charged a second time.
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_MODULES } from '../../functions/routes';
import { startIdempotencyStore } from '../../local/embedded';
import { createGateway } from '../../local/gateway';
import { startLocalRuntime } from '../../local/runtime';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { provisionEntity } from '../../shared/tenants/provision-entity';
import { createClient, type TestClient } from '../support/client';
import { createFileDatabase, tenantRowCounts } from '../support/harness';

interface LocalServer {
  client: TestClient;
  close(): Promise<void>;
}

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let running: LocalServer | undefined;

/** What `npm start` does, in process: the runtime on the data folder and the gateway over it. */
async function startServer(): Promise<LocalServer> {
  const runtime = await startLocalRuntime({ databaseUrl, dataDir });
  const server = http.createServer(createGateway({ routes: Object.values(ROUTE_MODULES) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  running = {
    client: createClient(() => baseUrl),
    async close() {
      running = undefined;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await runtime.close();
    },
  };
  return running;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'bizops-restart-'));
  // With a real PostgreSQL, a database of this file's own; otherwise the embedded one in the data folder.
  if (process.env.DATABASE_URL) {
    const database = await createFileDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
});

afterAll(async () => {
  await running?.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a local restart', () => {
  it('replays a payment retried with its Idempotency-Key instead of taking it twice', async () => {
    const first = await startServer();
    const { key, entity } = await provisionEntity({ code: `rs${randomBytes(5).toString('hex')}`, name: 'Restart', mode: 'test', scopes: ALL_SCOPES });
    const account = await first.client.post(key.secret, '/v1/accounts', { name: 'Payer' });
    const pay = (server: LocalServer, amount: number) =>
      server.client.request('POST', '/v1/payments/multi-invoice-apply', {
        key: key.secret,
        headers: { 'Idempotency-Key': 'pay-before-restart' },
        body: { account_id: account.id, amount, route_unapplied: 'credit' },
      });
    const taken = await pay(first, 25);
    expect(taken.status).toBe(201);
    expect(taken.body.idempotent_replay).toBe(false);
    await first.close();

    const second = await startServer();
    const retried = await pay(second, 25);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual({ ...taken.body, idempotent_replay: true });
    // The record kept its fingerprint too: the same key with another amount is refused.
    const altered = await pay(second, 30);
    expect(altered.status).toBe(422);
    expect(altered.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect((await tenantRowCounts(entity.id)).payments).toBe(1);
    await second.close();
  }, 120_000);

  it('drops expired idempotency records when the persisted store starts again, as DynamoDB TTL would', async () => {
    const folder = path.join(dataDir, 'ttl');
    const now = Math.floor(Date.now() / 1000);
    const withClient = async <T>(work: (client: DynamoDBClient, tableName: string) => Promise<T>): Promise<T> => {
      const store = await startIdempotencyStore(folder);
      const client = new DynamoDBClient({ endpoint: store.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
      try {
        return await work(client, store.tableName);
      } finally {
        client.destroy();
        await store.close();
      }
    };
    await withClient(async (client, TableName) => {
      for (const [id, expiration] of [
        ['expired', now - 60],
        ['live', now + 3_600],
      ] as const) {
        await client.send(new PutItemCommand({ TableName, Item: { id: { S: id }, expiration: { N: String(expiration) }, status: { S: 'COMPLETED' } } }));
      }
    });
    const kept = await withClient(async (client, TableName) =>
      Promise.all(['expired', 'live'].map(async (id) => (await client.send(new GetItemCommand({ TableName, Key: { id: { S: id } } }))).Item?.id?.S)),
    );
    expect(kept).toEqual([undefined, 'live']);
  });
});
