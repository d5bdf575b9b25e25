import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors';
import { databaseFailure, isConnectionLost } from '../../shared/db/database';
import { beginStatement, databaseTimeouts, DEFAULT_TIMEOUTS, reloadDatabaseTimeouts, type DatabaseTimeouts } from '../../shared/db/opening-batch';
import { statusOf } from '../../shared/http/error-status';

const ENTITY = '3f1c2b9e-7a44-4d0e-9a43-0c4f1b8e2d11';
const TIMEOUTS: DatabaseTimeouts = { lockMs: 1500, statementMs: 9000, idleInTransactionMs: 12000, acquireMs: 3000 };
const LIMITS =
  "set_config('lock_timeout', '1500ms', true), set_config('statement_timeout', '9000ms', true), set_config('idle_in_transaction_session_timeout', '12000ms', true)";

describe('beginStatement', () => {
  it('opens a read-write transaction, switches role, bounds every wait and pins the entity', () => {
    expect(beginStatement({ role: 'app_user', entityId: ENTITY }, TIMEOUTS)).toBe(
      `BEGIN; SELECT set_config('role', 'app_user', true), ${LIMITS}, set_config('app.entity_id', '${ENTITY}', true)`,
    );
  });

  it('opens a READ ONLY transaction when asked', () => {
    expect(beginStatement({ role: 'app_user', entityId: ENTITY, readOnly: true }, TIMEOUTS)).toBe(
      `BEGIN READ ONLY; SELECT set_config('role', 'app_user', true), ${LIMITS}, set_config('app.entity_id', '${ENTITY}', true)`,
    );
  });

  it('pins no entity for a role without one, and still bounds its waits', () => {
    expect(beginStatement({ role: 'app_authenticator' }, TIMEOUTS)).toBe(`BEGIN; SELECT set_config('role', 'app_authenticator', true), ${LIMITS}`);
    expect(beginStatement({ role: 'app_worker', readOnly: true }, TIMEOUTS)).toBe(`BEGIN READ ONLY; SELECT set_config('role', 'app_worker', true), ${LIMITS}`);
  });

  it('uses the timeouts in force when none are passed', () => {
    const statement = beginStatement({ role: 'app_authenticator' });
    expect(statement).toContain(`set_config('lock_timeout', '${DEFAULT_TIMEOUTS.lockMs}ms', true)`);
    expect(statement).toContain(`set_config('statement_timeout', '${DEFAULT_TIMEOUTS.statementMs}ms', true)`);
    expect(statement).toContain(`set_config('idle_in_transaction_session_timeout', '${DEFAULT_TIMEOUTS.idleInTransactionMs}ms', true)`);
  });

  it('reads the timeouts from the environment once, and again after reloadDatabaseTimeouts()', () => {
    const saved = process.env.DATABASE_LOCK_TIMEOUT_MS;
    try {
      reloadDatabaseTimeouts();
      process.env.DATABASE_LOCK_TIMEOUT_MS = '2500';
      expect(beginStatement({ role: 'app_user', entityId: ENTITY })).toContain("set_config('lock_timeout', '2500ms', true)");
      process.env.DATABASE_LOCK_TIMEOUT_MS = '3500';
      expect(beginStatement({ role: 'app_user', entityId: ENTITY })).toContain("set_config('lock_timeout', '2500ms', true)");
      reloadDatabaseTimeouts();
      expect(beginStatement({ role: 'app_user', entityId: ENTITY, readOnly: true })).toMatch(/^BEGIN READ ONLY; .*'3500ms'/);
      expect(beginStatement({ role: 'app_user', entityId: ENTITY })).toMatch(/^BEGIN; .*'3500ms'/);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_LOCK_TIMEOUT_MS;
      else process.env.DATABASE_LOCK_TIMEOUT_MS = saved;
      reloadDatabaseTimeouts();
    }
  });

  it('adds the frozen-entity check after the entity pin when asked', () => {
    expect(beginStatement({ role: 'app_user', entityId: ENTITY, refuseWhenFrozen: true }, TIMEOUTS)).toBe(
      `BEGIN; SELECT set_config('role', 'app_user', true), ${LIMITS}, set_config('app.entity_id', '${ENTITY}', true); SELECT EXISTS (SELECT 1 FROM entity_freezes WHERE entity_id = current_entity_id()) AS entity_frozen`,
    );
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a timeout of %s rather than inlining it', (lockMs) => {
    expect(() => beginStatement({ role: 'app_authenticator' }, { ...TIMEOUTS, lockMs })).toThrow(/lock_timeout must be a positive whole number/);
  });

  it('pins the entity for other roles when one is given', () => {
    expect(beginStatement({ role: 'app_worker', entityId: ENTITY }, TIMEOUTS)).toContain(`set_config('app.entity_id', '${ENTITY}', true)`);
  });

  it('accepts an upper-case UUID', () => {
    expect(beginStatement({ role: 'app_user', entityId: ENTITY.toUpperCase() }, TIMEOUTS)).toContain(ENTITY.toUpperCase());
  });

  it('throws for app_user without an entity', () => {
    expect(() => beginStatement({ role: 'app_user' })).toThrow(/need an entity/);
    expect(() => beginStatement({ role: 'app_user', entityId: '' })).toThrow(/need an entity/);
  });

  it('refuses an empty entity id for other roles rather than skipping the pin', () => {
    expect(() => beginStatement({ role: 'app_worker', entityId: '' })).toThrow(/not a UUID/);
  });

  it.each([
    ["x'; DROP TABLE entities; --"],
    [`${ENTITY}'; DROP TABLE entities; --`],
    [`${ENTITY}', false); SELECT 1; --`],
    [`${ENTITY}\n`],
    [` ${ENTITY}`],
    [ENTITY.replace(/-/g, '')],
    ['not-a-uuid'],
    [`{${ENTITY}}`],
  ])('refuses the non-UUID entity id %j', (entityId) => {
    expect(() => beginStatement({ role: 'app_user', entityId })).toThrow(/not a UUID/);
    expect(() => beginStatement({ role: 'app_worker', entityId })).toThrow();
  });
});

describe('databaseTimeouts', () => {
  it('keeps the longest chain (acquire, then one statement) inside API Gateway 29 s', () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ lockMs: 5000, statementMs: 15000, idleInTransactionMs: 15000, acquireMs: 10000 });
    expect(DEFAULT_TIMEOUTS.acquireMs + DEFAULT_TIMEOUTS.statementMs).toBeLessThan(29_000);
    expect(DEFAULT_TIMEOUTS.lockMs).toBeLessThan(DEFAULT_TIMEOUTS.statementMs);
  });

  it('takes each default from its environment variable', () => {
    expect(databaseTimeouts({})).toEqual(DEFAULT_TIMEOUTS);
    expect(
      databaseTimeouts({
        DATABASE_LOCK_TIMEOUT_MS: '250',
        DATABASE_STATEMENT_TIMEOUT_MS: '2000',
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '3000',
        DATABASE_ACQUIRE_TIMEOUT_MS: '400',
      }),
    ).toEqual({ lockMs: 250, statementMs: 2000, idleInTransactionMs: 3000, acquireMs: 400 });
    expect(databaseTimeouts({ DATABASE_LOCK_TIMEOUT_MS: '' })).toEqual(DEFAULT_TIMEOUTS);
  });

  it.each(['0', '-5', '1.5', 'soon', '1e400'])('refuses %j: a timeout must bound the wait', (value) => {
    expect(() => databaseTimeouts({ DATABASE_STATEMENT_TIMEOUT_MS: value })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS must be a positive whole number/);
  });
});

const pgError = (code: string, message = 'server error') => Object.assign(new Error(message), { code });

describe('databaseFailure', () => {
  const mapped = (error: unknown, lost = false) => {
    const result = databaseFailure(error, lost);
    expect(result).toBeInstanceOf(ApiError);
    return result as ApiError;
  };

  it('answers a lock timeout and a deadlock with 409 resource_locked and Retry-After', () => {
    for (const code of ['55P03', '40P01']) {
      const error = mapped(pgError(code, 'canceling statement due to lock timeout'));
      expect([error.code, statusOf(error), error.options.headers]).toEqual(['resource_locked', 409, { 'Retry-After': '1' }]);
    }
  });

  it('answers a statement timeout with 503 service_unavailable', () => {
    const error = mapped(pgError('57014', 'canceling statement due to statement timeout'));
    expect([error.code, statusOf(error), error.options.headers]).toEqual(['service_unavailable', 503, { 'Retry-After': '1' }]);
    expect(error.message).toMatch(/statement timeout; nothing was changed/);
  });

  it.each([
    ['terminated by an administrator', pgError('57P01', 'terminating connection due to administrator command')],
    ['a connection exception', pgError('08006', 'connection failure')],
    ['the idle-in-transaction timeout', pgError('25P03', 'terminating connection due to idle-in-transaction timeout')],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a closed connection', new Error('Connection terminated unexpectedly')],
    ['a client that already failed', new Error('Client has encountered a connection error and is not queryable')],
    ['a pool acquire timeout', new Error('timeout exceeded when trying to connect')],
  ])('answers %s with 503 service_unavailable', (_name, cause) => {
    expect(isConnectionLost(cause)).toBe(true);
    const error = mapped(cause);
    expect([error.code, statusOf(error), error.options.headers]).toEqual(['service_unavailable', 503, { 'Retry-After': '1' }]);
  });

  it('answers any failure on a connection that reported its loss with 503', () => {
    expect(mapped(new TypeError('rows of undefined'), true).code).toBe('service_unavailable');
  });

  it('leaves API errors and ordinary failures as they are', () => {
    const apiError = new ApiError('not_found');
    expect(databaseFailure(apiError)).toBe(apiError);
    const unique = pgError('23505', 'duplicate key value violates unique constraint');
    expect(isConnectionLost(unique)).toBe(false);
    expect(databaseFailure(unique)).toBe(unique);
    expect(databaseFailure(undefined)).toBeUndefined();
  });
});
