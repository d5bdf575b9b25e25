/**
 * The route contract: everything about an endpoint, declared once.
 *
 * CDK creates one function and one API Gateway method per route from these declarations, the
 * local gateway dispatches by them, and the OpenAPI document is generated from them.
 */
import type { ServedText } from './served-text';
import type { z } from 'zod/mini';
import type { Caller } from '../auth/caller';
import type { Db } from '../db/database';
import type { Log } from '../powertools';
import type { EventRecorder } from '../events/outbox';
import { ApiError, type ErrorCode } from '../errors';
import type { ExpandSpec } from './expand';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteContext extends Caller {
  requestId: string;
  /** The request's logger: its lines carry the request id, route, entity and key. */
  log: Log;
  idempotencyKey?: string;
  /** `dry_run=true`: the transaction is rolled back once the handler returns. */
  dryRun?: boolean;
  /** The request's transaction: scoped to the caller's entity by row level security. */
  db: Db;
  /** Records domain events in the outbox, inside the same transaction. */
  events: EventRecorder;
  /**
   * Work to start once the transaction has committed (and its events are published), e.g. an
   * asynchronous workflow that must find the rows this request wrote. A task handles its own
   * failures: the response is already decided.
   */
  afterCommit(task: () => Promise<void>): void;
  /**
   * Work to do if the transaction fails instead (the work threw, or the commit was refused; not a
   * lost commit whose outcome is unknown): undo what was reserved outside the database. A task
   * handles its own failures.
   */
  afterRollback(task: () => Promise<void>): void;
}

/** A public route (no API key), e.g. the OpenAPI document. It gets no database or caller. */
interface PublicContext {
  requestId: string;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

type ZodObjectLike = z.ZodMiniObject<z.core.$ZodShape>;
/** What a handler returns: the response, less a list's `url`, which the handler stack fills in. */
type HandlerResult<T> = T extends { object: 'list'; url: string } ? Omit<T, 'url'> : T;
type Infer<S> = S extends z.ZodMiniType ? z.infer<S> : undefined;

/**
 * M and Path carry the method and path literals of a declaration (type level only), so a typed
 * client can be derived from the route table.
 */
interface RouteCommon<
  P extends ZodObjectLike | undefined,
  Q extends ZodObjectLike | undefined,
  B extends z.ZodMiniType | undefined,
  R extends z.ZodMiniType,
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
> {
  /** Stable identifier, e.g. `locations.create`; names the Lambda function and the OpenAPI operationId. */
  id: string;
  method: M;
  /** API Gateway style path with {param} placeholders, always under /v1. */
  path: Path;
  summary: string;
  description?: string;
  /** OpenAPI tag, e.g. `Locations`. */
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Whether a request must carry a body (OpenAPI requestBody.required). By default, when the body
   * schema refuses `{}`; true where the handler requires members the schema leaves optional
   * (one of two alternatives, say).
   */
  bodyRequired?: boolean;
  response: R;
  /** 200 unless stated (201 for creates, 202 for accepted async work). */
  successStatus?: 200 | 201 | 202;
  /** Codes this route can return beyond the ones every route shares. */
  errors?: ErrorCode[];
}

export interface ApiKeyRoute<
  P extends ZodObjectLike | undefined = ZodObjectLike | undefined,
  Q extends ZodObjectLike | undefined = ZodObjectLike | undefined,
  B extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  R extends z.ZodMiniType = z.ZodMiniType,
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
> extends RouteCommon<P, Q, B, R, M, Path> {
  auth: 'api_key';
  /** Every scope listed is required (the cutover snapshot needs two), unless scopeMatch is `any`. */
  scopes: string[];
  /** `any`: one of the listed scopes suffices (E19 takes accounts:read or payments:read). Default `all`. */
  scopeMatch?: 'all' | 'any';
  /** Whether an Idempotency-Key header is honoured; defaults to true for POST, PATCH and DELETE. */
  idempotent?: boolean;
  /**
   * false when the route's work reaches beyond its database transaction (a card processor call, a
   * Step Functions start): rolling the transaction back would not undo it, so the route answers a
   * dry run with 400 dry_run_not_supported (shared/http/dry-run.ts). Default true.
   */
  transactional?: boolean;
  /**
   * Rewrites the stored body when it is served as an Idempotency-Key replay (E6 says so in its
   * `idempotent_replay` field). Without it a replay is the original body byte for byte.
   */
  replayBody?: (body: string) => string;
  /** Whether the request only reads; GET routes run in READ ONLY transactions. */
  expand?: ExpandSpec;
  /** True when the response is a list envelope: expand values then take the `data.` prefix. */
  list?: boolean;
  /**
   * The current representation of the target (as its GET returns it), for If-Match on PATCH and
   * DELETE. Runs inside the request's transaction, before the handler, with the row locked.
   */
  current?: (ctx: RouteContext, input: RouteInput<Infer<P>, Infer<Q>, Infer<B>>) => Promise<unknown>;
  handler: (ctx: RouteContext, input: RouteInput<Infer<P>, Infer<Q>, Infer<B>>) => Promise<HandlerResult<z.input<R>>>;
}

export interface PublicRoute<
  P extends ZodObjectLike | undefined = ZodObjectLike | undefined,
  Q extends ZodObjectLike | undefined = ZodObjectLike | undefined,
  R extends z.ZodMiniType = z.ZodMiniType,
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
  C extends string | undefined = string | undefined,
> extends RouteCommon<P, Q, undefined, R, M, Path> {
  auth: 'none';
  /**
   * The media type of a body the handler returns as text (the reference page, its script, the
   * OpenAPI document already serialised) with its ETag (served-text.ts): the stack sends it as is.
   * `response` still describes it.
   */
  contentType?: C;
  handler: (ctx: PublicContext, input: RouteInput<Infer<P>, Infer<Q>, undefined>) => Promise<C extends string ? ServedText : z.input<R>>;
}

/**
 * What serving a public route takes: the declaration less what only documents it (tag, summary,
 * description, response schema). The Lambda handler of a public route is built from this part
 * alone (public-handler.ts), so its bundle can drop the declaration and the zod schemas in it.
 */
export interface PublicServing<M extends HttpMethod = HttpMethod, Path extends string = string, C extends string | undefined = string | undefined> {
  auth: 'none';
  id: string;
  method: M;
  path: Path;
  contentType?: C;
  successStatus?: 200 | 201 | 202;
  /** Present on a whole declaration: the response is then checked as in tests (checkResponse). */
  response?: z.ZodMiniType;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Route: a public route's input is whatever its schemas say
  handler: (ctx: PublicContext, input: RouteInput<any, any, undefined>) => Promise<C extends string ? ServedText : unknown>;
}

/** What the shared pipeline reads of a route (route-pipeline.ts): an API-key route, or a public route's serving part. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Route: the route generics erased
export type PipelineRoute = ApiKeyRoute<any, any, any, any> | PublicServing;

/**
 * Any route of the table. Each route's schemas differ, and a handler's input is a parameter
 * (contravariant), so only `any` admits them all; code that reads a route's schemas goes through
 * RouteSchemas, which types them again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the one place the route generics are erased
export type Route = ApiKeyRoute<any, any, any, any> | PublicRoute<any, any, any>;

/** The schemas of any route, typed: what the handler stack and the OpenAPI generator read. */
export interface RouteSchemas {
  params?: ZodObjectLike;
  query?: ZodObjectLike;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
}

/** Declares an API-key route; the generics carry the schemas' types into the handler. */
export function defineRoute<
  P extends ZodObjectLike | undefined = undefined,
  Q extends ZodObjectLike | undefined = undefined,
  B extends z.ZodMiniType | undefined = undefined,
  R extends z.ZodMiniType = z.ZodMiniType,
  const M extends HttpMethod = HttpMethod,
  const Path extends string = string,
>(route: Omit<ApiKeyRoute<P, Q, B, R, M, Path>, 'auth'>): ApiKeyRoute<P, Q, B, R, M, Path> {
  return { ...route, auth: 'api_key' };
}

/** The serving part of a public route that serves text (PublicServing), to declare it with definePublicRoute(serving, documentation). */
export function publicServing<const M extends HttpMethod, const Path extends string, const C extends string>(
  serving: Omit<PublicServing<M, Path, C>, 'auth' | 'response'>,
): PublicServing<M, Path, C> {
  return { ...serving, auth: 'none' };
}

/** What documents a public route declared from its serving part: the OpenAPI document's words and response schema. */
type PublicDocumentation<R extends z.ZodMiniType> = Pick<PublicRoute<undefined, undefined, R>, 'tag' | 'summary' | 'description' | 'response' | 'errors'>;

/**
 * Declares a public route: whole, or as its serving part and its documentation. Declared in two
 * parts, its function is built on the module of its serving part alone (functions/<key>.serving.ts,
 * infra/functions.ts), which imports no zod.
 */
export function definePublicRoute<
  P extends ZodObjectLike | undefined = undefined,
  Q extends ZodObjectLike | undefined = undefined,
  R extends z.ZodMiniType = z.ZodMiniType,
  const M extends HttpMethod = HttpMethod,
  const Path extends string = string,
  const C extends string | undefined = undefined,
>(route: Omit<PublicRoute<P, Q, R, M, Path, C>, 'auth'>): PublicRoute<P, Q, R, M, Path, C>;
export function definePublicRoute<R extends z.ZodMiniType, M extends HttpMethod, Path extends string, C extends string>(
  serving: PublicServing<M, Path, C>,
  documentation: PublicDocumentation<R>,
): PublicRoute<undefined, undefined, R, M, Path, C>;
export function definePublicRoute(route: object, documentation?: object): PublicRoute {
  return { ...route, ...documentation, auth: 'none' } as PublicRoute;
}

function isMutation(method: HttpMethod): boolean {
  return method !== 'GET';
}

export function acceptsIdempotencyKey(route: PipelineRoute): boolean {
  return route.auth === 'api_key' && isMutation(route.method) && route.idempotent !== false;
}

/**
 * Platform routes carry the entity in the path; it must be the key's own. Any other entity is
 * reported exactly like a missing record: a 404, never a 403, so ids of other tenants leak nothing.
 */
export function requireOwnEntity(caller: Caller, entityId: string): void {
  if (entityId.toLowerCase() !== caller.entityId.toLowerCase()) {
    throw new ApiError('not_found', { param: 'entity_id', hint: 'No such entity for this API key.' });
  }
}
