/**
 * What opens every unit of work: its scope (role, entity, read-only, the frozen-entity check), the
 * timeouts in force, and the text of the batch that sets them, sent with BEGIN in one round trip
 * (database.ts runs it).
 */
import type pg from 'pg';
import { UUID_PATTERN } from '../ids';
import type { Log } from '../powertools';

type DbRole = 'app_user' | 'app_authenticator' | 'app_worker';

export interface TransactionScope {
  role: DbRole;
  /** Required for app_user: the entity every row must belong to. */
  entityId?: string;
  readOnly?: boolean;
  /**
   * Refuse the transaction (ApiError entity_frozen) when the entity is frozen for a migration
   * cutover. Checked in the batch that opens the transaction: no round trip of its own.
   */
  refuseWhenFrozen?: boolean;
  /** The logger of the request this transaction serves: its lines carry the request's context. */
  log?: Log;
}

/**
 * How long a request may wait at each point where the database can make it wait. The defaults
 * keep the longest chain (acquire, then one statement with its lock waits) at 25 s, inside API
 * Gateway's 29 s integration limit; docs/decisions.md says why each is what it is.
 */
export interface DatabaseTimeouts {
  /** A row or table lock held by another transaction (lock_timeout → 409 resource_locked). */
  lockMs: number;
  /** One statement, lock waits included (statement_timeout → 503). */
  statementMs: number;
  /** A pause between two statements of an open transaction (idle_in_transaction_session_timeout). */
  idleInTransactionMs: number;
  /** A connection from the pool: a free one, or a new one being opened (connectionTimeoutMillis → 503). */
  acquireMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<DatabaseTimeouts> = { lockMs: 5_000, statementMs: 15_000, idleInTransactionMs: 15_000, acquireMs: 10_000 };

const TIMEOUT_VARIABLES: Record<keyof DatabaseTimeouts, string> = {
  lockMs: 'DATABASE_LOCK_TIMEOUT_MS',
  statementMs: 'DATABASE_STATEMENT_TIMEOUT_MS',
  idleInTransactionMs: 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
  acquireMs: 'DATABASE_ACQUIRE_TIMEOUT_MS',
};

/** The timeouts in force: the defaults, each overridable by its environment variable (milliseconds). */
export function databaseTimeouts(env: NodeJS.ProcessEnv = process.env): DatabaseTimeouts {
  const timeouts = { ...DEFAULT_TIMEOUTS };
  for (const key of Object.keys(TIMEOUT_VARIABLES) as (keyof DatabaseTimeouts)[]) {
    const raw = env[TIMEOUT_VARIABLES[key]];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    // 0 would mean "wait forever" to PostgreSQL and pg: exactly what these settings exist to prevent.
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${TIMEOUT_VARIABLES[key]} must be a positive whole number of milliseconds`);
    timeouts[key] = value;
  }
  return timeouts;
}

const ROLES: readonly DbRole[] = ['app_user', 'app_authenticator', 'app_worker'];

/**
 * The timeouts of every transaction, read from the environment on the first one: reading
 * process.env costs about a microsecond a variable, and this runs for every request. A test that
 * changes the variables calls reloadDatabaseTimeouts().
 */
let timeoutsInForce: DatabaseTimeouts | undefined;
/** The role and timeouts by role: the part of the opening batch every request of a role shares. */
const openings = new Map<DbRole, string>();

export function reloadDatabaseTimeouts(): void {
  timeoutsInForce = undefined;
  openings.clear();
}

function opening(role: DbRole, timeouts: DatabaseTimeouts): string {
  if (!ROLES.includes(role)) throw new Error(`unknown database role ${role}`);
  const limits: [string, number][] = [
    ['lock_timeout', timeouts.lockMs],
    ['statement_timeout', timeouts.statementMs],
    ['idle_in_transaction_session_timeout', timeouts.idleInTransactionMs],
  ];
  const settings = [`set_config('role', '${role}', true)`];
  for (const [name, ms] of limits) {
    if (!Number.isSafeInteger(ms) || ms <= 0) throw new Error(`${name} must be a positive whole number of milliseconds`);
    settings.push(`set_config('${name}', '${ms}ms', true)`);
  }
  return `SELECT ${settings.join(', ')}`;
}

/** The SELECT that switches to the scope's role, sets its timeouts and pins its entity (validated, then inlined). */
export function scopeSettings(scope: TransactionScope, timeouts?: DatabaseTimeouts): string {
  if (scope.role === 'app_user' && !scope.entityId) throw new Error('app_user transactions need an entity');
  let settings: string;
  if (timeouts) settings = opening(scope.role, timeouts);
  else {
    const known = openings.get(scope.role);
    settings = known ?? opening(scope.role, (timeoutsInForce ??= databaseTimeouts()));
    if (known === undefined) openings.set(scope.role, settings);
  }
  if (scope.entityId === undefined) return settings;
  if (!UUID_PATTERN.test(scope.entityId)) throw new Error('entity id is not a UUID');
  return `${settings}, set_config('app.entity_id', '${scope.entityId}', true)`;
}

/**
 * Whether the entity is frozen for a cutover, read in the opening batch after the role and entity
 * are set (so row level security confines it) and answered by the client: a plain query rather
 * than a PL/pgSQL function that raises, whose first call on a new backend loaded and compiled
 * PL/pgSQL, about 3 ms of every write's cold start.
 */
const FROZEN_CHECK = 'SELECT EXISTS (SELECT 1 FROM entity_freezes WHERE entity_id = current_entity_id()) AS entity_frozen';

/**
 * The statement that opens a scoped transaction. It is sent as one simple-protocol batch so the
 * role switch, the entity pin and the timeouts share BEGIN's round trip. All go through
 * set_config(..., true) rather than SET LOCAL: transaction-local all the same, and RDS Proxy does
 * not pin a connection for a function call the way it does for SET statements. The entity id is
 * validated as a UUID and the timeouts as integers before they are inlined, so nothing a caller
 * sends reaches this text.
 */
export function beginStatement(scope: TransactionScope, timeouts?: DatabaseTimeouts): string {
  const settings = scopeSettings(scope, timeouts);
  return `${scope.readOnly === true ? 'BEGIN READ ONLY' : 'BEGIN'}; ${settings}${scope.refuseWhenFrozen ? `; ${FROZEN_CHECK}` : ''}`;
}

/** The answer of FROZEN_CHECK, the last statement of the opening batch (pg gives a batch's results as a list). */
export function frozen(opened: pg.QueryResult | pg.QueryResult[]): boolean {
  const results = Array.isArray(opened) ? opened : [opened];
  return (results.at(-1)?.rows[0] as { entity_frozen?: boolean } | undefined)?.entity_frozen === true;
}
