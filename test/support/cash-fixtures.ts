/**
 * Fixtures of the refund, void, ACH and deposit tests: a customer with posted invoices (confirmed
 * through the API, so AR is posted) and the AR identity every cash operation must keep.
 */
import { amount, sum } from '../../shared/money';
import type { TestApi, TestEntity } from './harness';

let n = 0;

export interface CashWorld {
  owner: TestEntity;
  account: { id: string };
}

export async function created(api: TestApi, owner: TestEntity, path: string, body: unknown, status = 201): Promise<any> {
  const response = await api.request('POST', path, { key: owner.secret, body });
  if (response.status !== status) throw new Error(`${path}: ${response.status} ${response.text}`);
  return response.body;
}

export async function cashWorld(api: TestApi): Promise<CashWorld> {
  const owner = await api.newEntity();
  const account = await created(api, owner, '/v1/accounts', { name: `Cash customer ${n++}` });
  return { owner, account };
}

/** A document of `total` (as shipping, no lines), confirmed through the API: an invoice posts debit AR, credit revenue. */
export async function confirmedDocument(api: TestApi, w: CashWorld, total: string | number, documentType = 'invoice'): Promise<any> {
  const order = await created(api, w.owner, '/v1/orders', { document_type: documentType, account_id: w.account.id, shipping_total: total });
  await created(api, w.owner, `/v1/orders/${order.id}/confirm`, {}, 200);
  return order;
}

export async function getOrder(api: TestApi, owner: TestEntity, id: string): Promise<any> {
  return (await api.request('GET', `/v1/orders/${id}`, { key: owner.secret })).body;
}

export async function getPayment(api: TestApi, owner: TestEntity, id: string): Promise<any> {
  return (await api.request('GET', `/v1/payments/${id}`, { key: owner.secret })).body;
}

/** Debits minus credits of the system account over every posted line. */
export async function glBalance(owner: TestEntity, systemKey: string): Promise<string> {
  return owner.sql(async (db) => {
    const row = await db.one<{ balance: string }>(
      `SELECT coalesce(sum(l.debit), 0) - coalesce(sum(l.credit), 0) AS balance
         FROM journal_lines l JOIN gl_accounts a ON a.id = l.account_id WHERE a.system_key = $1 AND a.entity_id = $2`,
      [systemKey, owner.entity.id],
    );
    return amount(row.balance).toString();
  });
}

/**
 * The AR control balance and what the sub-ledger says it must be: the balance_due of open
 * invoices (posted, not voided or cancelled) minus the customer credit AR holds (the unapplied
 * amount of cleared, live payments and what sales orders were prepaid). With no unapplied credit
 * and no prepaid sales order, that is the sum of the open invoices' balance_due.
 */
export async function arIdentity(owner: TestEntity): Promise<{ gl: string; subledger: string; openInvoices: string }> {
  const gl = await glBalance(owner, 'accounts_receivable');
  return owner.sql(async (db) => {
    const invoices = await db.query<{ balance_due: string }>(
      `SELECT balance_due FROM orders WHERE entity_id = $1 AND document_type = 'invoice' AND deleted_at IS NULL
         AND order_status NOT IN ('draft', 'cancelled', 'voided')`,
      [owner.entity.id],
    );
    const credit = await db.one<{ total: string }>(
      `SELECT coalesce(sum(unapplied_amount), 0) AS total FROM payments WHERE entity_id = $1 AND status IN ('undeposited', 'deposited')`,
      [owner.entity.id],
    );
    const prepaid = await db.one<{ total: string }>(
      `SELECT coalesce(sum(amount_paid), 0) AS total FROM orders WHERE entity_id = $1 AND document_type = 'sales_order' AND deleted_at IS NULL`,
      [owner.entity.id],
    );
    const openInvoices = sum(invoices.map((row) => row.balance_due));
    return { gl, subledger: openInvoices.minus(credit.total).minus(prepaid.total).toString(), openInvoices: openInvoices.toString() };
  });
}
