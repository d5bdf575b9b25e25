/**
 * Security-matrix fixtures of the payment and deposit routes (spread into route-fixtures.ts): an
 * unallocated payment (customer credit) of the given entity, and a valid body for each route.
 */
import type { TestApi, TestEntity } from './harness';
import { bankAccount } from './cash-fixtures';
import { seedOrder } from './order-fixtures';

type Params = Record<string, string>;

let sequence = 0;

/** An unallocated payment: 5.00 of customer credit on a fresh account (an ACH one is pending until cleared). */
async function seedPayment(api: TestApi, owner: TestEntity, paymentMethod?: 'ach'): Promise<string> {
  const account = await api.post(owner, '/v1/accounts', { name: `Payer ${Date.now().toString(36)}-${sequence++}` });
  const payment = await api.post(owner, '/v1/payments/multi-invoice-apply', {
    account_id: account.id,
    amount: 5,
    route_unapplied: 'credit',
    ...(paymentMethod && { payment_method: paymentMethod }),
  });
  return payment.data.id;
}

export const PAYMENT_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/orders/{id}/payments': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/payments/{payment_id}': async (api, owner) => ({ payment_id: await seedPayment(api, owner) }),
  '/v1/payments/{payment_id}/apply': async (api, owner) => ({ payment_id: await seedPayment(api, owner) }),
  '/v1/payments/{payment_id}/apply-credit': async (api, owner) => ({ payment_id: await seedPayment(api, owner) }),
  '/v1/payments/{payment_id}/refunds': async (api, owner) => ({ payment_id: await seedPayment(api, owner) }),
  '/v1/payments/{payment_id}/void': async (api, owner) => ({ payment_id: await seedPayment(api, owner) }),
  '/v1/payments/{payment_id}/clear': async (api, owner) => ({ payment_id: await seedPayment(api, owner, 'ach') }),
  '/v1/payments/{payment_id}/fail': async (api, owner) => ({ payment_id: await seedPayment(api, owner, 'ach') }),
  '/v1/deposits/{id}': async (api, owner) => ({ id: await seedDeposit(api, owner) }),
};

/** A deposit of one fresh payment to the entity's operating bank account. */
async function seedDeposit(api: TestApi, owner: TestEntity): Promise<string> {
  const paymentId = await seedPayment(api, owner);
  const bank = await bankAccount(api, owner);
  const deposit = await api.post(owner, '/v1/deposits', {
    bank_account_id: bank.bank_account_id,
    deposit_date: new Date().toISOString().slice(0, 10),
    payment_ids: [paymentId],
  });
  return deposit.id;
}

const SOME_ID = '00000000-0000-4000-8000-000000000001';

export const PAYMENT_SAMPLE_BODIES: Record<string, unknown> = {
  'orders.payments.create': { amount: 1 },
  'payments.multi_invoice_apply': { account_id: SOME_ID, amount: 1, route_unapplied: 'credit' },
  'payments.apply': { applications: [{ order_id: SOME_ID, amount_applied: 1 }] },
  'payments.credit.apply': { invoice_id: SOME_ID, amount: 1 },
  'deposits.preview': { payment_ids: [SOME_ID] },
  'deposits.create': { bank_account_id: SOME_ID, deposit_date: '2026-11-21', payment_ids: [SOME_ID] },
};
