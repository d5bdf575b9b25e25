/**
 * The typed test client: every integration test calls the API through it.
 *
 * Typed from the route table (functions/routes.ts): the method and path must name a route (a path
 * that is no route does not compile), the body must fit the route's body schema (`z.input`), and
 * the response body is the route's response schema output (`z.output`). An error answer is the
 * same JSON, typed as the error envelope under `error`:
 *
 *   const res = await api.request('POST', '/v1/orders', { key: owner.secret, body: { document_type: 'invoice', account_id } });
 *   expect(res.status).toBe(201);
 *   res.body.order_number;          // string
 *   res.error.code;                 // on a refusal: the envelope's code, param, hint...
 *
 * Setup steps that must succeed assert the status and return the body:
 *
 *   const order = await api.post(owner, '/v1/orders', body);            // 201 unless stated
 *   await api.post(owner, `/v1/orders/${order.id}/confirm`, undefined, 200);
 *   const fresh = await api.get(owner, `/v1/orders/${order.id}`);
 *
 * `expectError(res, 409, 'order_locked', 'id')` checks a refusal and returns the envelope.
 *
 * Escape hatches, for requests the types rightly refuse: `unchecked(body)` sends a body that does
 * not fit the schema (to test the refusal), `api.raw(method, path, options)` calls any method and
 * path (unknown routes, the generated security matrix) and types the body as `unknown`.
 */
import { expect } from 'vitest';
import type { HttpMethod } from '../../shared/http/route';
import type { BodyOf, ErrorEnvelope, PathOf, ResponseOf, RouteFor } from './client-types';
import { tapExchange } from './example-tap';

export type { ErrorEnvelope };

declare const uncheckedBrand: unique symbol;
/** A body sent as is, past the route's body schema: see `unchecked`. */
export interface Unchecked {
  readonly [uncheckedBrand]: true;
}

/** Sends `body` without checking it against the route's body schema: for tests of invalid input. */
export function unchecked(body: unknown): Unchecked {
  return body as Unchecked;
}

/**
 * A single order always carries its lines and adjustments (the schema marks them optional because
 * lists carry them only with expand[]): the asserting helpers check that and type them so.
 */
export type WithLines<T> = T extends { object: 'order'; lines?: infer L; adjustments?: infer A }
  ? T & { lines: NonNullable<L>; adjustments: NonNullable<A> }
  : T;

/** Checks that a single order came with its lines and adjustments, and types it so. */
export function withLines<T>(body: T): WithLines<T> {
  const order = body as { object?: string; lines?: unknown; adjustments?: unknown };
  if (order.object === 'order' && !(Array.isArray(order.lines) && Array.isArray(order.adjustments))) {
    throw new Error('a single order came without its lines or adjustments');
  }
  return body as WithLines<T>;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON, typed as the route's response (read it on a success status). */
  body: T;
  /** The same parsed JSON, typed as the error envelope (read it on an error status). */
  error: ErrorEnvelope;
}

/** Expects `response` to be refused with `status` and `code` (and `param` when given); the envelope. */
export function expectError(response: ApiResponse<unknown>, status: number, code: string, param?: string): ErrorEnvelope {
  expect(response.status, response.text).toBe(status);
  expect(response.error.code).toBe(code);
  if (param !== undefined) expect(response.error.param).toBe(param);
  return response.error;
}

/** Who calls: a test entity (its key is used) or an API key secret. */
export type Caller = { secret: string } | string;

type Query = Record<string, string | string[]>;

/** The body a route takes: its body schema's input; `{}` when it has none. */
type BodyArg<E> = ([BodyOf<E>] extends [undefined] ? Record<string, never> : BodyOf<E>) | Unchecked;
/** Whether the body may be left out: the route has no body schema, or its schema accepts `{}`. */
type BodyOptional<E> = [BodyOf<E>] extends [undefined] ? true : Record<string, never> extends BodyOf<E> ? true : false;
/** The body as a positional argument: `undefined` allowed where the body may be left out. */
export type BodyParam<E> = BodyOptional<E> extends true ? BodyArg<E> | undefined : BodyArg<E>;

interface CommonOptions {
  key?: string;
  headers?: Record<string, string>;
  query?: Query;
}
/** `rawBody` is sent byte for byte instead of a JSON body (malformed JSON, odd content types). */
type RequestOptions<E> = CommonOptions &
  (BodyOptional<E> extends true ? { body?: BodyArg<E>; rawBody?: string } : { body: BodyArg<E>; rawBody?: undefined } | { body?: undefined; rawBody: string });
/** The options argument: required when the route requires a body. */
type OptionsArg<E> = BodyOptional<E> extends true ? [options?: RequestOptions<E>] : [options: RequestOptions<E>];
/** The body and expected status arguments of the asserting helpers. */
export type BodyAndStatus<E> = BodyOptional<E> extends true ? [body?: BodyArg<E>, status?: number] : [body: BodyArg<E>, status?: number];

interface RawRequestOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Query;
}

/** A path that names no route of the method becomes this impossible type, so the call does not compile. */
interface NoRouteMatches<M extends string, P extends string> {
  readonly 'no route matches': `${M} ${P}`;
}
export type KnownPath<M extends HttpMethod, P extends string> = [RouteFor<M, P>] extends [never] ? NoRouteMatches<M, P> : unknown;

/** The response of a method and path, e.g. `ResponseFor<'GET', '/v1/orders/{id}'>`. */
export type ResponseFor<M extends HttpMethod, P extends PathOf<M>> = ResponseOf<RouteFor<M, P>>;
/** The body a method and path accept, e.g. `BodyFor<'POST', '/v1/orders'>`. */
export type BodyFor<M extends HttpMethod, P extends PathOf<M>> = Exclude<BodyOf<RouteFor<M, P>>, undefined>;

export interface TestClient {
  /** One request; the whole response, whatever its status. */
  request<M extends HttpMethod, const P extends string>(
    method: M,
    path: P & KnownPath<M, P>,
    ...options: OptionsArg<RouteFor<M, P>>
  ): Promise<ApiResponse<ResponseOf<RouteFor<M, P>>>>;
  /** Any method and path, any body: for unknown routes and tests that iterate over the route table. */
  raw(method: string, path: string, options?: RawRequestOptions): Promise<ApiResponse<unknown>>;
  /** POST that must answer `status` (201 unless stated); returns the body. */
  post<const P extends string>(
    caller: Caller,
    path: P & KnownPath<'POST', P>,
    ...bodyAndStatus: BodyAndStatus<RouteFor<'POST', P>>
  ): Promise<WithLines<ResponseOf<RouteFor<'POST', P>>>>;
  /** GET that must answer 200; returns the body. */
  get<const P extends string>(caller: Caller, path: P & KnownPath<'GET', P>, query?: Query): Promise<WithLines<ResponseOf<RouteFor<'GET', P>>>>;
  /** PATCH that must answer `status` (200 unless stated); returns the body. */
  patch<const P extends string>(
    caller: Caller,
    path: P & KnownPath<'PATCH', P>,
    ...bodyAndStatus: BodyAndStatus<RouteFor<'PATCH', P>>
  ): Promise<WithLines<ResponseOf<RouteFor<'PATCH', P>>>>;
  /** DELETE that must answer `status` (200 unless stated); returns the body. */
  delete<const P extends string>(caller: Caller, path: P & KnownPath<'DELETE', P>, status?: number): Promise<WithLines<ResponseOf<RouteFor<'DELETE', P>>>>;
}

const keyOf = (caller: Caller) => (typeof caller === 'string' ? caller : caller.secret);

/** The client of a gateway; `baseUrl` is read at each call (the harness learns it in beforeAll). */
export function createClient(baseUrl: () => string): TestClient {
  const raw = async (method: string, path: string, options: RawRequestOptions = {}): Promise<ApiResponse<unknown>> => {
    const url = new URL(path, baseUrl());
    for (const [name, value] of Object.entries(options.query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
    }
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.Authorization = `Bearer ${options.key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    if (options.rawBody === undefined)
      tapExchange({
        method,
        path: url.pathname,
        query: options.query ?? {},
        body: options.body,
        status: response.status,
        contentType: response.headers.get('content-type'),
        text,
      });
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed, error: parsed as ErrorEnvelope };
  };

  /** A request that must answer `status`; the body, or an error naming what came back. */
  const expecting = async (method: string, caller: Caller, path: string, status: number, options: RawRequestOptions = {}): Promise<never> => {
    const response = await raw(method, path, { ...options, key: keyOf(caller) });
    if (response.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${response.status} ${response.text}`);
    return withLines(response.body) as never;
  };

  return {
    request: (method, path, ...[options]) => raw(method, path, options) as never,
    raw,
    post: (caller, path, ...[body, status = 201]) => expecting('POST', caller, path, status, { body }),
    get: (caller, path, query) => expecting('GET', caller, path, 200, { query }),
    patch: (caller, path, ...[body, status = 200]) => expecting('PATCH', caller, path, status, { body }),
    delete: (caller, path, status = 200) => expecting('DELETE', caller, path, status),
  };
}
