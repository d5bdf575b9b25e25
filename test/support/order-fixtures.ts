/**
 * Security-matrix fixtures of the order routes (spread into route-fixtures.ts): a draft order with
 * one line of the given entity for each parameterised path, and a valid body for each route.
 */
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;

let sequence = 0;

/** A draft sales order with one line. */
export async function seedOrder(api: TestApi, owner: TestEntity): Promise<{ id: string; item_id: string }> {
  const n = `${Date.now().toString(36)}-${sequence++}`;
  const account = await api.post(owner, '/v1/accounts', { name: `Order customer ${n}` });
  const product = await api.post(owner, '/v1/products', { sku: `ORD-${n}`, name: `Ordered ${n}`, list_price: 10 });
  const order = await api.post(owner, '/v1/orders', {
    document_type: 'sales_order',
    account_id: account.id,
    lines: [{ product_id: product.id, quantity: 2 }],
  });
  return { id: order.id, item_id: order.lines[0].id };
}

export const ORDER_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/orders/{id}': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/duplicate': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/lines': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/adjustments': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/items/{item_id}': (api, owner) => seedOrder(api, owner),
  '/v1/orders/{id}/confirm': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/hold': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/release': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/cancel': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/void': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/archive': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/unarchive': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/apply-credit': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/refund-credit': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/convert': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/fulfillments': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/returns': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/receive-return': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/entities/{entity_id}/reconciliation/ar-aging': (_api, owner) => Promise.resolve({ entity_id: owner.entity.id }),
};

export const ORDER_SAMPLE_BODIES: Record<string, unknown> = {
  'orders.create': { document_type: 'sales_order', account_id: '00000000-0000-4000-8000-000000000001' },
  'orders.update': { notes: 'Sample notes' },
  'orders.lines.create': { product_id: '00000000-0000-4000-8000-000000000001', quantity: 1 },
  'orders.items.update': { notes: 'Sample notes' },
  'orders.adjustments.create': { name: 'Sample', effect_type: 'discount', discount_type: 'percentage', value: 5 },
  'orders.hold': { hold_type: 'credit' },
  'orders.fulfillments.create': { lines: [{ line_id: '00000000-0000-4000-8000-000000000001', quantity: 1 }] },
  'orders.returns.create': { lines: [{ line_id: '00000000-0000-4000-8000-000000000001', quantity: 1 }] },
  'orders.credit.apply': { invoice_id: '00000000-0000-4000-8000-000000000001' },
  'orders.credit.refund': { bank_account_id: '00000000-0000-4000-8000-000000000001' },
};

/** Routes whose "not in this entity" answer carries a more precise code than not_found (the spec names it). */
export const NOT_FOUND_CODES: Record<string, string> = {
  'orders.adjustments.create': 'order_not_found',
  'orders.adjustments.delete': 'order_not_found',
  'orders.apply_coupon': 'order_not_found',
};
