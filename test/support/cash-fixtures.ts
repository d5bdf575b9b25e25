/**
 * Fixtures of the refund, void, ACH and deposit tests: a customer with posted invoices (confirmed
 * through the API, so AR is posted) and the AR identity every cash operation must keep.
 */
import { expect } from 'vitest';
import { amount, sum } from '../../shared/money';
import type { TestApi, TestEntity } from './harness';
import type { Account, DocumentType, OrderWithLines } from './worlds';

let n = 0;

export interface CashWorld {
  owner: TestEntity;
  account: Account;
}

export async function cashWorld(api: TestApi): Promise<CashWorld> {
  const owner = await api.newEntity();
  const account = await api.post(owner, '/v1/accounts', { name: `Cash customer ${n++}` });
  return { owner, account };
}

/** A document of `total` (as shipping, no lines), confirmed through the API: an invoice posts debit AR, credit revenue. */
export async function confirmedDocument(api: TestApi, w: CashWorld, total: string | number, documentType: DocumentType = 'invoice'): Promise<OrderWithLines> {
  const order = await api.post(w.owner, '/v1/orders', { document_type: documentType, account_id: w.account.id, shipping_total: total });
  await api.post(w.owner, `/v1/orders/${order.id}/confirm`, {}, 200);
  return order;
}

/** The entity's operating bank account (the GL account with system_key bank), with its bank_account_id. */
export async function bankAccount(api: TestApi, owner: TestEntity) {
  const accounts = await api.get(owner, '/v1/gl-accounts', { limit: '100' });
  const bank = accounts.data.find((account) => account.system_key === 'bank');
  if (!bank?.bank_account_id) throw new Error('the entity has no operating bank account');
  return { ...bank, bank_account_id: bank.bank_account_id };
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
 * The two control balances and what the sub-ledgers say they must be:
 *   accounts_receivable = Σ balance_due of the open invoices (posted, not voided or cancelled);
 *   customer_credits    = the customer money no invoice holds yet: the unapplied amount of
 *                         cleared, live payments, the deposits sales orders hold (their payments'
 *                         applications less the credit refunds gave back), and the credit posted
 *                         returns have not applied or refunded (minus their negative balance_due).
 * (customer_credits is a liability: its GL balance is minus that amount.)
 */
export async function arIdentity(
  owner: TestEntity,
): Promise<{ gl: string; subledger: string; openInvoices: string; creditsGl: string; creditsSubledger: string }> {
  const gl = await glBalance(owner, 'accounts_receivable');
  const creditsGl = amount(await glBalance(owner, 'customer_credits'))
    .negated()
    .toString();
  return owner.sql(async (db) => {
    const invoices = await db.query<{ balance_due: string }>(
      `SELECT balance_due FROM orders WHERE entity_id = $1 AND document_type = 'invoice' AND deleted_at IS NULL
         AND order_status NOT IN ('draft', 'cancelled', 'voided')`,
      [owner.entity.id],
    );
    const held = await db.one<{ total: string }>(
      `SELECT (SELECT coalesce(sum(unapplied_amount), 0) FROM payments WHERE entity_id = $1 AND status IN ('undeposited', 'deposited'))
            + (SELECT coalesce(sum(a.amount_applied), 0) FROM payment_applications a
                 JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
                 JOIN orders o ON o.entity_id = a.entity_id AND o.id = a.order_id
               WHERE a.entity_id = $1 AND o.document_type = 'sales_order' AND p.status IN ('undeposited', 'deposited'))
            - (SELECT coalesce(sum(r.credit_amount), 0) FROM refund_lines r JOIN orders o ON o.entity_id = r.entity_id AND o.id = r.order_id
               WHERE r.entity_id = $1 AND o.document_type = 'sales_order')
            - (SELECT coalesce(sum(balance_due), 0) FROM orders WHERE entity_id = $1 AND document_type = 'return' AND order_status NOT IN ('draft', 'cancelled'))
            AS total`,
      [owner.entity.id],
    );
    const openInvoices = sum(invoices.map((row) => row.balance_due)).toString();
    return { gl, subledger: openInvoices, openInvoices, creditsGl, creditsSubledger: amount(held.total).toString() };
  });
}

/** The AR invariant (AR = Σ open invoice balance_due) and its twin for customer deposits and credits hold; the identity. */
export async function expectArTies(owner: TestEntity) {
  const identity = await arIdentity(owner);
  expect(identity.gl).toBe(identity.subledger);
  expect(identity.creditsGl).toBe(identity.creditsSubledger);
  return identity;
}
