/**
 * Security-matrix fixtures of the payment and deposit routes (spread into route-fixtures.ts): an
 * unallocated payment (customer credit) of the given entity, and a valid body for each route.
 */
import type { TestApi, TestEntity } from './harness';
import { seedOrder } from './order-fixtures';

type Params = Record<string, string>;

let sequence = 0;

/** An unallocated payment: 5.00 of customer credit on a fresh account. */
export async function seedPayment(api: TestApi, owner: TestEntity): Promise<string> {
  const account = await api.request('POST', '/v1/accounts', { key: owner.secret, body: { name: `Payer ${Date.now()}-${sequence++}` } });
  if (account.status !== 201) throw new Error(`seeding an account failed: ${account.status} ${account.text}`);
  const payment = await api.request('POST', '/v1/payments/multi-invoice-apply', {
    key: owner.secret,
    body: { account_id: account.body.id, amount: 5, route_unapplied: 'credit' },
  });
  if (payment.status !== 201) throw new Error(`seeding a payment failed: ${payment.status} ${payment.text}`);
  return payment.body.data.id;
}

export const PAYMENT_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/orders/{id}/payments': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/payments/{payment_id}': async (api, owner) => ({ payment_id: await seedPayment(api, owner) }),
  '/v1/payments/{payment_id}/apply': async (api, owner) => ({ payment_id: await seedPayment(api, owner) }),
};

const SOME_ID = '00000000-0000-4000-8000-000000000001';

export const PAYMENT_SAMPLE_BODIES: Record<string, unknown> = {
  'orders.payments.create': { amount: 1 },
  'payments.multi_invoice_apply': { account_id: SOME_ID, amount: 1, route_unapplied: 'credit' },
  'payments.apply': { applications: [{ order_id: SOME_ID, amount_applied: 1 }] },
  'deposits.preview': { payment_ids: [SOME_ID] },
  'deposits.create': { bank_account_id: SOME_ID, deposit_date: '2026-11-21', payment_ids: [SOME_ID] },
};
