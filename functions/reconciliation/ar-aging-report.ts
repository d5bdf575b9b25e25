/**
 * The AR aging composed from its owners: the orders capability ages the invoices and counts the
 * credit-memo credit, the payments capability tells what payments held and did after the date (its
 * SQL is handed to orders as a parameter; orders' deposit holders to payments), the ledger gives
 * the control balances, parties the names (as SQL, so the page is a keyset on name and id). Neither capability reads the other's tables.
 */
import type { Db } from '../../shared/db/database';
import type { ExpandSpec } from '../../shared/http/expand';
import { debitBalanceThrough, creditBalanceThrough } from '../../shared/ledger/ledger-reads';
import { toJsonNumber } from '../../shared/money';
import {
  AGING_BUCKETS,
  arAgingPage,
  bucketOfDays,
  DEPOSIT_HOLDERS_SQL,
  openInvoicesOf,
  type AgingBasis,
  type ArAgingAmounts,
  type ArAgingPageRequest,
  type AgingBucket,
} from '../../shared/orders/ar-aging';
import type { ArAging } from '../../shared/orders/schemas/ar-aging';
import { partyNamesSql } from '../../shared/parties/parties';
import { paymentsAfterDate } from '../../shared/payments/receivables-history';

const asNumbers = (amounts: ArAgingAmounts) => ({
  ...(Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, toJsonNumber(amounts[bucket])])) as Record<AgingBucket, number>),
  total: toJsonNumber(amounts.total),
});

export async function arAging(db: Db, entityId: string, asOfDate: string, basis: AgingBasis, page: ArAgingPageRequest): Promise<Omit<ArAging, 'livemode'>> {
  // A large entity's estimate passes jit_above_cost, and compiling costs more than these queries run.
  await db.query('SET LOCAL jit = off');
  // The open invoices of a large entity are grouped per customer and bucket in memory rather than sorted on disk.
  await db.query("SET LOCAL work_mem = '32MB'");
  const payments = await paymentsAfterDate(db, entityId, asOfDate);
  const aging = await arAgingPage(
    db,
    entityId,
    asOfDate,
    basis,
    { history: payments, customerMoneySql: payments.customerMoneySql(DEPOSIT_HOLDERS_SQL), customerNamesSql: partyNamesSql('account') },
    page,
  );
  return {
    object: 'ar_aging',
    as_of_date: asOfDate,
    aging_basis: basis,
    customers: aging.customers.map((customer) => ({
      id: customer.id,
      name: customer.name,
      ...asNumbers(customer),
      unapplied_credits: toJsonNumber(customer.unapplied_credits),
    })),
    has_more: aging.has_more,
    next_cursor: aging.next_cursor,
    totals: asNumbers(aging.totals),
    unapplied_credits: toJsonNumber(aging.totals.unapplied_credits),
    accounts_receivable_balance: toJsonNumber(await debitBalanceThrough(db, entityId, 'accounts_receivable', asOfDate)),
    customer_credits_balance: toJsonNumber(await creditBalanceThrough(db, entityId, 'customer_credits', asOfDate)),
  };
}

type CustomerParent = Record<string, unknown> & { id: string };

/** customers.invoices: the open invoices behind each customer's buckets, on the same date and basis, in one query. */
export const AR_AGING_EXPAND: ExpandSpec = {
  'customers.invoices': async ({ db, entityId, roots }, parents) => {
    const customers = parents as CustomerParent[];
    const { as_of_date: asOfDate, aging_basis: basis } = roots![0] as { as_of_date: string; aging_basis: AgingBasis };
    const payments = await paymentsAfterDate(db, entityId!, asOfDate);
    const rows = await openInvoicesOf(
      db,
      entityId!,
      asOfDate,
      basis,
      payments,
      customers.map((customer) => customer.id),
    );
    const byCustomer = new Map<string, typeof rows>();
    for (const row of rows) {
      const own = byCustomer.get(row.account_id) ?? [];
      own.push(row);
      byCustomer.set(row.account_id, own);
    }
    for (const customer of customers) {
      customer.invoices = (byCustomer.get(customer.id) ?? []).map((row) => ({
        id: row.id,
        invoice_number: row.invoice_number ?? row.order_number,
        invoice_date: row.invoice_date,
        due_date: row.due_date,
        days_past: row.days_past,
        bucket: bucketOfDays(row.days_past),
        balance_due: toJsonNumber(row.balance),
      }));
    }
  },
};
