/**
 * What the infrastructure needs to know about each route, and how routes are spread over nested
 * stacks. Pure data and pure functions: tests feed them synthetic route tables.
 */
import type { HttpMethod } from '../shared/http/route';

export interface RouteSpec {
  /** Handler module path under functions/ (e.g. `locations/create-location`); also the bundle name. */
  key: string;
  /** Stable route id (e.g. `locations.create`): names the construct and the API operation. */
  id: string;
  method: HttpMethod;
  /** API Gateway style path with {param} placeholders, e.g. `/v1/locations/{id}`. */
  path: string;
  auth: 'api_key' | 'none';
}

interface RouteModuleLike {
  route: { id: string; method: HttpMethod; path: string; auth: 'api_key' | 'none' };
}

const KEY = /^[a-z0-9_-]+(\/[a-z0-9_-]+)+$/;
/** The API under /v1, and its reference page (/docs and its assets) at the root. */
const PATH = /^(\/v1(\/([a-z0-9_.-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))+|\/docs(\/[a-z0-9_.-]+)?)$/;

/** The route table as infrastructure data; rejects tables API Gateway or CloudFormation would reject later. */
export function routeSpecs(modules: Record<string, RouteModuleLike>): RouteSpec[] {
  const specs = Object.entries(modules).map(([key, { route }]): RouteSpec => ({ key, id: route.id, method: route.method, path: route.path, auth: route.auth }));
  validateRouteSpecs(specs);
  return specs;
}

export function validateRouteSpecs(specs: RouteSpec[]): void {
  const problems: string[] = [];
  const seenIds = new Set<string>();
  const seenEndpoints = new Set<string>();
  // API Gateway allows one parameter name per path position under a given parent.
  const paramAt = new Map<string, string>();
  for (const spec of specs) {
    if (!KEY.test(spec.key)) problems.push(`${spec.key}: module key must look like area/module-name`);
    if (!PATH.test(spec.path)) problems.push(`${spec.key}: path ${spec.path} must start with /v1 (or be the /docs page) and use {param} placeholders`);
    if (seenIds.has(spec.id)) problems.push(`${spec.key}: duplicate route id ${spec.id}`);
    seenIds.add(spec.id);
    const endpoint = `${spec.method} ${spec.path}`;
    if (seenEndpoints.has(endpoint)) problems.push(`${spec.key}: duplicate endpoint ${endpoint}`);
    seenEndpoints.add(endpoint);
    const segments = spec.path.split('/').slice(1);
    segments.forEach((segment, index) => {
      if (!segment.startsWith('{')) return;
      const parent = segments.slice(0, index).join('/');
      const existing = paramAt.get(parent);
      if (existing && existing !== segment) problems.push(`${spec.key}: ${segment} conflicts with ${existing} under /${parent}`);
      paramAt.set(parent, segment);
    });
  }
  if (problems.length) throw new Error(`invalid route table:\n  ${problems.join('\n  ')}`);
}

/** Routes per nested stack: each route costs three resources (function, log group, permission). */
export const ROUTES_PER_NESTED_STACK = 25;

/**
 * Splits the route table into nested-stack chunks: sorted by module key so the assignment is
 * deterministic. A route inserted in the middle shifts later routes into the next chunk; that is
 * safe because nothing in a chunk has a physical name (the moved function is created in its new
 * stack before the old one is deleted).
 */
export function chunkRoutes<T extends { key: string }>(routes: readonly T[], size = ROUTES_PER_NESTED_STACK): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error('chunk size must be a positive integer');
  const sorted = [...routes].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const chunks: T[][] = [];
  for (let start = 0; start < sorted.length; start += size) chunks.push(sorted.slice(start, start + size));
  return chunks;
}

/** `locations.create` → `LocationsCreate`: a construct id that survives CloudFormation's logical-id rules. */
export function constructIdOf(routeId: string): string {
  return routeId
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/** Path parameter names of a route, e.g. `/v1/locations/{id}` → ['id']. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}
