/**
 * The one handler stack every route runs through, in the design's order:
 *
 *   request id → authorizer context → scope check → JSON body → input (request-input.ts)
 *   → idempotency → handler in one entity-scoped transaction (+ expand, outbox)
 *   → publish committed events → ETag / conditional GET → error envelope
 *
 * `lambdaHandler(route)` is the Lambda entry point of a route (API Gateway REST proxy events);
 * the local gateway calls the very same function.
 */
import { hash } from 'node:crypto';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { hasScope } from '../auth/scopes';
import { connectDuringInit, withTransaction } from '../db/database';
import { createEventRecorder, READ_ONLY_RECORDER } from '../events/outbox';
import { withLivemode } from '../schemas/livemode';
import { publishCommitted } from '../events/publisher';
import { newId } from '../ids';
import { log, type Logger } from '../log';
import { observed, type RouteInvocation } from './observe';
import { findRawCredentials } from './raw-credentials';
import { ApiError } from '../errors';
import { statusOf } from './error-status';
import { applyExpand } from './expand';
import { validateIdempotencyKey, type RunIdempotent, type StoredResponse } from './idempotency';
import type { Caller } from '../auth/caller';
import { acceptsIdempotencyKey, type Route, type RouteContext, type RouteInput, type RouteSchemas } from './route';
import { inputReader, loadBodyReader } from './request-input';
import { checkInputValue, MAX_BODY_BYTES } from './validation';

type Event = APIGatewayProxyEvent;
type Request = middy.Request<Event, APIGatewayProxyResult, Error, Context>;

/** What the middlewares learn about a request; it travels on the request's event (below). */
interface RequestState {
  requestId: string;
  /** The request's logger: its lines carry the request's context (shared/http/observe.ts). */
  log: Logger;
  headers: Record<string, string>;
  caller?: Caller;
  idempotencyKey?: string;
  rawBody?: unknown;
  input?: RouteInput<unknown, unknown, unknown>;
  expand: string[];
}
/**
 * The state rides on the event under a private symbol (JSON and Object.keys do not see it). Not a
 * WeakMap keyed by the event: V8's scavenger keeps such an entry alive while the map lives in the
 * old generation, so every request's state and all it references was promoted there (about a
 * third of what each scavenge copied; docs/decisions.md, "A request's state travels on its event").
 */
const STATE = Symbol('request state');
type EventWithState = Event & { [STATE]?: RequestState };
const stateIfAny = (event: Event): RequestState | undefined => (event as EventWithState)[STATE];
const stateOf = (event: Event): RequestState => {
  const state = stateIfAny(event);
  if (!state) throw new Error('request state missing: middleware order is broken');
  return state;
};

/**
 * Response validation catches contract drift in tests (Vitest sets NODE_ENV=test, and the e2e
 * servers inherit it); deployed functions and `npm start` skip the cost (it was 10–40% of a
 * request's time locally) unless VALIDATE_RESPONSES=1 asks for it (0 turns it off in tests).
 */
export function responseValidationEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = env.VALIDATE_RESPONSES;
  if (flag !== undefined && flag !== '') return flag === '1' || flag === 'true';
  return env.NODE_ENV === 'test';
}
const validateResponses = responseValidationEnabled();

export function etagOf(body: string): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 32)}"`;
}

/**
 * RFC 9110 list matching: If-None-Match uses weak comparison (W/ ignored), If-Match strong
 * comparison (a weak tag never matches).
 */
export function etagMatches(header: string, etag: string, comparison: 'weak' | 'strong' = 'weak'): boolean {
  const normalise = (tag: string) => (comparison === 'weak' ? tag.trim().replace(/^W\//, '') : tag.trim());
  return header.split(',').some((candidate) => candidate.trim() === '*' || normalise(candidate) === normalise(etag));
}

function lowercaseHeaders(headers: Event['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && Object.hasOwn(headers, name)) out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * The scope list of each scopes string seen, split once: a key's scopes come with every request.
 * Frozen, since requests share them; bounded, since each key can have its own string.
 */
const scopeLists = new Map<string, readonly string[]>();
const MAX_SCOPE_LISTS = 1000;
function scopeList(scopes: string): readonly string[] {
  let list = scopeLists.get(scopes);
  if (list === undefined) {
    if (scopeLists.size >= MAX_SCOPE_LISTS) scopeLists.clear();
    list = Object.freeze(scopes.split(' ').filter(Boolean));
    scopeLists.set(scopes, list);
  }
  return list;
}

/** The authorizer's context, as API Gateway passes it (strings only). */
export function callerFromAuthorizer(authorizer: Record<string, unknown> | null | undefined): Caller | undefined {
  if (!authorizer || typeof authorizer.entityId !== 'string') return undefined;
  return {
    entityId: authorizer.entityId,
    entityCode: String(authorizer.entityCode),
    keyId: String(authorizer.keyId),
    userId: String(authorizer.userId),
    mode: authorizer.mode === 'live' ? 'live' : 'test',
    scopes: scopeList(typeof authorizer.scopes === 'string' ? authorizer.scopes : ''),
  };
}

function readRequestContext(route: Route, request: Request, state: RequestState): void {
  const headers = lowercaseHeaders(request.event.headers);
  state.headers = headers;
  if (route.auth === 'none') return;
  state.caller = callerFromAuthorizer(request.event.requestContext?.authorizer);
  // Unreachable behind the authorizer; a misconfigured deployment must still fail closed.
  if (!state.caller) throw new ApiError('api_key_missing');
  if (acceptsIdempotencyKey(route)) state.idempotencyKey = validateIdempotencyKey(headers['idempotency-key']);
}

function checkScopes(route: Route, state: RequestState): void {
  if (route.auth === 'none') return;
  const { caller } = state;
  if (route.scopeMatch === 'any') {
    // Any one of the listed scopes suffices (E19: accounts:read or payments:read).
    if (route.scopes.some((scope) => hasScope(caller!.scopes, scope))) return;
    throw new ApiError('insufficient_scope', { required: route.scopes[0], hint: `This endpoint requires one of the scopes ${route.scopes.join(', ')}.` });
  }
  const missing = route.scopes.find((scope) => !hasScope(caller!.scopes, scope));
  if (missing) {
    throw new ApiError('insufficient_scope', { required: missing, hint: `This endpoint requires the ${missing} scope.` });
  }
}

const parser = httpJsonBodyParser();

/** Parses, checks and keeps a request's body (called only when it has one). */
async function readJsonBody(request: Request, body: string, state: RequestState): Promise<void> {
  // The local gateway stops a large body while reading it; on AWS this is the first place to.
  if (Buffer.byteLength(body, request.event.isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) throw new ApiError('request_too_large');
  // The middy parser needs the content type under one of its two spellings.
  request.event.headers = { ...request.event.headers, 'content-type': state.headers['content-type'] };
  await parser.before!(request as never);
  // Depth, NUL, unpaired surrogates and string length first: nothing below walks a hostile body.
  checkInputValue(request.event.body);
  const credentials = findRawCredentials(request.event.body);
  if (credentials) {
    // Dropped here, before validation messages, the idempotency record or any log line can see it.
    request.event.body = null;
    throw new ApiError(credentials.kind === 'card' ? 'raw_card_data_refused' : 'raw_bank_data_refused', { param: credentials.path });
  }
  state.rawBody = request.event.body;
  await loadBodyReader();
}

/**
 * Request context, scope check, JSON body and input validation, in that order, as one middleware:
 * a request without a body passes them without an await between them.
 */
const requestInput = (route: Route): middy.MiddlewareObj<Event, APIGatewayProxyResult, Error, Context> => {
  const validate = inputReader(route);
  return {
    before: (request: Request) => {
      const state = stateOf(request.event);
      readRequestContext(route, request, state);
      checkScopes(route, state);
      const { body } = request.event;
      if (body === null || body === undefined || body === '') return validate(request.event, state);
      return readJsonBody(request, body, state).then(() => validate(request.event, state));
    },
  };
};

function respond(statusCode: number, body: string, headers: Record<string, string>): APIGatewayProxyResult {
  return { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body };
}

function checkResponse(route: Route, body: unknown): void {
  if (!validateResponses) return;
  const schemas: RouteSchemas = route;
  // A body sent as text is checked as the client reads it: JSON text parsed, any other text as a string.
  const textType = route.auth === 'none' ? route.contentType : undefined;
  const value: unknown =
    textType === undefined ? JSON.parse(JSON.stringify(body)) : textType.startsWith('application/json') ? JSON.parse(body as string) : body;
  const result = schemas.response.safeParse(value);
  if (!result.success) {
    throw new Error(`response of ${route.id} breaks its schema: ${JSON.stringify(result.error.issues.slice(0, 3))}`);
  }
}

/** A list's `url`: the route's path with its (validated) path parameters filled in. */
function listUrl(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => params?.[name] ?? name);
}

async function execute(route: Route & { auth: 'api_key' }, state: RequestState): Promise<StoredResponse> {
  const caller = state.caller!;
  const input = state.input!;
  const live = caller.mode === 'live';
  const committed: (() => Promise<void>)[] = [];
  // A frozen entity (migration cutover) takes writes only from keys with migration:admin; reads continue.
  const refuseWhenFrozen = route.method !== 'GET' && !hasScope(caller.scopes, 'migration:admin');
  const { body, events } = await withTransaction(
    { role: 'app_user', entityId: caller.entityId, readOnly: route.method === 'GET', refuseWhenFrozen, log: state.log },
    async (db) => {
      const recorder =
        route.method === 'GET'
          ? READ_ONLY_RECORDER
          : createEventRecorder(db, { entityId: caller.entityId, mode: caller.mode, requestId: state.requestId, idempotencyKey: state.idempotencyKey });
      // Spelled out rather than spread from the caller: this runs for every request.
      const ctx: RouteContext = {
        entityId: caller.entityId,
        entityCode: caller.entityCode,
        keyId: caller.keyId,
        userId: caller.userId,
        mode: caller.mode,
        scopes: caller.scopes,
        requestId: state.requestId,
        log: state.log,
        idempotencyKey: state.idempotencyKey,
        db,
        events: recorder,
        afterCommit: (task) => void committed.push(task),
      };
      const ifMatch = state.headers['if-match'];
      if (ifMatch && route.current) {
        const current = withLivemode(await route.current(ctx, input as never), live);
        if (!etagMatches(ifMatch, etagOf(JSON.stringify(current)), 'strong')) throw new ApiError('precondition_failed', { param: 'If-Match' });
      }
      const result = (await route.handler(ctx, input as never)) as Record<string, unknown>;
      if (route.list) result.url = listUrl(route.path, input.params as Record<string, string> | undefined);
      if (state.expand.length) {
        const roots = route.list ? (result.data as Record<string, unknown>[]) : [result];
        await applyExpand({ db }, roots, state.expand, route.expand);
      }
      // Every object of the response carries the caller's mode: the only data a key can reach.
      const stamped = withLivemode(result, live);
      checkResponse(route, stamped);
      return { body: stamped, events: recorder.recorded };
    },
  );
  if (events.length) await publishCommitted(caller.entityId, events, state.log);
  for (const task of committed) await task();
  return { statusCode: route.successStatus ?? 200, headers: {}, body: JSON.stringify(body) };
}

/** Bodies this large whose ETag is kept for the next response of the route: the OpenAPI document's 1.7 MB is the same string on every request. */
const REMEMBERED_ETAG_BYTES = 64 * 1024;

function core(route: Route, idempotency: RunIdempotent | undefined) {
  let remembered: { body: string; etag: string } | undefined;
  const responseEtag = (body: string): string => {
    if (remembered?.body === body) return remembered.etag;
    const etag = etagOf(body);
    if (body.length >= REMEMBERED_ETAG_BYTES) remembered = { body, etag };
    return etag;
  };
  return async (event: Event, context: Context): Promise<APIGatewayProxyResult> => {
    const state = stateOf(event);
    let result: StoredResponse;
    if (route.auth === 'none') {
      const body: unknown = await route.handler({ requestId: state.requestId }, state.input as never);
      checkResponse(route, body);
      result = route.contentType
        ? { statusCode: route.successStatus ?? 200, headers: { 'Content-Type': route.contentType }, body: body as string }
        : { statusCode: route.successStatus ?? 200, headers: {}, body: JSON.stringify(body) };
    } else if (state.idempotencyKey !== undefined) {
      const { caller, input } = state;
      if (!idempotency) throw new Error(`${route.id} takes an Idempotency-Key, but its handler was built without the idempotency layer`);
      result = await idempotency(route.id, { scope: `${caller!.entityId} ${route.id} ${state.idempotencyKey}`, fingerprint: input }, context, () =>
        execute(route, state),
      );
    } else {
      result = await execute(route, state);
    }
    // One headers object per response, completed in place (a 304 carries no Content-Type).
    const headers: Record<string, string> = { ...result.headers, 'Request-Id': state.requestId };
    if (result.replayed) {
      headers['Idempotent-Replayed'] = 'true';
      if (route.auth === 'api_key' && route.replayBody) result = { ...result, body: route.replayBody(result.body) };
    }
    if (route.method === 'GET') {
      const etag = responseEtag(result.body);
      headers.ETag = etag;
      headers['Cache-Control'] = 'private, no-cache';
      const ifNoneMatch = state.headers['if-none-match'];
      if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) return { statusCode: 304, headers, body: '' };
    }
    headers['Content-Type'] ??= 'application/json';
    return { statusCode: result.statusCode, headers, body: result.body };
  };
}

const MIDDY_JSON_PACKAGE = '@middy/http-json-body-parser';

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const cause = (error as { cause?: { package?: string } })?.cause;
  if (cause?.package === MIDDY_JSON_PACKAGE) {
    return (error as Error).message === 'Unsupported Media Type'
      ? new ApiError('unsupported_media_type', { param: 'Content-Type' })
      : new ApiError('invalid_json');
  }
  return new ApiError('internal_error', { cause: error });
}

/** Last line of defence: every failure leaves as the envelope; nothing internal leaks. */
const errorEnvelope = (): middy.MiddlewareObj<Event, APIGatewayProxyResult, Error, Context> => ({
  onError: (request: Request) => {
    const state = stateIfAny(request.event);
    const requestId = state?.requestId ?? request.event.requestContext?.requestId ?? `req_${newId()}`;
    const requestLog = state?.log ?? log;
    const apiError = toApiError(request.error);
    // A 503 is a database fault the data layer already classified (and logged); not a defect.
    if (apiError.code === 'service_unavailable') requestLog.warn('database unavailable', { requestId, error: request.error });
    else if (statusOf(apiError) >= 500) requestLog.error('unhandled error', { requestId, error: request.error });
    request.response = respond(statusOf(apiError), JSON.stringify(apiError.toEnvelope(requestId)), {
      'Request-Id': requestId,
      ...apiError.options.headers,
    });
  },
});

/**
 * The Lambda handler of a route. A route that writes is built with the idempotency layer
 * (shared/http/idempotent.ts); a read is not, so its bundle carries none of it.
 */
export function lambdaHandler(route: Route & { method: 'GET' }): RouteInvocation;
export function lambdaHandler(route: Route, idempotency: RunIdempotent): RouteInvocation;
export function lambdaHandler(route: Route, idempotency?: RunIdempotent): RouteInvocation {
  if (route.auth === 'api_key') connectDuringInit();
  const stack = middy<Event, APIGatewayProxyResult, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use(errorEnvelope())
    .use(requestInput(route))
    .handler(core(route, idempotency));
  // The request's logger (request id, route, entity, key, cold start) and its metrics (requests,
  // latency, errors by code); the request's state starts here, holding that logger.
  return observed(route.id, (event, context, requestLog) => {
    (event as EventWithState)[STATE] = { requestId: event.requestContext?.requestId ?? `req_${newId()}`, log: requestLog, headers: {}, expand: [] };
    return stack(event, context);
  });
}
