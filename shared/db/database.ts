/**
 * The one way code reaches PostgreSQL.
 *
 * Every unit of work runs in a transaction that first switches to an unprivileged role and (for
 * tenant work) pins the entity with set_config(..., true), so row level security confines it even
 * if a query forgets its entity filter. Both settings are transaction-local, which is what makes
 * this safe behind RDS Proxy and over PGlite's shared session.
 */
import pg from 'pg';
import { log } from '../log';
import { UUID_PATTERN } from '../ids';

// Keep money and dates exactly as stored: numeric stays a string (decimal arithmetic happens in
// shared/money), a date stays 'YYYY-MM-DD' instead of becoming a local-midnight Date.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

type DbRole = 'app_user' | 'app_authenticator' | 'app_worker';

export interface Db {
  /** All rows of a parameterised statement. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The single row of a statement that must return one. */
  one<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T>;
  /** The first row, or undefined. */
  maybeOne<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T | undefined>;
}

export interface TransactionScope {
  role: DbRole;
  /** Required for app_user: the entity every row must belong to. */
  entityId?: string;
  readOnly?: boolean;
}

let pool: pg.Pool | undefined;
let poolFactory: (() => pg.Pool | Promise<pg.Pool>) | undefined;
let pending: Promise<pg.Pool> | undefined;

/** Where the pool comes from: set once at start-up by the runtime adapter (AWS, local, tests); it may build the pool synchronously. */
export function configureDatabase(factory: () => pg.Pool | Promise<pg.Pool>): void {
  poolFactory = factory;
  pool = undefined;
  pending = undefined;
}

async function getPool(): Promise<pg.Pool> {
  if (pool) return pool;
  if (!pending) {
    const factory = poolFactory ?? defaultPoolFactory;
    pending = Promise.resolve(factory()).then((created) => {
      // An idle connection the server drops (RDS Proxy idle timeout, a failover) is reported on the
      // pool; without a listener Node treats it as an unhandled error and kills the process.
      created.on('error', (error) => log.warn('idle database connection lost', { error }));
      return (pool = created);
    });
  }
  return pending;
}

/**
 * DATABASE_URL wins (local, tests, CI). On AWS the function gets the RDS Proxy endpoint and the
 * ARN of the application user's secret; the secret is read once per cold start.
 */
async function defaultPoolFactory(): Promise<pg.Pool> {
  const max = Number(process.env.DATABASE_POOL_MAX ?? 10);
  const connectionString = process.env.DATABASE_URL;
  if (connectionString) return new pg.Pool({ connectionString, max });
  const secretArn = process.env.DB_SECRET_ARN;
  if (!secretArn) throw new Error('set DATABASE_URL, or DB_SECRET_ARN and DB_HOST');
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretArn }));
  const { username, password, dbname } = JSON.parse(secret.SecretString ?? '{}') as Record<string, string>;
  return new pg.Pool({
    host: process.env.DB_HOST,
    port: Number(process.env.DB_PORT ?? 5432),
    database: process.env.DB_NAME ?? dbname ?? 'bizops',
    user: username,
    password,
    ssl: { rejectUnauthorized: true },
    max,
    idleTimeoutMillis: 60_000,
  });
}

export async function closeDatabase(): Promise<void> {
  const current = pool;
  pool = undefined;
  pending = undefined;
  await current?.end();
}

function wrapClient(client: pg.ClientBase): Db {
  const query = async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[];
  return {
    query,
    async one<T>(sql: string, params?: unknown[]) {
      const rows = await query<T>(sql, params);
      if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
      return rows[0];
    },
    async maybeOne<T>(sql: string, params?: unknown[]) {
      return (await query<T>(sql, params))[0];
    },
  };
}

/**
 * The statement that opens a scoped transaction. It is sent as one simple-protocol batch so the
 * role switch and entity pin share BEGIN's round trip. Both go through set_config(..., true)
 * rather than SET LOCAL: transaction-local all the same, and RDS Proxy does not pin a connection
 * for a function call the way it does for SET statements. The entity id is validated as a UUID
 * before it is inlined, so nothing a caller sends reaches this text.
 */
const ROLES: readonly DbRole[] = ['app_user', 'app_authenticator', 'app_worker'];

export function beginStatement(scope: TransactionScope): string {
  if (!ROLES.includes(scope.role)) throw new Error(`unknown database role ${scope.role}`);
  if (scope.role === 'app_user' && !scope.entityId) throw new Error('app_user transactions need an entity');
  const settings = [`set_config('role', '${scope.role}', true)`];
  if (scope.entityId !== undefined) {
    if (!UUID_PATTERN.test(scope.entityId)) throw new Error('entity id is not a UUID');
    settings.push(`set_config('app.entity_id', '${scope.entityId}', true)`);
  }
  return `${scope.readOnly ? 'BEGIN READ ONLY' : 'BEGIN'}; SELECT ${settings.join(', ')}`;
}

/** Runs `work` in one transaction under `scope`; commits on success, rolls back on any throw. */
export async function withTransaction<T>(scope: TransactionScope, work: (db: Db) => Promise<T>): Promise<T> {
  const client = await (await getPool()).connect();
  let broken = false;
  try {
    await client.query(beginStatement(scope));
    const result = await work(wrapClient(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true; // the connection is unusable; drop it from the pool
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

/** Postgres SQLSTATE helpers, for mapping constraint violations to API errors. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = error as { code?: string; constraint?: string };
  return pgError?.code === '23505' && (constraint === undefined || pgError.constraint === constraint);
}

export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === '23503';
}
