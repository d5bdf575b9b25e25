/**
 * The typed test client's view of the route table (types only): which method and path reach which
 * route, what body it accepts and what it answers. Derived from ROUTE_MODULES, so a route added or
 * changed there is what tests must call.
 */
import type { z } from 'zod/mini';
import type { ROUTE_MODULES } from '../../functions/routes';
import type { ErrorEnvelope } from '../../shared/errors';
import type { HttpMethod } from '../../shared/http/route';

type AnyRoute = (typeof ROUTE_MODULES)[keyof typeof ROUTE_MODULES]['route'];

/** `/v1/orders/{id}/confirm` → `/v1/orders/${string}/confirm`. */
type Template<Path extends string> = Path extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Template<Tail>}` : Path;

/** The number of `/` in a path: a `${string}` hole fits any text, so templates also compare segment counts. */
type Slashes<S extends string, Count extends 0[] = []> = S extends `${string}/${infer Rest}` ? Slashes<Rest, [...Count, 0]> : Count['length'];

/** The first segment after /v1: `orders` for `/v1/orders/{id}/confirm`. */
type SegmentOf<Path extends string> = Path extends `/v1/${infer Segment}/${string}` ? Segment : Path extends `/v1/${infer Segment}` ? Segment : never;

/** One entry per route: its method, its path as a template literal type, its body and response schemas. */
type RouteEntry = AnyRoute extends infer Route
  ? Route extends { method: infer M; path: infer P extends string; response: infer R }
    ? {
        method: M;
        path: P;
        segment: SegmentOf<P>;
        template: Template<P>;
        slashes: Slashes<P>;
        body: Route extends { body?: infer B } ? B : undefined;
        response: R;
      }
    : never
  : never;

/** The routes by method and first segment, computed once, so a lookup scans a handful of routes. */
type RouteIndex = { [M in HttpMethod]: { [S in Extract<RouteEntry, { method: M }>['segment']]: Extract<RouteEntry, { method: M; segment: S }> } };

type Fitting<E, Path extends string, PathSlashes> = E extends { template: infer T extends string; slashes: PathSlashes } ? (Path extends T ? E : never) : never;

/**
 * Routes of a method whose path template the given path fits, segment for segment. Conditional on
 * Path, so nothing is computed until a call gives Path a type.
 */
type Candidates<M extends HttpMethod, Path extends string> = Path extends string
  ? SegmentOf<Path> extends infer S
    ? S extends keyof RouteIndex[M]
      ? Fitting<RouteIndex[M][S], Path, Slashes<Path>>
      : never
    : never
  : never;

/** Of the routes a path fits, the most specific: `/v1/orders/approval-rules` beats `/v1/orders/{id}`. */
type MostSpecific<C, All = C> = C extends { template: infer T }
  ? [Exclude<All, C> extends infer Other ? (Other extends { template: infer U } ? (U extends T ? (T extends U ? never : U) : never) : never) : never] extends [
      never,
    ]
    ? C
    : never
  : never;

export type RouteFor<M extends HttpMethod, Path extends string> = MostSpecific<Candidates<M, Path>>;

/** Every path template of a method, for error messages and autocompletion. */
export type PathOf<M extends HttpMethod> = Extract<RouteEntry, { method: M }>['template'];

export type BodyOf<E> = E extends { body: infer B } ? (B extends z.ZodMiniType ? z.input<B> : undefined) : never;
export type ResponseOf<E> = E extends { response: infer R extends z.ZodMiniType } ? z.output<R> : never;

export type { ErrorEnvelope };

/** The actions of POST /v1/orders/{id}/<action>: confirm, fulfillments, payments... */
export type OrderAction = Extract<RouteEntry, { method: 'POST' }>['path'] extends infer P ? (P extends `/v1/orders/{id}/${infer A}` ? A : never) : never;
