/**
 * Per test file: a database of its own (cloned from the migrated template on PostgreSQL), the
 * idempotency store, the in-process event bus, and the local gateway on a random port, so tests
 * drive the real authorizer and handler stack over HTTP.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { withDatabase } from '../../shared/db/connection-url';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { ROUTE_MODULES } from '../../functions/routes';
import { createGatewayServer, type GatewayOptions } from '../../local/gateway';
import { embeddedPool, startIdempotencyStore } from '../../local/embedded';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { closeDatabase, configureDatabase, createPool, withTransaction, type Db } from '../../shared/db/database';
import { inEntity, insertApiKey } from '../../shared/tenants/identity-store';
import { provisionEntity, type ProvisionedEntity } from '../../shared/tenants/provision-entity';
import { configurePublisher, InProcessEventBus } from '../../shared/events/publisher';
import type { EventEnvelope } from '../../shared/events/outbox';
import type { HttpMethod } from '../../shared/http/route';
import { createClient, type BodyParam, type ErrorEnvelope, type KnownPath, type TestClient } from './client';
import type { RouteFor } from './client-types';

/** The typed client (test/support/client.ts) of a gateway of its own, and the entities to call it with. */
/** A published event, its object readable field by field. */
type TestEvent = EventEnvelope & { data: { object: Record<string, unknown> } };

export interface TestApi extends TestClient {
  baseUrl: string;
  bus: InProcessEventBus;
  /** The events the bus has published (api.bus.published), typed for filtering by object fields. */
  readonly published: TestEvent[];
  databaseUrl: string;
  /** A new entity with an owner user and a key (every scope unless stated); `entity` is the one the key acts in. */
  newEntity(options?: { scopes?: string[]; mode?: 'live' | 'test' }): Promise<TestEntity>;
  /** Both keys of one new entity: a live key (its live data) and a test key (its test-mode twin), every scope unless stated. */
  newEntityPair(options?: { scopes?: string[] }): Promise<{ live: TestEntity; test: TestEntity }>;
  /**
   * Sends one request as `owner` (or with `key`) and expects it refused with `status` and `code`
   * (and `param` when given), leaving every tenant table of the owner's entity as it was; the envelope.
   */
  expectRefusal<M extends HttpMethod, const P extends string>(
    owner: TestEntity,
    method: M,
    path: P & KnownPath<M, P>,
    body: BodyParam<RouteFor<M, P>>,
    status: number,
    code?: string,
    param?: string,
    key?: string,
  ): Promise<ErrorEnvelope>;
}

export interface TestEntity extends ProvisionedEntity {
  secret: string;
  /** Runs SQL inside this entity's scope (row level security applies). */
  sql<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

let counter = 0;
const uniqueCode = () => `t${randomBytes(5).toString('hex')}${(counter++).toString(36)}`;

export async function createFileDatabase(): Promise<{ url: string; pool: () => pg.Pool; drop: () => Promise<void> }> {
  const database = inject('database');
  if (database.mode === 'embedded') return { url: database.url, pool: () => embeddedPool(database.url), drop: () => Promise.resolve() };
  const name = `${database.prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: database.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${database.template}`);
  await admin.end();
  const url = withDatabase(database.adminUrl, name);
  return {
    url,
    pool: () => createPool({ connectionString: url, max: 10 }),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: database.adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export function setupTestApi(gatewayOptions: Partial<GatewayOptions> = {}): TestApi {
  const api = createClient(() => api.baseUrl) as TestApi;
  let server: http.Server;
  let closeStore: () => Promise<void>;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await createFileDatabase();
    dropDatabase = database.drop;
    configureDatabase(() => database.pool());
    const store = await startIdempotencyStore();
    closeStore = () => store.close();
    process.env.IDEMPOTENCY_TABLE_NAME = store.tableName;
    process.env.AWS_ENDPOINT_URL_DYNAMODB = store.endpoint;
    const bus = new InProcessEventBus();
    configurePublisher(bus);
    // Suites send many requests, and many refused keys (the security matrix), from one address.
    const unlimited = { ratePerSecond: 10_000, burst: 10_000 };
    server = createGatewayServer({ routes: Object.values(ROUTE_MODULES), rateLimit: unlimited, authFailureLimit: unlimited, ...gatewayOptions });
    // A test that works synchronously for seconds (generating client types from the 2.4 MB document)
    // would otherwise let the server close idle keep-alive sockets the client is about to reuse.
    server.keepAliveTimeout = 120_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    Object.assign(api, {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      bus,
      databaseUrl: database.url,
    });
  });

  afterAll(async () => {
    // close() waits for open sockets; a half-sent request (the malformed-request tests) would hold it for the keep-alive timeout.
    await new Promise((resolve) => {
      server?.close(resolve);
      server?.closeAllConnections();
    });
    await closeDatabase();
    await closeStore?.();
    await dropDatabase?.();
  });

  api.newEntity = async (options = {}) => {
    const provisioned = await provisionEntity({ code: uniqueCode(), name: 'Test entity', mode: options.mode ?? 'test', scopes: options.scopes ?? ALL_SCOPES });
    return { ...provisioned, secret: provisioned.key.secret, sql: (work) => inEntity(provisioned.entity.id, work) };
  };

  api.newEntityPair = async (options = {}) => {
    const scopes = options.scopes ?? ALL_SCOPES;
    const live = await provisionEntity({ code: uniqueCode(), name: 'Test entity', mode: 'live', scopes });
    const twin = live.modes.test;
    const key = await inEntity(twin.id, (db) => insertApiKey(db, twin, { userId: live.owner.id, mode: 'test', scopes, name: 'Test key' }));
    const test = { ...live, entity: twin, owner: { ...live.owner, entity_id: twin.id }, key };
    return {
      live: { ...live, secret: live.key.secret, sql: (work) => inEntity(live.entity.id, work) },
      test: { ...test, secret: key.secret, sql: (work) => inEntity(twin.id, work) },
    };
  };

  Object.defineProperty(api, 'published', { get: () => api.bus.published });

  api.expectRefusal = async (owner, method, path, body, status, code, param, key = owner.secret) => {
    const before = await tenantRowCounts(owner.entity.id);
    const response = await api.raw(method, path, { key, body });
    expect(response.status, response.text).toBe(status);
    if (code) expect(response.error.code).toBe(code);
    if (param) expect(response.error.param).toBe(param);
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    return response.error;
  };

  return api;
}

/** Row counts of every tenant table for one entity: proves a refused request wrote nothing. */
export async function tenantRowCounts(entityId: string): Promise<Record<string, number>> {
  return withTransaction({ role: 'app_user', entityId }, async (db) => {
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'entity_id' ORDER BY table_name`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name } of tables) {
      counts[table_name] = (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table_name}`)).n;
    }
    return counts;
  });
}

/**
 * A fingerprint of every row of every tenant table for one entity (the gap-free counters and the
 * outbox among them): equal before and after exactly when nothing was inserted, changed or deleted.
 * Row counts miss an update (a PATCH, a number taken); this does not.
 */
export async function tenantContents(entityId: string): Promise<Record<string, string>> {
  return withTransaction({ role: 'app_user', entityId }, async (db) => {
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'entity_id' ORDER BY table_name`,
    );
    const columns = tables.map(
      ({ table_name }) => `(SELECT count(*) || ':' || md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM ${table_name} t) AS ${table_name}`,
    );
    return db.one<Record<string, string>>(`SELECT ${columns.join(', ')}`);
  });
}

/** The types of the outbox events whose payload mentions `objectId`, oldest first. */
export async function eventTypesOf(owner: TestEntity, objectId: string): Promise<string[]> {
  const rows = await owner.sql((db) =>
    db.query<{ type: string }>(`SELECT type FROM event_outbox WHERE payload::text LIKE $1 ORDER BY created_at, id`, [`%${objectId}%`]),
  );
  return rows.map((row) => row.type);
}
