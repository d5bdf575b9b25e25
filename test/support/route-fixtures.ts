/**
 * What the generated security matrix needs to call any route: a valid body, and for routes with
 * path parameters, a record of a given entity to aim at. A route added without an entry here
 * fails the matrix until it gets one, so every new route is covered the day it lands.
 */
import type { Route } from '../../shared/http/route';
import type { TestApi, TestEntity } from './harness';
import { LEDGER_SAMPLE_BODIES, LEDGER_SEEDERS } from './ledger-fixtures';
import { ORDER_SAMPLE_BODIES, ORDER_SEEDERS } from './order-fixtures';
import { PURCHASE_SAMPLE_BODIES, PURCHASE_SEEDERS } from './purchase-fixtures';
import { APPROVAL_SAMPLE_BODIES, APPROVAL_SEEDERS } from './approval-fixtures';
import { PAYMENT_SAMPLE_BODIES, PAYMENT_SEEDERS } from './payment-fixtures';
import { PAYMENT_METHOD_SAMPLE_BODIES, PAYMENT_METHOD_SEEDERS } from './payment-method-fixtures';
import { COUPON_SAMPLE_BODIES, COUPON_SEEDERS } from './coupon-fixtures';
export { NOT_FOUND_CODES } from './order-fixtures';

type Params = Record<string, string>;
type Seeder = (api: TestApi, owner: TestEntity) => Promise<Params>;

async function created(api: TestApi, owner: TestEntity, path: string, body: unknown): Promise<string> {
  const response = await api.request('POST', path, { key: owner.secret, body });
  if (response.status !== 201) throw new Error(`seeding ${path} failed: ${response.status} ${response.text}`);
  return response.body.id;
}

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${Date.now()}-${sequence++}`;

async function seedKit(api: TestApi, owner: TestEntity): Promise<string> {
  const component = await created(api, owner, '/v1/products', { sku: unique('C'), name: unique('Component') });
  return created(api, owner, '/v1/kits', {
    sku: unique('K'),
    product_name: unique('Kit'),
    components: [{ component_product_id: component, quantity_per_kit: 2 }],
  });
}

/** A kit with two components (so one can be removed) and the id of its first component row. */
async function seedKitComponent(api: TestApi, owner: TestEntity): Promise<Params> {
  const first = await created(api, owner, '/v1/products', { sku: unique('C'), name: unique('Component') });
  const second = await created(api, owner, '/v1/products', { sku: unique('C'), name: unique('Component') });
  const kit = await api.request('POST', '/v1/kits', {
    key: owner.secret,
    body: {
      sku: unique('K'),
      product_name: unique('Kit'),
      components: [
        { component_product_id: first, quantity_per_kit: 1 },
        { component_product_id: second, quantity_per_kit: 1 },
      ],
    },
  });
  if (kit.status !== 201) throw new Error(`seeding a kit failed: ${kit.status} ${kit.text}`);
  return { id: kit.body.id, component_id: kit.body.components[0].id };
}

async function seedReceipt(api: TestApi, owner: TestEntity): Promise<{ transactionId: string; productId: string }> {
  const location = await created(api, owner, '/v1/locations', { name: unique('Loc') });
  const productId = await created(api, owner, '/v1/products', { sku: unique('S'), name: unique('Stocked') });
  const transactionId = await created(api, owner, '/v1/inventory/receipts', { product_id: productId, location_id: location, quantity: 3, unit_cost: 1 });
  return { transactionId, productId };
}

/** Seeds a record for each parameterised path, keyed by the route path. */
export const SEEDERS: Record<string, Seeder> = {
  '/v1/locations/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/locations', { name: unique('Loc') }) }),
  '/v1/manufacturers/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/manufacturers', { name: unique('Mfr') }) }),
  '/v1/units-of-measure/{id}': async (api, owner) => ({
    // A type of its own, so this unit is its type's base and needs no conversion factor.
    id: await created(api, owner, '/v1/units-of-measure', { name: unique('Unit'), abbreviation: unique('u'), uom_type: `t${sequence++}_${Date.now()}` }),
  }),
  '/v1/products/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/products', { sku: unique('SKU'), name: unique('Product') }) }),
  '/v1/accounts/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/accounts', { name: unique('Account') }) }),
  '/v1/accounts/{id}/archive': async (api, owner) => ({ id: await created(api, owner, '/v1/accounts', { name: unique('Account') }) }),
  '/v1/accounts/{id}/unarchive': async (api, owner) => ({ id: await created(api, owner, '/v1/accounts', { name: unique('Account') }) }),
  '/v1/vendors/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/vendors', { name: unique('Vendor') }) }),
  '/v1/vendors/{id}/archive': async (api, owner) => ({ id: await created(api, owner, '/v1/vendors', { name: unique('Vendor') }) }),
  '/v1/vendors/{id}/unarchive': async (api, owner) => ({ id: await created(api, owner, '/v1/vendors', { name: unique('Vendor') }) }),
  ...LEDGER_SEEDERS,
  ...ORDER_SEEDERS,
  ...PURCHASE_SEEDERS,
  ...APPROVAL_SEEDERS,
  ...PAYMENT_SEEDERS,
  ...PAYMENT_METHOD_SEEDERS,
  ...COUPON_SEEDERS,
  '/v1/kits/{id}': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/builds': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/availability': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/products/{id}/components': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/components': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/components/{component_id}': seedKitComponent,
  '/v1/inventory/transactions/{id}': async (api, owner) => ({ id: (await seedReceipt(api, owner)).transactionId }),
  '/v1/inventory/balances/{id}': async (api, owner) => {
    const { productId } = await seedReceipt(api, owner);
    const list = await api.request('GET', '/v1/inventory/balances', { key: owner.secret, query: { product_id: productId } });
    return { id: list.body.data[0].id };
  },
  '/v1/products/{id}/options': async (api, owner) => ({ id: await created(api, owner, '/v1/products', { sku: unique('O'), name: unique('Optioned') }) }),
  '/v1/products/{id}/options/reorder': async (api, owner) => ({
    id: await created(api, owner, '/v1/products', { sku: unique('O'), name: unique('Optioned') }),
  }),
  '/v1/products/{id}/options/{option_id}': async (api, owner) => {
    const id = await created(api, owner, '/v1/products', { sku: unique('O'), name: unique('Optioned') });
    return { id, option_id: await created(api, owner, `/v1/products/${id}/options`, { name: unique('Size') }) };
  },
  '/v1/products/{id}/vendors': async (api, owner) => ({ id: await created(api, owner, '/v1/products', { sku: unique('V'), name: unique('Sourced') }) }),
  '/v1/products/{id}/vendors/{pvid}': async (api, owner) => {
    const id = await created(api, owner, '/v1/products', { sku: unique('V'), name: unique('Sourced') });
    const vendor = await created(api, owner, '/v1/vendors', { name: unique('Vendor') });
    return { id, pvid: await created(api, owner, `/v1/products/${id}/vendors`, { vendor_id: vendor }) };
  },
  '/v1/pricing-levels/{id}': async (api, owner) => ({ id: await created(api, owner, '/v1/pricing-levels', { name: unique('Level') }) }),
  '/v1/pricing-policies/{id}': async (api, owner) => {
    const product = await created(api, owner, '/v1/products', { sku: unique('PP'), name: unique('Priced') });
    return { id: await created(api, owner, '/v1/pricing-policies', { product_id: product, sell_price: 5 }) };
  },
  '/v1/tags/{resourceType}/{resourceId}': async (api, owner) => ({
    resourceType: 'product',
    resourceId: await created(api, owner, '/v1/products', { sku: unique('T'), name: unique('Tagged') }),
  }),
  '/v1/tags/{resourceType}/{resourceId}/{tagId}': async (api, owner) => {
    const resourceId = await created(api, owner, '/v1/products', { sku: unique('T'), name: unique('Tagged') });
    const tagId = await created(api, owner, '/v1/tags', { name: unique('Tag') });
    const attached = await api.request('POST', `/v1/tags/product/${resourceId}`, { key: owner.secret, body: { tag_id: tagId } });
    if (attached.status !== 200) throw new Error(`seeding a tag attachment failed: ${attached.text}`);
    return { resourceType: 'product', resourceId, tagId };
  },
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
  'units_of_measure.create': { name: 'Each', abbreviation: 'ea', uom_type: 'count' },
  'units_of_measure.update': { name: 'Renamed unit' },
  'products.create': { sku: 'SAMPLE-1', name: 'Sample product' },
  'products.update': { name: 'Renamed product' },
  'accounts.create': { name: 'Sample account' },
  'accounts.update': { notes: 'Sample notes' },
  'vendors.create': { name: 'Sample vendor' },
  'vendors.update': { notes: 'Sample notes' },
  ...LEDGER_SAMPLE_BODIES,
  ...ORDER_SAMPLE_BODIES,
  ...PURCHASE_SAMPLE_BODIES,
  ...APPROVAL_SAMPLE_BODIES,
  ...PAYMENT_SAMPLE_BODIES,
  ...PAYMENT_METHOD_SAMPLE_BODIES,
  ...COUPON_SAMPLE_BODIES,
  'kits.create': {
    sku: 'SAMPLE-KIT',
    product_name: 'Sample kit',
    components: [{ component_product_id: '00000000-0000-4000-8000-000000000001', quantity_per_kit: 1 }],
  },
  'kits.builds.create': { location_id: '00000000-0000-4000-8000-000000000002', quantity: 1 },
  'kits.components.create': { component_product_id: '00000000-0000-4000-8000-000000000001', quantity_per_kit: 1 },
  'inventory.receipts.create': {
    product_id: '00000000-0000-4000-8000-000000000001',
    location_id: '00000000-0000-4000-8000-000000000002',
    quantity: 1,
    unit_cost: 1,
  },
  'inventory.adjustments.create': {
    product_id: '00000000-0000-4000-8000-000000000001',
    location_id: '00000000-0000-4000-8000-000000000002',
    quantity: 1,
    reason: 'count',
  },
  'inventory.transfers.create': {
    product_id: '00000000-0000-4000-8000-000000000001',
    from_location_id: '00000000-0000-4000-8000-000000000002',
    to_location_id: '00000000-0000-4000-8000-000000000003',
    quantity: 1,
  },
  'products.options.create': { name: 'Sample option' },
  'products.options.reorder': { order: ['00000000-0000-4000-8000-000000000001'] },
  'products.vendors.create': { vendor_id: '00000000-0000-4000-8000-000000000001' },
  'products.vendors.update': { order_multiple: 6 },
  'pricing_levels.create': { name: 'Sample level' },
  'pricing_policies.create': { product_id: '00000000-0000-4000-8000-000000000001', sell_price: 1 },
  'tags.create': { name: 'Sample tag' },
  'tags.resource.attach': { tag_id: '00000000-0000-4000-8000-000000000001' },
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
