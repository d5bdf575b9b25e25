/**
 * The AR aging composed from its owners: the orders capability ages the invoices and counts the
 * credit-memo credit, the payments capability tells what payments held and did after the date (its
 * SQL is handed to orders as a parameter; orders' deposit holders to payments), the ledger gives
 * the control balances, parties the names. Neither capability reads the other's tables.
 */
import type { Db } from '../../shared/db/database';
import type { ExpandSpec } from '../../shared/http/expand';
import { debitBalanceThrough, creditBalanceThrough } from '../../shared/ledger/ledger-reads';
import { amount, sum, toJsonNumber, ZERO, type Amount } from '../../shared/money';
import {
  AGING_BUCKETS,
  bucketOfDays,
  creditMemoCreditRows,
  DEPOSIT_HOLDERS_SQL,
  invoiceAgingRows,
  openInvoicesOf,
  type AgingBasis,
  type AgingBucket,
} from '../../shared/orders/ar-aging';
import type { ArAging, ArAgingCustomer } from '../../shared/orders/schemas/ar-aging';
import { partyNamesInOrder } from '../../shared/parties/parties';
import { paymentsAfterDate } from '../../shared/payments/receivables-history';

type Buckets = Record<AgingBucket, Amount>;
const noBuckets = (): Buckets => Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, ZERO])) as Buckets;

const asNumbers = (buckets: Buckets) => ({
  ...(Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, toJsonNumber(buckets[bucket])])) as Record<AgingBucket, number>),
  total: toJsonNumber(sum(AGING_BUCKETS.map((bucket) => buckets[bucket]))),
});

export async function arAging(db: Db, entityId: string, asOfDate: string, basis: AgingBasis): Promise<Omit<ArAging, 'livemode'>> {
  // A large entity's estimate passes jit_above_cost, and compiling costs more than these queries run.
  await db.query('SET LOCAL jit = off');
  // The open invoices of a large entity are grouped per customer and bucket in memory rather than sorted on disk.
  await db.query("SET LOCAL work_mem = '32MB'");
  const payments = await paymentsAfterDate(db, entityId, asOfDate);
  const aged = await invoiceAgingRows(db, entityId, asOfDate, basis, payments);
  const memoCredit = await creditMemoCreditRows(db, entityId, asOfDate);
  const paymentCredit = await db.query<{ account_id: string; amount: string }>(
    `SELECT account_id, sum(amount) AS amount FROM (${payments.customerMoneySql(DEPOSIT_HOLDERS_SQL)}) money GROUP BY account_id HAVING sum(amount) <> 0`,
    [entityId, asOfDate, ...payments.params],
  );

  const buckets = new Map<string, Buckets>();
  for (const row of aged) {
    const own = buckets.get(row.account_id) ?? noBuckets();
    own[AGING_BUCKETS[row.bucket]] = amount(row.balance);
    buckets.set(row.account_id, own);
  }
  const credits = new Map<string, Amount>();
  for (const row of [...memoCredit, ...paymentCredit]) credits.set(row.account_id, (credits.get(row.account_id) ?? ZERO).plus(row.amount));

  // Customers by name, then id.
  const named = await partyNamesInOrder(db, 'account', entityId, [...buckets.keys(), ...credits.keys()]);
  const customers: ArAgingCustomer[] = named
    .map(({ id, name }) => ({ id, name, buckets: buckets.get(id) ?? noBuckets(), credit: credits.get(id) ?? ZERO }))
    .filter((customer) => !customer.credit.isZero() || AGING_BUCKETS.some((bucket) => !customer.buckets[bucket].isZero()))
    .map(({ id, name, buckets: own, credit }) => ({ id, name, ...asNumbers(own), unapplied_credits: toJsonNumber(credit) }));
  const totals = Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, sum([...buckets.values()].map((own) => own[bucket]))])) as Buckets;

  return {
    object: 'ar_aging',
    as_of_date: asOfDate,
    aging_basis: basis,
    customers,
    totals: asNumbers(totals),
    unapplied_credits: toJsonNumber(sum(credits.values())),
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
