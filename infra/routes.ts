/**
 * What the infrastructure needs to know about each route, and how routes are spread over the
 * API's nested stacks (one per area). Pure data and pure functions: tests feed them other tables.
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

/**
 * The path resources every area hangs from: they belong to the API stack itself. Everything below
 * them belongs to one area (see apiAreaOf).
 */
export const SHARED_API_PATHS: readonly string[] = ['/v1', '/v1/entities', '/v1/entities/{entity_id}'];

/** Where a route sits in the API: its area (the functions/ folder) and the path resource the area's subtree starts at. */
interface ApiArea {
  /** `orders`, `api-keys`, `openapi`: the folder under functions/ its routes live in (test/unit/route-table.test.ts). */
  name: string;
  /** `/v1/orders`, `/v1/entities/{entity_id}/api-keys`, `/v1/openapi.json`, `/docs`. */
  rootPath: string;
}

/**
 * The area of a path, from the path alone: the first segment after /v1 (after
 * /v1/entities/{entity_id} for platform routes), or the reference page at /docs. The API's nested
 * stacks are cut along areas, so a path resource's stack never depends on which other routes
 * exist: adding a route never moves a resource to another stack, which API Gateway could not do in
 * place (two resources with one path cannot exist side by side).
 */
export function apiAreaOf(path: string): ApiArea {
  const segments = path.split('/').slice(1);
  if (segments[0] === 'docs') return { name: 'docs', rootPath: '/docs' };
  const platform = segments[1] === 'entities' && segments[2] === '{entity_id}' && segments.length > 3;
  const depth = platform ? 4 : 2;
  if (segments[0] !== 'v1' || segments.length < depth) throw new Error(`${path} is not under an area of the API`);
  return { name: segments[depth - 1].replace(/\.json$/, ''), rootPath: `/${segments.slice(0, depth).join('/')}` };
}

/** Routes by area, areas and routes sorted, so the stacks come out the same whatever the table's order. */
export function routesByArea<T extends { key: string; path: string }>(routes: readonly T[]): Map<string, T[]> {
  const areas = new Map<string, T[]>();
  const sorted = [...routes].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const route of sorted) {
    const { name } = apiAreaOf(route.path);
    areas.set(name, [...(areas.get(name) ?? []), route]);
  }
  return new Map([...areas].sort(([a], [b]) => (a < b ? -1 : 1)));
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
