/**
 * A dry run's transaction (shared/http/dry-run.ts): it runs the request's work like any other and
 * is always rolled back, and it keeps what the work posted to the ledger, since the answer lists
 * the journal entries the request would post and by then they are about to be rolled back. The
 * ledger notes each entry as it writes it; only a transaction being watched keeps anything, so a
 * real request pays one WeakMap lookup per posting.
 */
import { withTransaction, type Db } from './database';
import type { TransactionScope } from './opening-batch';

const watched = new WeakMap<Db, unknown[]>();

/** Called by the ledger with each entry it posts (as GET /v1/journal-entries/{id} shows it). */
export function notePosting(db: Db, entry: unknown): void {
  watched.get(db)?.push(entry);
}

/** Thrown at the end of the work, so withTransaction rolls back; carries the work's result out. */
class RollBack extends Error {
  constructor(readonly result: unknown) {
    super('dry run: rolled back');
  }
}

/**
 * withTransaction's counterpart for a dry run: runs `work` in a transaction under the same scope,
 * always rolls it back, hands the entries it posted (in posting order) to `postings`, and returns
 * the work's result. A failure of the work is thrown as withTransaction throws it.
 */
export function dryRunTransaction(postings: (entries: unknown[]) => void) {
  return async <T>(scope: TransactionScope, work: (db: Db) => Promise<T>): Promise<T> => {
    try {
      await withTransaction(scope, async (db) => {
        const posted: unknown[] = [];
        watched.set(db, posted);
        const result = await work(db);
        postings(posted);
        throw new RollBack(result);
      });
    } catch (error) {
      if (error instanceof RollBack) return error.result as T;
      throw error;
    }
    throw new Error('unreachable: a dry run always rolls back');
  };
}
