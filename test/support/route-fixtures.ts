/**
 * What the generated security matrix needs to call any route: a valid body, and for routes with
 * path parameters, a record of a given entity to aim at. A route added without an entry here
 * fails the matrix until it gets one, so every new route is covered the day it lands.
 */
import type { Route } from '../../shared/http/route';
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;
type Seeder = (api: TestApi, owner: TestEntity) => Promise<Params>;

async function created(api: TestApi, owner: TestEntity, path: string, body: unknown): Promise<string> {
  const response = await api.request('POST', path, { key: owner.secret, body });
  if (response.status !== 201) throw new Error(`seeding ${path} failed: ${response.status} ${response.text}`);
  return response.body.id;
}

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${Date.now()}-${sequence++}`;

/** Seeds a record for each parameterised path, keyed by the route path. */
export const SEEDERS: Record<string, Seeder> = {
  '/v1/locations/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/locations', { name: unique('Loc') }) }),
  '/v1/manufacturers/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/manufacturers', { name: unique('Mfr') }) }),
  '/v1/entities/{entity_id}/api-keys': async (_api, owner) => ({ entity_id: owner.entity.id }),
  '/v1/entities/{entity_id}/api-keys/{id}': async (_api, owner) => ({ entity_id: owner.entity.id, id: owner.key.id }),
  '/v1/entities/{entity_id}/api-keys/{id}/revoke': async (_api, owner) => ({ entity_id: owner.entity.id, id: owner.key.id }),
  '/v1/entities/{entity_id}/api-keys/{id}/roll': async (_api, owner) => ({ entity_id: owner.entity.id, id: owner.key.id }),
};

/** A body each route accepts (so a 404 is not masked by a 400). */
export const SAMPLE_BODIES: Record<string, unknown> = {
  'locations.create': { name: 'Sample location' },
  'locations.update': { city: 'Sample city' },
  'manufacturers.create': { name: 'Sample manufacturer' },
  'manufacturers.update': { notes: 'Sample notes' },
  'api_keys.create': { scopes: ['settings:read'] },
  'api_keys.update': { name: 'Renamed' },
  'api_keys.roll': {},
};

export function fillPath(route: Route, params: Params): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for {${name}} of ${route.id}`);
    return params[name];
  });
}

export const hasPathParams = (route: Route) => /\{\w+\}/.test(route.path);
