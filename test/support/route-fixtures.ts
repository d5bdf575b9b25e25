/**
 * What the generated security matrix needs to call any route: a valid body, and for routes with
 * path parameters, a record of a given entity to aim at. A route added without an entry here
 * fails the matrix until it gets one, so every new route is covered the day it lands.
 */
import type { Route } from '../../shared/http/route';
import type { TestApi, TestEntity } from './harness';
import { LEDGER_SAMPLE_BODIES, LEDGER_SAMPLE_QUERIES, LEDGER_SEEDERS } from './ledger-fixtures';
import { ORDER_SAMPLE_BODIES, ORDER_SEEDERS } from './order-fixtures';
import { PURCHASE_SAMPLE_BODIES, PURCHASE_SEEDERS } from './purchase-fixtures';
import { APPROVAL_SAMPLE_BODIES, APPROVAL_SEEDERS } from './approval-fixtures';
import { PAYMENT_SAMPLE_BODIES, PAYMENT_SEEDERS } from './payment-fixtures';
import { PAYMENT_METHOD_SAMPLE_BODIES, PAYMENT_METHOD_SEEDERS } from './payment-method-fixtures';
import { COUPON_SAMPLE_BODIES, COUPON_SEEDERS } from './coupon-fixtures';
import { PAYABLES_SAMPLE_BODIES, PAYABLES_SEEDERS } from './payables-fixtures';
import { AP_SAMPLE_BODIES, AP_SEEDERS } from './ap-fixtures';
import { WEBHOOK_SAMPLE_BODIES, WEBHOOK_SEEDERS } from './webhook-fixtures';
import { MIGRATION_BATCH_SAMPLE_BODIES, MIGRATION_BATCH_SEEDERS } from './migration-batch-fixtures';
import { CUTOVER_SAMPLE_BODIES, CUTOVER_SEEDERS } from './cutover-fixtures';
export { NOT_FOUND_CODES } from './order-fixtures';

type Params = Record<string, string>;
type Seeder = (api: TestApi, owner: TestEntity) => Promise<Params>;

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${sequence++}`;

async function seedKit(api: TestApi, owner: TestEntity): Promise<string> {
  const component = (await api.post(owner, '/v1/products', { sku: unique('C'), name: unique('Component') })).id;
  const kit = await api.post(owner, '/v1/kits', {
    sku: unique('K'),
    product_name: unique('Kit'),
    components: [{ component_product_id: component, quantity_per_kit: 2 }],
  });
  return kit.id;
}

/** A kit with two components (so one can be removed) and the id of its first component row. */
async function seedKitComponent(api: TestApi, owner: TestEntity): Promise<Params> {
  const first = (await api.post(owner, '/v1/products', { sku: unique('C'), name: unique('Component') })).id;
  const second = (await api.post(owner, '/v1/products', { sku: unique('C'), name: unique('Component') })).id;
  const kit = await api.post(owner, '/v1/kits', {
    sku: unique('K'),
    product_name: unique('Kit'),
    components: [
      { component_product_id: first, quantity_per_kit: 1 },
      { component_product_id: second, quantity_per_kit: 1 },
    ],
  });
  return { id: kit.id, component_id: kit.components[0].id };
}

async function seedReceipt(api: TestApi, owner: TestEntity): Promise<{ transactionId: string; productId: string }> {
  const location = (await api.post(owner, '/v1/locations', { name: unique('Loc') })).id;
  const productId = (await api.post(owner, '/v1/products', { sku: unique('S'), name: unique('Stocked') })).id;
  const transactionId = (await api.post(owner, '/v1/inventory/receipts', { product_id: productId, location_id: location, quantity: 3, unit_cost: 1 })).id;
  return { transactionId, productId };
}

/** Seeds a record for each parameterised path, keyed by the route path. */
export const SEEDERS: Record<string, Seeder> = {
  '/v1/entities/{entity_id}/reconciliation/inventory-valuation': (_api, owner) => Promise.resolve({ entity_id: owner.entity.id }),
  '/v1/locations/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/locations', { name: unique('Loc') })).id }),
  '/v1/manufacturers/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/manufacturers', { name: unique('Mfr') })).id }),
  '/v1/units-of-measure/{id}': async (api, owner) => ({
    // A type of its own, so this unit is its type's base and needs no conversion factor.
    id: (
      await api.post(owner, '/v1/units-of-measure', { name: unique('Unit'), abbreviation: unique('u'), uom_type: `t${sequence++}_${Date.now().toString(36)}` })
    ).id,
  }),
  '/v1/products/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/products', { sku: unique('SKU'), name: unique('Product') })).id }),
  '/v1/accounts/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/accounts', { name: unique('Account') })).id }),
  '/v1/accounts/{id}/archive': async (api, owner) => ({ id: (await api.post(owner, '/v1/accounts', { name: unique('Account') })).id }),
  '/v1/accounts/{id}/unarchive': async (api, owner) => ({ id: (await api.post(owner, '/v1/accounts', { name: unique('Account') })).id }),
  '/v1/vendors/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/vendors', { name: unique('Vendor') })).id }),
  '/v1/vendors/{id}/archive': async (api, owner) => ({ id: (await api.post(owner, '/v1/vendors', { name: unique('Vendor') })).id }),
  '/v1/vendors/{id}/unarchive': async (api, owner) => ({ id: (await api.post(owner, '/v1/vendors', { name: unique('Vendor') })).id }),
  ...LEDGER_SEEDERS,
  ...ORDER_SEEDERS,
  ...PURCHASE_SEEDERS,
  ...APPROVAL_SEEDERS,
  ...PAYMENT_SEEDERS,
  ...PAYMENT_METHOD_SEEDERS,
  ...COUPON_SEEDERS,
  ...PAYABLES_SEEDERS,
  ...AP_SEEDERS,
  '/v1/kits/{id}': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/builds': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/availability': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/products/{id}/components': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/components': async (api, owner) => ({ id: await seedKit(api, owner) }),
  '/v1/kits/{id}/components/{component_id}': seedKitComponent,
  '/v1/inventory/transactions/{id}': async (api, owner) => ({ id: (await seedReceipt(api, owner)).transactionId }),
  '/v1/inventory/balances/{id}': async (api, owner) => {
    const { productId } = await seedReceipt(api, owner);
    const list = await api.get(owner, '/v1/inventory/balances', { product_id: productId });
    return { id: list.data[0].id };
  },
  '/v1/products/{id}/options': async (api, owner) => ({ id: (await api.post(owner, '/v1/products', { sku: unique('O'), name: unique('Optioned') })).id }),
  '/v1/products/{id}/options/reorder': async (api, owner) => ({
    id: (await api.post(owner, '/v1/products', { sku: unique('O'), name: unique('Optioned') })).id,
  }),
  '/v1/products/{id}/options/{option_id}': async (api, owner) => {
    const id = (await api.post(owner, '/v1/products', { sku: unique('O'), name: unique('Optioned') })).id;
    return { id, option_id: (await api.post(owner, `/v1/products/${id}/options`, { name: unique('Size') })).id };
  },
  '/v1/products/{id}/vendors': async (api, owner) => ({ id: (await api.post(owner, '/v1/products', { sku: unique('V'), name: unique('Sourced') })).id }),
  '/v1/products/{id}/vendors/{pvid}': async (api, owner) => {
    const id = (await api.post(owner, '/v1/products', { sku: unique('V'), name: unique('Sourced') })).id;
    const vendor = (await api.post(owner, '/v1/vendors', { name: unique('Vendor') })).id;
    return { id, pvid: (await api.post(owner, `/v1/products/${id}/vendors`, { vendor_id: vendor })).id };
  },
  '/v1/pricing-levels/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/pricing-levels', { name: unique('Level') })).id }),
  '/v1/pricing-policies/{id}': async (api, owner) => {
    const product = (await api.post(owner, '/v1/products', { sku: unique('PP'), name: unique('Priced') })).id;
    return { id: (await api.post(owner, '/v1/pricing-policies', { product_id: product, sell_price: 5 })).id };
  },
  '/v1/tags/{resourceType}/{resourceId}': async (api, owner) => ({
    resourceType: 'product',
    resourceId: (await api.post(owner, '/v1/products', { sku: unique('T'), name: unique('Tagged') })).id,
  }),
  '/v1/tags/{resourceType}/{resourceId}/{tagId}': async (api, owner) => {
    const resourceId = (await api.post(owner, '/v1/products', { sku: unique('T'), name: unique('Tagged') })).id;
    const tagId = (await api.post(owner, '/v1/tags', { name: unique('Tag') })).id;
    await api.post(owner, `/v1/tags/product/${resourceId}`, { tag_id: tagId }, 200);
    return { resourceType: 'product', resourceId, tagId };
  },
  '/v1/entities/{entity_id}/api-keys': (_api, owner) => Promise.resolve({ entity_id: owner.entity.id }),
  '/v1/entities/{entity_id}/api-keys/{id}': (_api, owner) => Promise.resolve({ entity_id: owner.entity.id, id: owner.key.id }),
  '/v1/entities/{entity_id}/api-keys/{id}/revoke': (_api, owner) => Promise.resolve({ entity_id: owner.entity.id, id: owner.key.id }),
  '/v1/entities/{entity_id}/api-keys/{id}/roll': (_api, owner) => Promise.resolve({ entity_id: owner.entity.id, id: owner.key.id }),
  ...WEBHOOK_SEEDERS,
  ...MIGRATION_BATCH_SEEDERS,
  ...CUTOVER_SEEDERS,
};

/** A body each route accepts (so a 404 is not masked by a 400). */
export const SAMPLE_BODIES: Record<string, unknown> = {
  'batch.run': { operations: [{ method: 'POST', path: '/v1/accounts', body: { name: 'Batch sample account' } }] },
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
  ...PAYABLES_SAMPLE_BODIES,
  ...AP_SAMPLE_BODIES,
  ...WEBHOOK_SAMPLE_BODIES,
  ...MIGRATION_BATCH_SAMPLE_BODIES,
  ...CUTOVER_SAMPLE_BODIES,
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

/** The required query parameters of GET routes that have any (route id → query). */
export const SAMPLE_QUERIES: Record<string, Record<string, string>> = { ...LEDGER_SAMPLE_QUERIES };

export function fillPath(route: Route, params: Params): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for {${name}} of ${route.id}`);
    return params[name];
  });
}

export const hasPathParams = (route: Route) => /\{\w+\}/.test(route.path);
