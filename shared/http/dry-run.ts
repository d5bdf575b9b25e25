/**
 * Dry run: `?dry_run=true` on any POST, PATCH or DELETE runs the whole request (authentication,
 * scopes, validation, every rule, numbering, postings, stock moves) in its transaction and then
 * rolls the transaction back. The answer is the status and body the real request would have
 * given, plus `dry_run: true`, the journal entries it would post and the types of the events it
 * would emit (docs/decisions.md, "Dry run").
 *
 * Nothing is kept: the rollback takes back every row and every gap-free number; no event reaches
 * the bus (publishing happens after commit); no after-commit task starts; an Idempotency-Key is
 * refused, so no record is stored. A route whose work reaches beyond its transaction is marked
 * `transactional: false` and refuses a dry run.
 *
 * The request reader takes the flag from the query (takeDryRunFlag); the handler stack refuses what
 * cannot be dry-run (refuseUnlessDryRunnable), runs the work in a transaction that is always rolled
 * back (shared/db/dry-run-transaction.ts) and answers with dryRunBody. Nothing here reaches the
 * database, so the request reader can use it in every route's bundle.
 */
import { ApiError } from '../errors';
import type { EventEnvelope } from '../events/outbox';
import type { Route } from './route';

export const DRY_RUN_PARAMETER = 'dry_run';

/** What the dry-run rules read of a route: a public route's serving part has the same members. */
type DryRunRoute = Pick<Route, 'auth' | 'method'> & { transactional?: boolean };

/** Whether the route takes `dry_run` at all: every API-key write. */
export function acceptsDryRun(route: DryRunRoute): boolean {
  return route.auth === 'api_key' && route.method !== 'GET';
}

/** Whether a dry run of the route can be answered (else 400 dry_run_not_supported). */
export function supportsDryRun(route: DryRunRoute): boolean {
  return acceptsDryRun(route) && route.transactional !== false;
}

/**
 * Takes `dry_run` out of a write's query parameters (so the route's own query schema never sees
 * it) and reads it: `true` or `false`, once; anything else is a 400 naming dry_run.
 */
export function takeDryRunFlag(parameters: Map<string, string[]>): boolean {
  const given = parameters.get(DRY_RUN_PARAMETER);
  if (given === undefined) return false;
  parameters.delete(DRY_RUN_PARAMETER);
  if (given.length !== 1 || (given[0] !== 'true' && given[0] !== 'false')) {
    throw new ApiError('parameter_invalid', { param: DRY_RUN_PARAMETER, hint: 'dry_run takes a single value, true or false.' });
  }
  return given[0] === 'true';
}

/**
 * The refusals of a dry run, after the input was read and checked (bad input gets the real
 * request's error): a route that cannot run in a transaction, and an Idempotency-Key.
 */
export function refuseUnlessDryRunnable(route: Route, idempotencyKey: string | undefined): void {
  if (!supportsDryRun(route)) throw new ApiError('dry_run_not_supported', { param: DRY_RUN_PARAMETER });
  if (idempotencyKey !== undefined) throw new ApiError('dry_run_idempotency_key', { param: 'Idempotency-Key' });
}

/** What a dry run adds to the body the real request would have answered. */
export interface DryRunMembers {
  dry_run: true;
  /** The journal entries the request would post, as GET /v1/journal-entries/{id} shows them. */
  journal_entries: unknown[];
  /** The types of the events it would emit, in order. */
  events: string[];
}

/** The dry-run answer: the real body with the dry-run members added at its top level. */
export function dryRunBody(body: Record<string, unknown>, postings: unknown[], events: readonly EventEnvelope[]): Record<string, unknown> & DryRunMembers {
  return { ...body, dry_run: true, journal_entries: postings, events: events.map((event) => event.type) };
}
