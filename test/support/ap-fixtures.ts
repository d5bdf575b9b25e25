/**
 * Factories of the vendor credit, AP payment and AP aging tests, and the security-matrix fixtures
 * of those routes (spread into route-fixtures.ts). Bills are posted by the owner with
 * skip_permission_check (the owner's key holds migration:write), so a test needs no approver.
 */
import type { BodyFor, Caller } from './client';
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;
type BillBody = BodyFor<'POST', '/v1/vendor-bills'>;

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${sequence++}`;

export interface ApWorld {
  api: TestApi;
  owner: TestEntity;
  vendor: { id: string };
  /** The system accounts by system_key. */
  system: Record<string, string>;
  expense: string;
  /** The bank_account_id of the operating bank account. */
  bankAccountId: string;
  /** A posted (open) bill of `amount` for the vendor (or another), dated bill_date. */
  postedBill(amount?: number | string, extra?: Partial<BillBody>, caller?: Caller): Promise<{ id: string; bill_number: string; bill_total: number }>;
  /** A vendor credit for the vendor. */
  credit(amount?: number | string, extra?: Partial<BodyFor<'POST', '/v1/vendor-credits'>>): Promise<{ id: string; credit_number: string }>;
  /** A new vendor of the entity. */
  newVendor(): Promise<{ id: string }>;
}

export async function apWorld(api: TestApi, owner?: TestEntity): Promise<ApWorld> {
  const entity = owner ?? (await api.newEntity());
  const accounts = await api.get(entity, '/v1/gl-accounts', { limit: '100' });
  const system = Object.fromEntries(accounts.data.flatMap((a) => (a.system_key ? [[a.system_key, a.id]] : [])));
  const bank = accounts.data.find((a) => a.system_key === 'bank');
  if (!bank?.bank_account_id) throw new Error('the entity has no operating bank account');
  const expense = (await api.post(entity, '/v1/gl-accounts', { code: `X${sequence++}`, name: unique('Supplies'), type: 'expense' })).id;
  const vendor = await api.post(entity, '/v1/vendors', { name: unique('Supplier') });
  return {
    api,
    owner: entity,
    vendor,
    system,
    expense,
    bankAccountId: bank.bank_account_id,
    postedBill: async (amount = 100, extra = {}, caller = entity.secret) => {
      const draft = await api.post(caller, '/v1/vendor-bills', { vendor_id: vendor.id, lines: [{ type: 'expense', account_id: expense, amount }], ...extra });
      const posted = await api.post(caller, `/v1/vendor-bills/${draft.id}/post`, { skip_permission_check: true }, 200);
      return { id: posted.id, bill_number: posted.bill_number, bill_total: posted.bill_total };
    },
    credit: async (amount = 10, extra = {}) => {
      const credit = await api.post(entity, '/v1/vendor-credits', { vendor_id: vendor.id, amount, ...extra });
      return { id: credit.id, credit_number: credit.credit_number };
    },
    newVendor: async () => api.post(entity, '/v1/vendors', { name: unique('Supplier') }),
  };
}

async function seedCredit(api: TestApi, owner: TestEntity): Promise<Params> {
  const vendor = await api.post(owner, '/v1/vendors', { name: unique('Matrix vendor') });
  return { id: (await api.post(owner, '/v1/vendor-credits', { vendor_id: vendor.id, amount: 5 })).id };
}

async function seedPayment(api: TestApi, owner: TestEntity): Promise<Params> {
  const world = await apWorld(api, owner);
  const bill = await world.postedBill(20);
  const payment = await api.post(owner, '/v1/ap-payments', {
    bills: [{ bill_id: bill.id, amount: 5 }],
    bank_account_id: world.bankAccountId,
    method: 'check',
    reference: '1001',
  });
  return { id: payment.id };
}

/** A purchase order of 2 units at 3.00, confirmed and received in full at a location of its own. */
export async function receivedPurchaseOrder(
  api: TestApi,
  owner: TestEntity,
  options: { vendorId?: string; productId?: string; quantity?: number; unitCost?: number } = {},
): Promise<{ id: string; lineId: string; locationId: string; productId: string; vendorId: string }> {
  const location = await api.post(owner, '/v1/locations', { name: unique('Return dock') });
  const vendorId = options.vendorId ?? (await api.post(owner, '/v1/vendors', { name: unique('Return vendor') })).id;
  const productId =
    options.productId ?? (await api.post(owner, '/v1/products', { sku: unique('RET').replace(/ /g, '-'), name: unique('Returnable'), cost: 3 })).id;
  const quantity = options.quantity ?? 2;
  const order = await api.post(owner, '/v1/orders', {
    document_type: 'purchase_order',
    account_id: vendorId,
    location_id: location.id,
    lines: [{ product_id: productId, quantity, sell_rate: options.unitCost ?? 3 }],
  });
  await api.post(owner, `/v1/orders/${order.id}/confirm`, undefined, 200);
  await api.post(owner, `/v1/orders/${order.id}/receipts`, { lines: [{ line_id: order.lines[0].id, quantity }] });
  return { id: order.id, lineId: order.lines[0].id, locationId: location.id, productId, vendorId };
}

async function seedVendorReturn(api: TestApi, owner: TestEntity): Promise<Params> {
  const po = await receivedPurchaseOrder(api, owner);
  return { id: (await api.post(owner, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] })).id };
}

const ownEntity = (_api: TestApi, owner: TestEntity) => Promise.resolve({ entity_id: owner.entity.id });

export const AP_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/vendor-credits/{id}': seedCredit,
  '/v1/vendor-credits/{id}/void': seedCredit,
  '/v1/ap-payments/{id}': seedPayment,
  '/v1/ap-payments/{id}/void': seedPayment,
  '/v1/entities/{entity_id}/reconciliation/ap-aging': ownEntity,
  '/v1/orders/{id}/vendor-returns': async (api, owner) => ({ id: (await receivedPurchaseOrder(api, owner)).id }),
  '/v1/vendor-returns/{id}': seedVendorReturn,
};

export const AP_SAMPLE_BODIES: Record<string, unknown> = {
  'vendor_credits.create': { vendor_id: '00000000-0000-4000-8000-000000000001', amount: '10.00' },
  'vendor_credits.void': { reason: 'Sample reason' },
  'ap_payments.create': {
    bills: [{ bill_id: '00000000-0000-4000-8000-000000000001', amount: 1 }],
    bank_account_id: '00000000-0000-4000-8000-000000000002',
    method: 'check',
  },
  'ap_payments.void': { reason: 'Sample reason' },
  'orders.vendor_returns.create': { lines: [{ line_id: '00000000-0000-4000-8000-000000000001', quantity: 1 }] },
};
