/**
 * An operation of POST /v1/batch runs through its route's own Lambda handler (the whole pipeline:
 * input, scopes, rules, errors), with one difference: it runs inside the batch's transaction (in a
 * savepoint of its own when the batch is not atomic) instead of opening one, and hands the events and after-commit tasks it
 * produced to the batch, which stores the events of all its operations in the outbox with one statement and publishes
 * them once the batch has committed. Its idempotency record
 * (an operation's `idempotency_key`) is reserved before its work, like a single request's, but
 * saved only once the batch commits and released if it rolls back. The batch marks the
 * operation's event with its enclosing transaction; the handler stack reads it (handler-stack.ts).
 */
import type { Db } from '../db/database';
import type { EventEnvelope } from '../events/outbox';
import type { HeldRecord } from './idempotency';

export interface EnclosingTransaction {
  /** Runs an operation's work in a savepoint of the batch's transaction: its failure undoes its own writes only. */
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * What the operation leaves for the batch: its events, recorded but not yet stored (the batch
   * stores them in the outbox before it commits), and its tasks for after the batch commits.
   */
  adopt(events: readonly EventEnvelope[], tasks: readonly (() => Promise<void>)[]): void;
  /** The idempotency record of an operation that succeeded: the batch saves it once it commits, or releases it. */
  hold(record: HeldRecord): void;
}

const ENCLOSING = Symbol('enclosing transaction');
type Marked = { [ENCLOSING]?: EnclosingTransaction };

export function markEnclosed<E extends object>(event: E, enclosing: EnclosingTransaction): E {
  (event as Marked)[ENCLOSING] = enclosing;
  return event;
}

export function enclosingOf(event: object): EnclosingTransaction | undefined {
  return (event as Marked)[ENCLOSING];
}

/**
 * The enclosing transaction of the operations of one batch, on the batch's own `db`. An atomic
 * batch needs no savepoint: its first failure rolls the whole transaction back.
 */
export function savepointsOf(db: Db, batch: Pick<EnclosingTransaction, 'adopt' | 'hold'>, atomic: boolean): EnclosingTransaction {
  return {
    adopt: batch.adopt,
    hold: batch.hold,
    async run(work) {
      if (atomic) return work(db);
      await db.query('SAVEPOINT batch_operation');
      try {
        const result = await work(db);
        await db.query('RELEASE SAVEPOINT batch_operation');
        return result;
      } catch (error) {
        await db.query('ROLLBACK TO SAVEPOINT batch_operation');
        throw error;
      }
    },
  };
}
