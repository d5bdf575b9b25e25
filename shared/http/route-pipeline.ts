/**
 * What every route's request passes through, whatever its authentication: the request's state
 * (carried on its event), the authorizer context and scope check, the route kind's input step (the
 * JSON body and the input, request-input.ts), the conditional GET, and the error envelope around it all.
 *
 *   request id → authorizer context → scope check → JSON body → input → core → ETag → error envelope
 *
 * The core is the route kind's own: an API-key route's transaction (handler-stack.ts), a public
 * route's text or JSON (public-handler.ts). Nothing here reaches the database or validates input
 * (zod), so a public route's bundle evaluates none of it unless a request brings input.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod/mini';
import type { Caller } from '../auth/caller';
import { hasScope } from '../auth/scopes';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { logger, type Log } from '../powertools';
import { statusOf } from './error-status';
import { etagMatches, etagOf } from './etag';
import { validateIdempotencyKey } from './idempotency';
import { observed, type RouteInvocation } from './observe';
import { acceptsIdempotencyKey, type PipelineRoute, type RouteInput } from './route';

export type Event = APIGatewayProxyEvent;
type Request = middy.Request<Event, APIGatewayProxyResult, Error, Context>;

/** Reads a request's JSON body and input into its state, after the scope check (request-input.ts). */
export type InputStep = (event: Event, state: RequestState) => void | Promise<void>;

/** What the middlewares learn about a request; it travels on the request's event (below). */
export interface RequestState {
  requestId: string;
  /** The request's logger: its lines carry the request's context (shared/http/observe.ts). */
  log: Log;
  headers: Record<string, string>;
  caller?: Caller;
  idempotencyKey?: string;
  rawBody?: unknown;
  input?: RouteInput<unknown, unknown, unknown>;
  expand: string[];
  /** `?dry_run=true` on a write: the transaction is rolled back (dry-run.ts). */
  dryRun?: boolean;
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
export const stateOf = (event: Event): RequestState => {
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

function readRequestContext(route: PipelineRoute, request: Request, state: RequestState): void {
  const headers = lowercaseHeaders(request.event.headers);
  state.headers = headers;
  if (route.auth === 'none') return;
  state.caller = callerFromAuthorizer(request.event.requestContext?.authorizer);
  // Unreachable behind the authorizer; a misconfigured deployment must still fail closed.
  if (!state.caller) throw new ApiError('api_key_missing');
  if (acceptsIdempotencyKey(route)) state.idempotencyKey = validateIdempotencyKey(headers['idempotency-key']);
}

function checkScopes(route: PipelineRoute, state: RequestState): void {
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

/**
 * Request context, scope check, then the route's input step, in that order, as one middleware: a
 * request without a body passes them without an await between them.
 */
const requestInput = (route: PipelineRoute, readInput: InputStep): middy.MiddlewareObj<Event, APIGatewayProxyResult, Error, Context> => ({
  before: (request: Request) => {
    const state = stateOf(request.event);
    readRequestContext(route, request, state);
    checkScopes(route, state);
    return readInput(request.event, state);
  },
});

function respond(statusCode: number, body: string, headers: Record<string, string>): APIGatewayProxyResult {
  return { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body };
}

export function checkResponse(route: PipelineRoute, body: unknown): void {
  // A public route's serving part has no schema: its declaration's is checked where the whole declaration serves (tests).
  const schema = (route as { response?: z.ZodMiniType }).response;
  if (!validateResponses || !schema) return;
  // A body sent as text is checked as the client reads it: JSON text parsed, any other text as a string.
  const textType = route.auth === 'none' ? route.contentType : undefined;
  const value: unknown =
    textType === undefined ? JSON.parse(JSON.stringify(body)) : textType.startsWith('application/json') ? JSON.parse(body as string) : body;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(`response of ${route.id} breaks its schema: ${JSON.stringify(result.error.issues.slice(0, 3))}`);
  }
  const undeclared = undeclaredMembers(value, result.data, '');
  if (undeclared.length > 0) {
    throw new Error(`response of ${route.id} carries members its schema does not declare: ${undeclared.slice(0, 5).join(', ')}`);
  }
}

/**
 * The members of a response that parsing dropped. A zod object strips the keys it does not
 * declare, while the document states every object of a response as closed (additionalProperties
 * false): a stripped key is one the document refuses, at whatever depth it sits.
 */
function undeclaredMembers(sent: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(parsed)) return [];
    return sent.flatMap((item, index) => undeclaredMembers(item, parsed[index], `${path}[${index}]`));
  }
  if (sent === null || typeof sent !== 'object' || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  const kept = parsed as Record<string, unknown>;
  return Object.entries(sent).flatMap(([key, member]) => {
    const where = path ? `${path}.${key}` : key;
    return Object.hasOwn(kept, key) ? undeclaredMembers(member, kept[key], where) : [where];
  });
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
    const requestLog = state?.log ?? logger;
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

/** The part of a response the core produced, before the pipeline adds Request-Id, ETag and the default Content-Type. */
export interface CoreResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A response as it leaves: Request-Id on every one; on a GET the ETag (the core's own when it
 * knows it, else the body's) and the conditional answer to If-None-Match.
 */
export function finishResponse(route: PipelineRoute, state: RequestState, result: CoreResponse, etag?: string): APIGatewayProxyResult {
  // One headers object per response, completed in place (a 304 carries no Content-Type).
  const headers: Record<string, string> = { ...result.headers, 'Request-Id': state.requestId };
  if (route.method === 'GET') {
    const tag = etag ?? etagOf(result.body);
    headers.ETag = tag;
    headers['Cache-Control'] = 'private, no-cache';
    const ifNoneMatch = state.headers['if-none-match'];
    if (ifNoneMatch && etagMatches(ifNoneMatch, tag)) return { statusCode: 304, headers, body: '' };
  }
  headers['Content-Type'] ??= 'application/json';
  return { statusCode: result.statusCode, headers, body: result.body };
}

/**
 * A route's Lambda handler around its core: the request's logger and metrics (observe.ts), its
 * state, the input middleware with the route kind's input step, and the error envelope last.
 */
export function routePipeline(
  route: PipelineRoute,
  readInput: InputStep,
  core: (event: Event, context: Context) => Promise<APIGatewayProxyResult>,
): RouteInvocation {
  const stack = middy<Event, APIGatewayProxyResult, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use(errorEnvelope())
    .use(requestInput(route, readInput))
    .handler(core);
  // The request's logger (request id, route, entity, key, cold start) and its metrics (requests,
  // latency, errors by code); the request's state starts here, holding that logger.
  return observed(route.id, (event, context, requestLog) => {
    (event as EventWithState)[STATE] = { requestId: event.requestContext?.requestId ?? `req_${newId()}`, log: requestLog, headers: {}, expand: [] };
    return stack(event, context);
  });
}
