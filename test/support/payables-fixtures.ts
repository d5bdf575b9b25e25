/**
 * Factories of the accounts-payable tests, and the security-matrix fixtures of the vendor bill and
 * payment terms routes (spread into route-fixtures.ts). A bill's creator, approver and poster are different
 * users, as segregation of duties needs.
 */
import type { BodyFor, Caller } from './client';
import type { TestApi, TestEntity } from './harness';
import { chart, userWithKey, type Chart } from './ledger-helpers';

type Params = Record<string, string>;
type BillBody = BodyFor<'POST', '/v1/vendor-bills'>;

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${sequence++}`;

export interface PayablesWorld {
  api: TestApi;
  owner: TestEntity;
  chart: Chart;
  vendor: { id: string };
  product: { id: string };
  /** Creates bills; holds no permission. */
  clerk: { userId: string; secret: string };
  /** Holds purchasing.approve_bills. */
  approver: { userId: string; secret: string };
  /** Another user who posts. */
  poster: { userId: string; secret: string };
  /** A draft bill by the clerk: one expense line of `amount` unless lines are sent. */
  bill(extra?: Partial<BillBody>, amount?: number | string, caller?: Caller): ReturnType<typeof createBill>;
  /** A bill taken through submit and approve (clerk creates, approver approves). */
  approvedBill(extra?: Partial<BillBody>, amount?: number | string): ReturnType<typeof createBill>;
}

function createBill(api: TestApi, caller: Caller, body: BillBody) {
  return api.post(caller, '/v1/vendor-bills', body);
}

export async function payablesWorld(api: TestApi): Promise<PayablesWorld> {
  const owner = await api.newEntity();
  const accounts = await chart(api, owner);
  const vendor = await api.post(owner, '/v1/vendors', { name: unique('Supplier') });
  const product = await api.post(owner, '/v1/products', { sku: unique('BILL'), name: unique('Billed part'), cost: 2 });
  const clerk = await userWithKey(owner, []);
  const approver = await userWithKey(owner, ['purchasing.approve_bills']);
  const poster = await userWithKey(owner, []);
  const bill: PayablesWorld['bill'] = (extra = {}, amount = 100, caller = clerk.secret) =>
    createBill(api, caller, { vendor_id: vendor.id, lines: [{ type: 'expense', account_id: accounts.expense, amount }], ...extra });
  return {
    api,
    owner,
    chart: accounts,
    vendor,
    product,
    clerk,
    approver,
    poster,
    bill,
    approvedBill: async (extra = {}, amount = 100) => {
      const draft = await bill(extra, amount);
      await api.post(clerk.secret, `/v1/vendor-bills/${draft.id}/submit`, undefined, 200);
      return api.post(approver.secret, `/v1/vendor-bills/${draft.id}/approve`, undefined, 200);
    },
  };
}

/** A draft bill with one expense line (to the cost of goods sold account) from a new vendor. */
async function seedBill(api: TestApi, owner: TestEntity): Promise<{ id: string; line_id: string }> {
  const vendor = await api.post(owner, '/v1/vendors', { name: unique('Matrix vendor') });
  const accounts = await api.get(owner, '/v1/gl-accounts', { limit: '100' });
  const cogs = accounts.data.find((account) => account.system_key === 'cost_of_goods_sold');
  if (!cogs) throw new Error('the entity has no cost_of_goods_sold account');
  const bill = await api.post(owner, '/v1/vendor-bills', { vendor_id: vendor.id, lines: [{ type: 'expense', account_id: cogs.id, amount: 10 }] });
  return { id: bill.id, line_id: bill.lines![0].id };
}

const byId = async (api: TestApi, owner: TestEntity) => ({ id: (await seedBill(api, owner)).id });

export const PAYABLES_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/vendor-bills/{id}': byId,
  '/v1/vendor-bills/{id}/lines': byId,
  '/v1/vendor-bills/{id}/lines/{line_id}': (api, owner) => seedBill(api, owner),
  '/v1/vendor-bills/{id}/submit': byId,
  '/v1/vendor-bills/{id}/approve': byId,
  '/v1/vendor-bills/{id}/reject': byId,
  '/v1/vendor-bills/{id}/post': byId,
  '/v1/vendor-bills/{id}/void': byId,
  '/v1/payment-terms/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/payment-terms', { name: unique('Net 30'), net_days: 30 })).id }),
};

export const PAYABLES_SAMPLE_BODIES: Record<string, unknown> = {
  'vendor_bills.create': {
    vendor_id: '00000000-0000-4000-8000-000000000001',
    lines: [{ type: 'expense', account_id: '00000000-0000-4000-8000-000000000002', amount: 10 }],
  },
  'vendor_bills.update': { notes: 'Sample note' },
  'vendor_bills.lines.create': { type: 'item', product_id: '00000000-0000-4000-8000-000000000001', quantity: 1, unit_cost: 2 },
  'vendor_bills.lines.update': { amount: 12 },
  'vendor_bills.reject': { reason: 'Sample reason' },
  'payment_terms.create': { name: 'Net 30', net_days: 30 },
  'payment_terms.update': { net_days: 45 },
};
