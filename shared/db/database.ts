/**
 * The one way code reaches PostgreSQL.
 *
 * Every unit of work runs in a transaction that first switches to an unprivileged role and (for
 * tenant work) pins the entity with set_config(..., true), so row level security confines it even
 * if a query forgets its entity filter. Both settings are transaction-local, which is what makes
 * this safe behind RDS Proxy and over PGlite's shared session.
 *
 * Every wait a request can meet here is bounded (DatabaseTimeouts) and ends in an error envelope,
 * never a stall: 409 resource_locked for a lock, 503 service_unavailable for a timeout, a busy
 * pool or a connection the server drops.
 */
import pg from 'pg';
import { ApiError } from '../errors';
import { logger } from '../powertools';
import { beginStatement, databaseTimeouts, frozen, scopeSettings, type TransactionScope } from './opening-batch';
import { poolConfigFromEnvironment } from './pool-config';

// Keep money and dates exactly as stored: numeric stays a string (decimal arithmetic happens in
// shared/money), a date stays 'YYYY-MM-DD' instead of becoming a local-midnight Date.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface Db {
  /** All rows of a parameterised statement. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The single row of a statement that must return one. */
  one<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T>;
  /** The first row, or undefined. */
  maybeOne<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T | undefined>;
}

/** A pg pool as every pool of the application is built: with the acquire timeout. */
export function createPool(config: pg.PoolConfig): pg.Pool {
  return new pg.Pool({ connectionTimeoutMillis: databaseTimeouts().acquireMs, ...config });
}

let pool: pg.Pool | undefined;
let poolFactory: (() => pg.Pool | Promise<pg.Pool>) | undefined;
let pending: Promise<pg.Pool> | undefined;

/** Where the pool comes from: set once at start-up by the runtime adapter (AWS, local, tests); it may build the pool synchronously. */
export function configureDatabase(factory: () => pg.Pool | Promise<pg.Pool>): void {
  poolFactory = factory;
  pool = undefined;
  pending = undefined;
  initConnection = undefined;
}

const ignoreConnectionError = (): void => {};

async function getPool(): Promise<pg.Pool> {
  if (pool) return pool;
  if (!pending) {
    const factory = poolFactory ?? defaultPoolFactory;
    // A factory that throws rejects like one that fails later: the caller sees one kind of failure.
    pending = new Promise<pg.Pool>((resolve) => resolve(factory())).then(
      (created) => {
        // An idle connection the server drops (RDS Proxy idle timeout, a failover) is reported on the
        // pool; without a listener Node treats it as an unhandled error and kills the process.
        created.on('error', (error) => logger.warn('idle database connection lost', { error }));
        // The pool listens to its idle clients only, and a holder (withTransaction) from when it has
        // the client. In between, and while a dropped client is being removed, a connection the
        // server terminates reports on the client itself: this listener keeps that from ending the
        // process. Whoever holds the client still sees the error on its own listener or query.
        created.on('connect', (client) => client.on('error', ignoreConnectionError));
        return (pool = created);
      },
      (error: unknown) => {
        // A failure to build it (its configuration is missing) is not kept: the next request tries again.
        pending = undefined;
        logger.error('database pool could not be built', { error });
        throw error;
      },
    );
  }
  return pending;
}

/** The first connection, being opened while the function initialises (connectDuringInit). */
let initConnection: Promise<void> | undefined;

/**
 * Opens the first connection while a Lambda function initialises, when DATABASE_CONNECT_DURING_INIT
 * is `true` (the infrastructure sets it wherever the database is configured; the route functions
 * and the authorizer call this at load, the scheduled jobs are invoked at once and gain nothing).
 * TCP, TLS, the proxy's login and the backend's start are then under way before the first event,
 * and done in an environment initialised ahead of its first request. The connection goes back to
 * the pool idle; the first transaction waits for it rather than opening a second. A failure is
 * only logged: the first transaction connects as it always would.
 */
export function connectDuringInit(env: NodeJS.ProcessEnv = process.env): void {
  if (env.DATABASE_CONNECT_DURING_INIT !== 'true' || pool || pending || initConnection) return;
  initConnection = getPool()
    .then((created) => created.connect())
    .then(
      (client) => client.release(),
      (error: unknown) => logger.warn('the database connection opened during init failed; the first request opens its own', { error }),
    );
}

/**
 * DATABASE_URL wins (local, tests, CI); on AWS the function logs in to RDS Proxy with IAM
 * (pool-config.ts).
 */
function defaultPoolFactory(): pg.Pool {
  return createPool(poolConfigFromEnvironment(process.env));
}

export async function closeDatabase(): Promise<void> {
  const current = pool;
  pool = undefined;
  pending = undefined;
  initConnection = undefined;
  await current?.end();
}

/** The Db of one transaction: methods on a prototype, so a transaction allocates one small object for it. */
class TransactionDb implements Db {
  constructor(private readonly client: pg.ClientBase) {}

  async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
    return (await this.client.query(sql, params)).rows as T[];
  }

  // one and maybeOne await the client themselves: one promise layer less for every statement.
  async one<T>(sql: string, params?: unknown[]): Promise<T> {
    const rows = (await this.client.query(sql, params)).rows as T[];
    if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
    return rows[0];
  }

  async maybeOne<T>(sql: string, params?: unknown[]): Promise<T | undefined> {
    return (await this.client.query(sql, params)).rows[0] as T | undefined;
  }
}

const RETRY_AFTER = { 'Retry-After': '1' };

// Server-side ends of a session: 08xxx connection exceptions, 57P01 terminated by an administrator
// (pg_terminate_backend, a failover), 57P02 crash, 57P03 not accepting connections yet, 25P03 and
// 57P05 the idle timeouts. Node's socket errors and pg's own messages cover the client side.
const LOST_SESSION_STATES = new Set(['57P01', '57P02', '57P03', '57P05', '25P03']);
const SOCKET_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const LOST_CONNECTION_MESSAGE = /Connection terminated|not queryable|timeout exceeded when trying to connect/i;

/** Whether `error` means the connection is gone (or could not be had): the request cannot have changed anything. */
export function isConnectionLost(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || LOST_SESSION_STATES.has(code) || SOCKET_ERRORS.has(code))) return true;
  return typeof message === 'string' && LOST_CONNECTION_MESSAGE.test(message);
}

/**
 * What a database failure means to the caller. Lock waits are a conflict on one record (409, the
 * caller may retry at once); timeouts and lost connections are this service's trouble (503). In
 * each case the transaction rolled back, so nothing was changed.
 */
export function databaseFailure(error: unknown, connectionLost = false): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === '55P03') return new ApiError('resource_locked', { headers: RETRY_AFTER, cause: error });
  if (code === '40P01') {
    return new ApiError('resource_locked', {
      hint: 'This request and another one each held a record the other needed; this one was stopped and nothing was changed. Retry after the delay in Retry-After.',
      headers: RETRY_AFTER,
      cause: error,
    });
  }
  if (code === '57014') {
    return new ApiError('service_unavailable', {
      hint: 'The database did not finish this request within the statement timeout; nothing was changed. Retry after the delay in Retry-After.',
      headers: RETRY_AFTER,
      cause: error,
    });
  }
  if (connectionLost || isConnectionLost(error)) {
    return new ApiError('service_unavailable', {
      hint: 'The connection to the database was lost or could not be opened in time; nothing was changed. Retry after the delay in Retry-After.',
      headers: RETRY_AFTER,
      cause: error,
    });
  }
  return error;
}

async function acquire(): Promise<pg.PoolClient> {
  if (initConnection) {
    const opened = initConnection;
    initConnection = undefined;
    await opened;
  }
  // Once built, the pool is used as it is: no await (and no promise) per request for it.
  let current = pool;
  if (!current) {
    try {
      current = await getPool();
    } catch (error) {
      // Nothing was sent to the database: like a connection that could not be opened, a retry may succeed.
      throw databaseFailure(error, true);
    }
  }
  try {
    return await current.connect();
  } catch (error) {
    throw databaseFailure(error);
  }
}

type CommitOutcome = 'committed' | 'aborted' | 'unknown';

/**
 * Asks the server, on a fresh connection, what became of a transaction whose COMMIT lost its
 * connection. 'in progress' (the old session has not finished committing or exiting yet) and a
 * question that lost its own connection are asked again briefly; a server that cannot be reached
 * in time, or anything else, leaves the outcome unknown.
 */
async function commitOutcome(xid: string): Promise<CommitOutcome> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const { rows } = await (await getPool()).query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [xid]);
      const status = rows[0]?.status;
      if (status === 'committed' || status === 'aborted') return status;
    } catch (error) {
      // A connection that timed out would only time out again, past the request's deadline.
      if (!isConnectionLost(error) || /timeout/i.test((error as Error).message)) return 'unknown';
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
  return 'unknown';
}

const UNKNOWN_COMMIT_HINT =
  'The connection to the database was lost while this change was being committed, and whether it was saved could not be confirmed. ' +
  'Read the resource (or list recent ones) before retrying: a retry runs the request again, even with the same Idempotency-Key.';

async function afterLostCommit<T>(scope: TransactionScope, xid: string | null, result: T, error: unknown): Promise<T> {
  // Without a transaction id the work wrote nothing the caller relies on: there was nothing to lose.
  const outcome = xid === null ? 'aborted' : await commitOutcome(xid);
  if (outcome === 'committed') {
    (scope.log ?? logger).warn('commit confirmed after its connection was lost', { transactionId: xid });
    return result;
  }
  if (outcome === 'aborted') throw databaseFailure(error, true);
  (scope.log ?? logger).error('commit outcome unknown', { transactionId: xid });
  throw new ApiError('service_unavailable', { hint: UNKNOWN_COMMIT_HINT, details: { commit_outcome: 'unknown' }, headers: RETRY_AFTER, cause: error });
}

/** A transaction whose COMMIT was lost and could not be resolved: it may have committed. */
export function isCommitOutcomeUnknown(error: unknown): boolean {
  return error instanceof ApiError && (error.options.details as { commit_outcome?: string } | undefined)?.commit_outcome === 'unknown';
}

/**
 * Runs `work` in one transaction under `scope`; commits on success, rolls back on any throw.
 *
 * A checked-out pg client reports a dropped connection as an 'error' event; without a listener
 * Node would end the process, so one is attached for the whole checkout. A connection that failed
 * is discarded, never returned to the pool. A COMMIT that loses its connection is resolved through
 * txid_status: committed is a success, aborted a plain 503, and anything else is logged as
 * "commit outcome unknown" and answered with a 503 that says so.
 */
export async function withTransaction<T>(scope: TransactionScope, work: (db: Db) => Promise<T>): Promise<T> {
  const begin = beginStatement(scope);
  const client = await acquire();
  const connection: { lost?: Error; reusable: boolean } = { reusable: true };
  const onError = (error: Error) => {
    connection.lost ??= error;
    connection.reusable = false;
    (scope.log ?? logger).warn('database connection lost', { code: (error as { code?: string }).code, reason: error.message });
  };
  client.on('error', onError);
  try {
    const opened = await client.query(begin);
    if (scope.refuseWhenFrozen && frozen(opened)) throw new ApiError('entity_frozen');
    const result = await work(new TransactionDb(client));
    // The transaction id (null when nothing was written) is what lets a lost COMMIT be resolved: one
    // round trip per write. The authenticator's only write is its best-effort last_used_at stamp.
    const resolvable = !scope.readOnly && scope.role !== 'app_authenticator';
    const xid = resolvable ? (await client.query<{ xid: string | null }>('SELECT txid_current_if_assigned()::text AS xid')).rows[0].xid : null;
    try {
      await client.query('COMMIT');
    } catch (error) {
      // A COMMIT the server refused (a deferred constraint) rolled back: an ordinary failure.
      if (!connection.lost && !isConnectionLost(error)) throw error;
      connection.reusable = false;
      return await afterLostCommit(scope, xid, result, error);
    }
    return result;
  } catch (error) {
    if (connection.reusable && !isConnectionLost(error)) {
      try {
        await client.query('ROLLBACK');
      } catch {
        connection.reusable = false;
      }
    } else {
      connection.reusable = false;
    }
    throw databaseFailure(error, connection.lost !== undefined);
  } finally {
    if (connection.reusable) {
      client.off('error', onError);
      client.release();
    } else {
      // Discarded; the listener stays, since a dying connection may still report while it closes.
      client.release(true);
    }
  }
}

/**
 * One statement as a transaction of its own, in one round trip: the scope's settings and the
 * statement go as one simple-protocol batch, which PostgreSQL runs as one implicit transaction,
 * committed at its end and rolled back whole by an error. For bookkeeping that may be lost without
 * harm (an event marked published: the sweeper sends an unmarked one again, and subscribers
 * de-duplicate): there is no COMMIT to resolve if the connection drops. A batch takes no
 * parameters, so whatever the statement names must be validated before it is inlined.
 */
export async function runAlone(scope: TransactionScope, statement: string): Promise<void> {
  const settings = scopeSettings(scope);
  const client = await acquire();
  let reusable = true;
  const onError = () => {
    reusable = false;
  };
  client.on('error', onError);
  try {
    await client.query(`${settings}; ${statement}`);
  } catch (error) {
    if (isConnectionLost(error)) reusable = false;
    throw databaseFailure(error, !reusable);
  } finally {
    if (reusable) client.off('error', onError);
    client.release(!reusable);
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
