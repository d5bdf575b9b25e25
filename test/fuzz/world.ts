/**
 * The caller's world the fuzzer aims at: one entity with a record behind every parameterised
 * path (the security matrix's SEEDERS), real ids by property name for bodies and queries, and a
 * fingerprint of every tenant row of the entity to prove a refused request wrote nothing.
 */
import { withTransaction } from '../../shared/db/database';
import type { TestApi, TestEntity } from '../support/harness';
import { SAMPLE_BODIES, SEEDERS } from '../support/route-fixtures';
import { salesWorld } from '../support/worlds';
import { operationsOf, type Operation } from './operations';
import type { FuzzWorld } from './requests';

type Params = Record<string, string>;

/** The key routes of the fuzzing key's own entity aim at a spare key: revoking or rolling the caller's key would end the run. */
async function spareKey(api: TestApi, owner: TestEntity): Promise<Params> {
  const response = await api.request('POST', `/v1/entities/${owner.entity.id}/api-keys`, { key: owner.secret, body: { scopes: ['settings:read'] } });
  if (response.status !== 201) throw new Error(`spare key: ${response.status} ${response.text}`);
  return { entity_id: owner.entity.id, id: response.body.id };
}

/** The property name an id of a path parameter goes by in bodies and queries (`/v1/orders/{id}` → order_id). */
function idNames(path: string, parameter: string): string[] {
  if (parameter !== 'id')
    return { item_id: ['item_id', 'line_id'], tagId: ['tag_id'], pvid: ['product_vendor_id'], resourceId: ['resource_id'] }[parameter] ?? [parameter];
  const segments = path.split('/');
  const resource = segments[segments.indexOf('{id}') - 1] ?? '';
  const singular = resource.replace(/-/g, '_').replace(/ies$/, 'y').replace(/s$/, '');
  return { units_of_measure: ['unit_of_measure_id', 'uom_id'], gl_account: ['gl_account_id', 'account_id'] }[singular] ?? [`${singular}_id`];
}

export interface SeededWorld extends FuzzWorld {
  operations: Operation[];
  owner: TestEntity;
}

/** Seeds the world through the API and reads the operations from the served OpenAPI document. */
export async function seedWorld(api: TestApi): Promise<SeededWorld> {
  const document = await api.raw('GET', '/v1/openapi.json');
  if (document.status !== 200) throw new Error(`GET /v1/openapi.json: ${document.status}`);
  const operations = operationsOf(document.body as Record<string, unknown>);

  const world = await salesWorld(api, { vendor: { name: 'Fuzz vendor' }, widgetStock: 50 });
  const { owner } = world;
  const pool = new Map<string, Set<string>>();
  const add = (name: string, id: string) => pool.set(name, (pool.get(name) ?? new Set()).add(id));
  add('location_id', world.location.id);
  add('from_location_id', world.location.id);
  add('to_location_id', world.location.id);
  add('account_id', world.account.id);
  add('vendor_id', world.vendor.id);
  add('account_id', world.vendor.id);
  for (const product of [world.widget, world.gadget]) {
    add('product_id', product.id);
    add('component_product_id', product.id);
  }

  const params: Record<string, Params> = {};
  const paths = [...new Set(operations.filter((op) => op.pathParams.length > 0).map((op) => op.path))].sort();
  for (const path of paths) {
    const seed = path.startsWith('/v1/entities/{entity_id}/api-keys/') ? spareKey : SEEDERS[path];
    if (!seed) {
      // The entity's own routes need only its id.
      if (path.startsWith('/v1/entities/{entity_id}/')) params[path] = { entity_id: owner.entity.id };
      else throw new Error(`fuzz: no seeder for ${path} (add one to test/support/route-fixtures.ts)`);
      continue;
    }
    params[path] = await seed(api, owner);
    for (const [name, id] of Object.entries(params[path])) for (const alias of idNames(path, name)) add(alias, id);
  }
  const every = [...new Set([...pool.values()].flatMap((ids) => [...ids]))].filter((id) => /^[0-9a-f-]{36}$/.test(id)).sort();
  const sorted = new Map([...pool].map(([name, ids]) => [name, [...ids].sort()]));
  return {
    operations,
    owner,
    secret: owner.secret,
    entityId: owner.entity.id,
    params,
    samples: SAMPLE_BODIES,
    // An id property with no pool of its own (a payment's invoice_ids) gets any id of the world.
    ids: (name) => (name === '*' ? every : (sorted.get(name) ?? (name.endsWith('_id') || name.endsWith('_ids') ? every : []))),
  };
}

/**
 * One statement that changes whenever any tenant row of the entity is inserted, updated or
 * deleted: per table, the row count and the sum of the rows' xmin (the id of the transaction that
 * wrote each row version; an UPDATE always makes a new version, even to the same values).
 */
export async function fingerprintQuery(entityId: string): Promise<string> {
  const tables = await withTransaction({ role: 'app_user', entityId }, (db) =>
    db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'entity_id' ORDER BY table_name`,
    ),
  );
  const columns = tables.map(({ table_name }) => `(SELECT count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) FROM "${table_name}") AS "${table_name}"`);
  return `SELECT ${columns.join(', ')}`;
}

export type Fingerprint = Record<string, string>;

export function fingerprint(entityId: string, query: string): Promise<Fingerprint> {
  return withTransaction({ role: 'app_user', entityId, readOnly: true }, (db) => db.one<Fingerprint>(query));
}

/** The tables whose rows differ between two fingerprints. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys(after).filter((table) => before[table] !== after[table]);
}
