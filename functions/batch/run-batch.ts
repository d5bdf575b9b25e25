import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { ApiError, type ErrorCode, type ErrorEnvelope } from '../../shared/errors';
import { markEnclosed, savepointsOf, type EnclosingTransaction } from '../../shared/http/batch-operation';
import { storeEvents, type EventEnvelope } from '../../shared/events/outbox';
import { DRY_RUN_PARAMETER, supportsDryRun } from '../../shared/http/dry-run';
import { lambdaHandler } from '../../shared/http/handler-stack';
import type { HeldRecord } from '../../shared/http/idempotency';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, type RouteContext } from '../../shared/http/route';
import { buildRouteTable, type RouteTable } from '../../local/route-matcher';
import type { RouteModule } from '../routes';
import { BatchRequest, BatchResult, MAX_BATCH_ANSWER_BYTES, MAX_BATCH_OPERATIONS } from './batch-schemas';
import { resolveReferences, type OperationOutcome } from './references';

type Operation = z.infer<typeof BatchRequest>['operations'][number];
/** An operation's answer, with what the batch needs beyond its status and body. */
type Answered = OperationOutcome & { bytes?: number; headers?: Record<string, string>; replayed?: boolean };
type Invocation = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The route table, loaded on the first batch: the table lists this route too, so it is reached at
 * run time rather than imported (the bundle still carries every route: docs/decisions.md, "Batch").
 */
let table: Promise<RouteTable<RouteModule>> | undefined;
function routeTable(): Promise<RouteTable<RouteModule>> {
  table ??= import('../routes').then(({ ROUTE_MODULES }) => buildRouteTable(Object.values(ROUTE_MODULES) as RouteModule[]));
  return table;
}

/** The API Gateway event of one operation: the batch's caller, as its authorizer context, on the operation's route. */
function operationEvent(ctx: RouteContext, index: number, routePath: string, path: string, params: Record<string, string> | null, operation: Operation) {
  const authorizer = {
    entityId: ctx.entityId,
    entityCode: ctx.entityCode,
    keyId: ctx.keyId,
    userId: ctx.userId,
    mode: ctx.mode,
    scopes: ctx.scopes.join(' '),
  };
  return {
    resource: routePath,
    path,
    httpMethod: operation.method,
    headers: {
      ...(operation.body !== undefined && { 'content-type': 'application/json' }),
      ...(operation.idempotency_key !== undefined && { 'idempotency-key': operation.idempotency_key }),
    },
    multiValueHeaders: {},
    queryStringParameters: operation.query && Object.keys(operation.query).length ? operation.query : null,
    multiValueQueryStringParameters: null,
    pathParameters: params,
    stageVariables: null,
    body: operation.body === undefined ? null : JSON.stringify(operation.body),
    isBase64Encoded: false,
    requestContext: { requestId: `${ctx.requestId}.${index}`, authorizer, httpMethod: operation.method, path, resourcePath: routePath },
  } as unknown as APIGatewayProxyEvent;
}

/** An operation's own refusal, answered as its route would answer an error. */
function refusal(code: ErrorCode, requestId: string, options: ConstructorParameters<typeof ApiError>[1]): OperationOutcome {
  const error = new ApiError(code, options);
  return { status: 400, body: error.toEnvelope(requestId) };
}

async function runOperation(
  ctx: RouteContext,
  context: Context,
  atomic: boolean,
  index: number,
  operation: Operation,
  earlier: OperationOutcome[],
  batch: Pick<EnclosingTransaction, 'adopt' | 'hold'>,
): Promise<Answered> {
  const requestId = `${ctx.requestId}.${index}`;
  if (operation.query && Object.hasOwn(operation.query, DRY_RUN_PARAMETER)) {
    return refusal('batch_operation_not_allowed', requestId, { param: `operations[${index}].query.dry_run`, hint: 'Send dry_run=true on the batch itself.' });
  }
  const resolved = resolveReferences(operation, index, earlier);
  if ('invalid' in resolved) return refusal('batch_reference_invalid', requestId, { param: `operations[${index}].${resolved.invalid}` });
  const match = (await routeTable()).match(operation.method, resolved.operation.path.split('?')[0]);
  if (!match)
    return refusal('batch_operation_not_allowed', requestId, { param: `operations[${index}].path`, hint: 'No write route matches this method and path.' });
  const { route } = match.route;
  if (route.auth !== 'api_key' || !supportsDryRun(route) || route.id === ROUTE_ID) {
    return refusal('batch_operation_not_allowed', requestId, {
      param: `operations[${index}].path`,
      hint: `${route.method} ${route.path} cannot run in a batch.`,
    });
  }
  const event = operationEvent(ctx, index, route.path, resolved.operation.path, match.params, resolved.operation);
  const enclosing = savepointsOf(ctx.db, batch, atomic);
  const response = await (match.route.handler as Invocation)(markEnclosed(event, enclosing), context);
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, unknown>,
    bytes: Buffer.byteLength(response.body),
    headers: ownHeaders(response.headers),
    replayed: response.headers?.['Idempotent-Replayed'] === 'true',
  };
}

/** The headers an operation's route set itself (Retry-After, ...), less those every response carries. */
function ownHeaders(headers: APIGatewayProxyResult['headers']): Record<string, string> {
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!['content-type', 'request-id', 'idempotent-replayed'].includes(name.toLowerCase())) own[name] = String(value);
  }
  return own;
}

/**
 * Saves the operations' idempotency records once the batch has committed. A record that cannot be
 * saved stays in progress until it expires (as a single request's): the operation's writes are kept.
 */
async function saveHeld(held: readonly HeldRecord[], log: RouteContext['log']): Promise<void> {
  const saved = await Promise.allSettled(held.map((record) => record.save()));
  for (const outcome of saved) if (outcome.status === 'rejected') log.error('idempotency record of a batch operation not saved', { error: outcome.reason });
}

/** Releases the operations' reservations: the batch rolled back, so a retry runs them again. */
async function releaseHeld(held: readonly HeldRecord[], log: RouteContext['log']): Promise<void> {
  const released = await Promise.allSettled(held.map((record) => record.release()));
  for (const outcome of released) {
    if (outcome.status === 'rejected') log.error('idempotency key of a rolled-back batch operation not released', { error: outcome.reason });
  }
}

const ROUTE_ID = 'batch.run';

export const route = defineRoute({
  id: ROUTE_ID,
  method: 'POST',
  path: '/v1/batch',
  tag: 'Batch',
  summary: 'Run up to 100 writes in one request',
  description: [
    'Runs each operation exactly as the route it names (validation, scopes of the key, rules, errors, events), in order, in one database transaction. No scope is needed for the batch itself: each operation needs its own route’s.',
    '`atomic: true` (default): the first failure rolls everything back, and the answer is that operation’s status and error envelope with `failed_index` (and `failed_request_id`). `atomic: false`: each operation runs in a savepoint of its own; the answer (200) lists every operation’s status and body, and the successful ones are kept.',
    'An operation may use an earlier one’s answer: a body string (or query value, or whole path segment) that is exactly `$ops[n].field` (fields chained with `.name` or `[i]`, e.g. `$ops[0].lines[1].id`) is replaced by that value. A reference to a failed or later operation, or to a field that is not there, fails the operation with 400 batch_reference_invalid.',
    'Only POST, PATCH and DELETE of routes whose work stays in the transaction can run in a batch (every write except those that refuse a dry run, and the batch itself); another is 400 batch_operation_not_allowed. Events are published once the batch commits. Import batches work inside a batch: `migration_batch_id` on each record, then the batch of imports can be rolled back like any other.',
    `Limits: at most ${MAX_BATCH_OPERATIONS} operations and a request body of 1 MiB (413 request_too_large); an answer over 5 MB (Lambda answers at most 6 MB) is 400 batch_too_large with nothing kept; the whole batch must finish within API Gateway’s 29 seconds. With dry_run=true the whole batch runs and is rolled back.`,
    'An Idempotency-Key on the batch makes the whole batch safe to retry. An operation’s own `idempotency_key` is that route’s Idempotency-Key (same scope, entity and route, so it also replays a single request sent with that key): reserved before the operation runs (a concurrent request with it gets 409 idempotency_key_in_use with Retry-After), saved only once the batch commits (with `atomic: false`, only for the operations that succeeded) and released when the batch rolls back, so retrying a failed batch runs again exactly what was not kept. A repeated key with the same request answers the stored answer with `idempotent_replay: true` in its result; with another request, 422 idempotency_key_reused. A dry-run batch refuses operation keys (400 dry_run_idempotency_key). The answer of a failed atomic batch carries the failed operation’s own headers (such as Retry-After).',
  ].join('\n\n'),
  scopes: [],
  body: BatchRequest,
  response: BatchResult,
  errors: ['batch_too_large', 'batch_reference_invalid', 'batch_operation_not_allowed'],
  handler: async (ctx, { body }) => {
    if (body.operations.length > MAX_BATCH_OPERATIONS) {
      throw new ApiError('batch_too_large', {
        param: 'operations',
        hint: `A batch holds at most ${MAX_BATCH_OPERATIONS} operations; this one has ${body.operations.length}.`,
      });
    }
    if (ctx.dryRun) {
      // As a dry-run request refuses an Idempotency-Key: a retry can never mistake a dry run for the real thing.
      const keyed = body.operations.findIndex((operation) => operation.idempotency_key !== undefined);
      if (keyed >= 0) throw new ApiError('dry_run_idempotency_key', { param: `operations[${keyed}].idempotency_key` });
    }
    const context = { getRemainingTimeInMillis: () => 29_000, functionName: ROUTE_ID, awsRequestId: ctx.requestId } as unknown as Context;
    const outcomes: Answered[] = [];
    // The idempotency records of the operations that succeeded: saved once the batch commits.
    const held: HeldRecord[] = [];
    ctx.afterCommit(() => saveHeld(held, ctx.log));
    // Nothing of a batch that rolls back is kept (its first failure, or a refused commit): neither are its operations' keys.
    ctx.afterRollback(() => releaseHeld(held, ctx.log));
    // The events of the operations that succeeded, in their order: stored in the outbox together once every operation has run.
    const events: EventEnvelope[] = [];
    const batch = {
      adopt: (recorded: readonly EventEnvelope[], tasks: readonly (() => Promise<void>)[]) => {
        events.push(...recorded);
        ctx.events.adopt(recorded);
        for (const task of tasks) ctx.afterCommit(task);
      },
      hold: (record: HeldRecord) => void held.push(record),
    };
    let size = 0;
    for (const [index, operation] of body.operations.entries()) {
      const outcome = await runOperation(ctx, context, body.atomic, index, operation, outcomes, batch);
      outcomes.push(outcome);
      if (body.atomic && outcome.status >= 400) {
        const envelope = outcome.body as unknown as ErrorEnvelope;
        const { error: _key, code, type: _type, hint, param, required, doc_url: _doc, request_id, ...extra } = envelope;
        throw new ApiError(code as ErrorCode, {
          hint,
          param,
          required,
          headers: outcome.headers,
          details: { ...extra, failed_index: index, failed_request_id: request_id },
        });
      }
      size += outcome.bytes ?? Buffer.byteLength(JSON.stringify(outcome.body));
      if (size > MAX_BATCH_ANSWER_BYTES) {
        throw new ApiError('batch_too_large', {
          hint: `The answers of the first ${index + 1} operations exceed 5 MB; nothing was kept. Send fewer operations per batch.`,
        });
      }
    }
    await storeEvents(ctx.db, events);
    return {
      object: 'batch' as const,
      atomic: body.atomic,
      results: outcomes.map(({ status, body: answer, replayed }, index) => ({
        index,
        status,
        body: answer,
        ...(body.operations[index].idempotency_key !== undefined && { idempotent_replay: replayed === true }),
      })),
    };
  },
});

export const handler = lambdaHandler(route, idempotency);
