/**
 * Security-matrix fixtures of the purchase order routes (spread into route-fixtures.ts): a draft
 * purchase order with one line, or a confirmed sales order with a drop-ship line, of the given entity.
 */
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;

let sequence = 0;

/** A draft purchase order with one line, from a vendor with an email. */
async function seedPurchaseOrder(api: TestApi, owner: TestEntity): Promise<{ id: string; item_id: string }> {
  const n = `${Date.now().toString(36)}-${sequence++}`;
  const vendor = await api.post(owner, '/v1/vendors', { name: `PO vendor ${n}`, email: `orders-${sequence}@vendor.example` });
  const product = await api.post(owner, '/v1/products', { sku: `PO-${n}`, name: `Purchased ${n}`, cost: 3 });
  const order = await api.post(owner, '/v1/orders', {
    document_type: 'purchase_order',
    account_id: vendor.id,
    lines: [{ product_id: product.id, quantity: 2 }],
  });
  return { id: order.id, item_id: order.lines[0].id };
}

/** A confirmed sales order with one drop-ship line. */
async function seedDropShipSalesOrder(api: TestApi, owner: TestEntity): Promise<{ id: string }> {
  const n = `${Date.now().toString(36)}-${sequence++}`;
  const vendor = await api.post(owner, '/v1/vendors', { name: `Drop vendor ${n}` });
  const account = await api.post(owner, '/v1/accounts', { name: `Drop customer ${n}` });
  const product = await api.post(owner, '/v1/products', { sku: `DS-${n}`, name: `Drop shipped ${n}`, list_price: 10, cost: 4 });
  const order = await api.post(owner, '/v1/orders', {
    document_type: 'sales_order',
    account_id: account.id,
    lines: [{ product_id: product.id, quantity: 1, is_drop_ship: true, drop_ship_vendor_id: vendor.id }],
  });
  await api.post(owner, `/v1/orders/${order.id}/confirm`, undefined, 200);
  return { id: order.id };
}

export const PURCHASE_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/orders/{id}/send': async (api, owner) => ({ id: (await seedPurchaseOrder(api, owner)).id }),
  '/v1/orders/{id}/submit': async (api, owner) => ({ id: (await seedPurchaseOrder(api, owner)).id }),
  '/v1/orders/{id}/receipts': async (api, owner) => ({ id: (await seedPurchaseOrder(api, owner)).id }),
  '/v1/orders/{id}/drop-ship-purchase-orders': async (api, owner) => ({ id: (await seedDropShipSalesOrder(api, owner)).id }),
};

export const PURCHASE_SAMPLE_BODIES: Record<string, unknown> = {
  'orders.receipts.create': { lines: [{ line_id: '00000000-0000-4000-8000-000000000001', quantity: 1 }] },
};
