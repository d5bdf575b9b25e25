/**
 * The stack of every API-key route, in the design's order:
 *
 *   request id → authorizer context → scope check (route-pipeline.ts) → JSON body → input (request-input.ts)
 *   → idempotency → handler in one entity-scoped transaction (+ expand, outbox)
 *   → publish committed events (while the idempotency record is saved) → ETag / conditional GET
 *   → error envelope
 *
 * `lambdaHandler(route)` is the Lambda entry point of a route (API Gateway REST proxy events);
 * the local gateway calls the very same function. Public routes have their own, smaller core
 * (public-handler.ts) around the same pipeline.
 */
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Caller } from '../auth/caller';
import { hasScope } from '../auth/scopes';
import { connectDuringInit, isCommitOutcomeUnknown, withTransaction, type Db } from '../db/database';
import { dryRunTransaction } from '../db/dry-run-transaction';
import { ApiError } from '../errors';
import { createEventRecorder, READ_ONLY_RECORDER, type EventRecorder } from '../events/outbox';
import { withLivemode } from '../schemas/livemode';
import { etagMatches, etagOf } from './etag';
import { enclosingOf, type EnclosingTransaction } from './batch-operation';
import { dryRunBody, refuseUnlessDryRunnable } from './dry-run';
import { applyExpand } from './expand';
import type { StoredResponse, WriteLayer } from './idempotency';
import type { RouteInvocation } from './observe';
import type { Log } from '../powertools';
import type { ApiKeyRoute, RouteContext } from './route';
import { requestInput } from './request-input';
import { checkResponse, finishResponse, routePipeline, stateOf, type Event, type RequestState } from './route-pipeline';

type KeyRoute = ApiKeyRoute<any, any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as Route: the route generics erased

/** A list's `url`: the route's path with its (validated) path parameters filled in. */
function listUrl(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => params?.[name] ?? name);
}

/**
 * What a request does once its transaction has committed: publish the events it recorded, then the
 * tasks its handler registered. None of it can change the response (a failed publish is left to
 * the sweeper; a task handles its own failures), so it runs outside the idempotent unit.
 */
type AfterCommit = () => Promise<void>;
/** A read's: it records no events and registers no tasks. */
const NOTHING_AFTER_COMMIT: AfterCommit = () => Promise.resolve();

type Task = () => Promise<void>;

/**
 * A handler's context: the caller's fields listed rather than spread from the caller, and the
 * after-commit and after-rollback lists kept as methods, so a request allocates one object for it.
 */
class HandlerContext implements RouteContext {
  readonly entityId: string;
  readonly entityCode: string;
  readonly keyId: string;
  readonly userId: string;
  readonly mode: Caller['mode'];
  readonly scopes: readonly string[];
  readonly requestId: string;
  readonly log: Log;
  readonly idempotencyKey: string | undefined;
  readonly dryRun: boolean | undefined;
  /** Tasks for after the commit, and for after a rollback: made by the first task of each. */
  committed: Task[] | undefined;
  rolledBack: Task[] | undefined;

  constructor(
    caller: Caller,
    state: RequestState,
    readonly db: Db,
    readonly events: EventRecorder,
  ) {
    this.entityId = caller.entityId;
    this.entityCode = caller.entityCode;
    this.keyId = caller.keyId;
    this.userId = caller.userId;
    this.mode = caller.mode;
    this.scopes = caller.scopes;
    this.requestId = state.requestId;
    this.log = state.log;
    this.idempotencyKey = state.idempotencyKey;
    this.dryRun = state.dryRun;
  }

  afterCommit(task: Task): void {
    (this.committed ??= []).push(task);
  }

  afterRollback(task: Task): void {
    (this.rolledBack ??= []).push(task);
  }
}

async function execute(
  route: KeyRoute,
  state: RequestState,
  writes: WriteLayer | undefined,
  enclosing: EnclosingTransaction | undefined,
): Promise<{ response: StoredResponse; afterCommit: AfterCommit }> {
  const caller = state.caller!;
  const input = state.input!;
  const live = caller.mode === 'live';
  const read = route.method === 'GET';
  let ctx: HandlerContext | undefined;
  // A dry run's transaction is rolled back; it keeps what the work posted for its answer (dry-run.ts).
  let postings: unknown[] = [];
  const work = async (db: Db) => {
    const recorder = read
      ? READ_ONLY_RECORDER
      : createEventRecorder(
          db,
          { entityId: caller.entityId, mode: caller.mode, requestId: state.requestId, idempotencyKey: state.idempotencyKey },
          // A batch stores its operations' events together once they have all run.
          enclosing ? 'enclosing' : 'own',
        );
    ctx = new HandlerContext(caller, state, db, recorder);
    const ifMatch = state.headers['if-match'];
    if (ifMatch && route.current) {
      const current = withLivemode(await route.current(ctx, input as never), live);
      if (!etagMatches(ifMatch, etagOf(JSON.stringify(current)), 'strong')) throw new ApiError('precondition_failed', { param: 'If-Match' });
    }
    const result = (await route.handler(ctx, input as never)) as Record<string, unknown>;
    if (route.list) result.url = listUrl(route.path, input.params as Record<string, string> | undefined);
    if (state.expand.length) {
      const roots = route.list ? (result.data as Record<string, unknown>[]) : [result];
      await applyExpand({ db, entityId: caller.entityId, roots }, roots, state.expand, route.expand);
    }
    // Every object of the response carries the caller's mode: the only data a key can reach.
    const stamped = withLivemode(result, live);
    checkResponse(route, stamped);
    return stamped;
  };
  let body: Record<string, unknown>;
  try {
    if (enclosing) body = await enclosing.run(work);
    else {
      // A frozen entity (migration cutover) takes writes only from keys with migration:admin; reads continue.
      const scope = {
        role: 'app_user',
        entityId: caller.entityId,
        readOnly: read,
        refuseWhenFrozen: !read && !hasScope(caller.scopes, 'migration:admin'),
        log: state.log,
      } as const;
      body = state.dryRun ? await dryRunTransaction((posted) => (postings = posted))(scope, work) : await withTransaction(scope, work);
    }
  } catch (error) {
    // The handler's afterRollback tasks run when the transaction is known not to have committed: its
    // work threw, or its commit was refused (not when a lost commit could not be resolved).
    const rolledBack = ctx?.rolledBack;
    if (rolledBack && !isCommitOutcomeUnknown(error)) for (const task of rolledBack) await task();
    throw error;
  }
  const events = ctx!.events.recorded;
  const committed = ctx!.committed;
  if (enclosing) {
    // An operation of a batch: its events are published, and its tasks start, once the batch commits.
    enclosing.adopt(events, committed ?? []);
    return { response: { statusCode: route.successStatus ?? 200, headers: {}, body: JSON.stringify(body) }, afterCommit: NOTHING_AFTER_COMMIT };
  }
  if (state.dryRun) {
    // Nothing was kept: nothing to publish, no task to start.
    const answer = dryRunBody(body, postings, events);
    return { response: { statusCode: route.successStatus ?? 200, headers: {}, body: JSON.stringify(answer) }, afterCommit: NOTHING_AFTER_COMMIT };
  }
  const afterCommit: AfterCommit =
    events.length === 0 && committed === undefined
      ? NOTHING_AFTER_COMMIT
      : async () => {
          if (events.length) {
            if (!writes) throw new Error(`${route.id} recorded events, but its handler was built without the write layer`);
            await writes.publish(caller.entityId, events, state.log);
          }
          for (const task of committed ?? []) await task();
        };
  return { response: { statusCode: route.successStatus ?? 200, headers: {}, body: JSON.stringify(body) }, afterCommit };
}

function core(route: KeyRoute, writes: WriteLayer | undefined) {
  return async (event: Event, context: Context): Promise<APIGatewayProxyResult> => {
    const state = stateOf(event);
    const enclosing = enclosingOf(event);
    if (state.dryRun) refuseUnlessDryRunnable(route, state.idempotencyKey);
    let result: StoredResponse;
    if (state.idempotencyKey === undefined) {
      const executed = await execute(route, state, writes, enclosing);
      if (executed.afterCommit !== NOTHING_AFTER_COMMIT) await executed.afterCommit();
      result = executed.response;
    } else {
      // Started the moment the transaction commits: under an Idempotency-Key it runs while the layer
      // saves the response, rather than one after the other. Awaited before the response leaves,
      // since a Lambda environment is frozen once its handler returns.
      let afterCommit: Promise<void> | undefined;
      const run = async () => {
        const executed = await execute(route, state, writes, enclosing);
        afterCommit = executed.afterCommit();
        return executed.response;
      };
      try {
        const { caller, input } = state;
        if (!writes) throw new Error(`${route.id} takes an Idempotency-Key, but its handler was built without the idempotency layer`);
        const call = { scope: `${caller!.entityId} ${route.id} ${state.idempotencyKey}`, fingerprint: input };
        // An operation of a batch: its record waits for the batch's commit (batch-operation.ts).
        result = await writes.run(route.id, enclosing ? { ...call, holdRecord: (record) => enclosing.hold(record) } : call, context, run);
      } finally {
        await afterCommit;
      }
    }
    if (result.replayed) {
      result = { ...result, headers: { ...result.headers, 'Idempotent-Replayed': 'true' } };
      if (route.replayBody) result = { ...result, body: route.replayBody(result.body) };
    }
    return finishResponse(route, state, result);
  };
}

/**
 * The Lambda handler of an API-key route. A route that writes is built with the write layer
 * (shared/http/idempotent.ts: idempotency, and publishing its events); a read is not, so its
 * bundle carries none of it.
 */
export function lambdaHandler(route: KeyRoute & { method: 'GET' }): RouteInvocation;
export function lambdaHandler(route: KeyRoute, idempotency: WriteLayer): RouteInvocation;
export function lambdaHandler(route: KeyRoute, idempotency?: WriteLayer): RouteInvocation {
  connectDuringInit();
  return routePipeline(route, requestInput(route), core(route, idempotency));
}
