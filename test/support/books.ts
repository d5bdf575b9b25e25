/**
 * The books' identities, read through the API alone: every control account of the general ledger
 * against the sub-ledger that explains it, as a controller would tie them at month end.
 *
 *   trial balance          Σ debits = Σ credits
 *   accounts_receivable    = Σ balance_due of the posted invoices (not draft, cancelled or voided)
 *   customer_credits       = Σ unapplied payment money (payments not voided, failed or pending)
 *                            + what sales orders hold as deposits (amount_paid not paid through their invoices;
 *                              credit-memo credit on those invoices is amount_credited, never a deposit)
 *                            + Σ credit-memo credit still available (−balance_due of returns)
 *   undeposited_funds      = Σ (amount − amount_refunded) of the receipts no deposit took
 *   inventory              = Σ inventory_value of /v1/inventory/balances, to the cent
 *   received_not_billed    = Σ cost of purchase-order receipts − Σ receipt_cost cleared by posted bills
 *   accounts_payable       = Σ balance_due of the open bills = the AP aging total (and its control figure)
 *   vendor_credits         = Σ remaining_amount of vendor credits, each in cents (and vendor_returns_receivable too)
 *   the statements         balance sheet, profit and loss and account activity (books-reports.ts)
 *
 *   const books = await readBooks(api, owner);
 *   expectBooksTie(books, 'after step 3');
 */
import { expect } from 'vitest';
import { amount, round, sum, type AmountLike } from '../../shared/money';
import type { TestApi, TestEntity } from './harness';
import { readStatements, statementIdentities, type Statements } from './books-reports';

type Row = Record<string, unknown>;

/** Every row of a cursor-paged list (100 a page, following next_cursor). */
async function listAll<T = Row>(api: TestApi, caller: TestEntity, path: string, query: Record<string, string | string[]> = {}): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  do {
    const response = await api.request('GET', path as '/v1/orders', {
      key: caller.secret,
      query: { limit: '100', ...query, ...(cursor ? { starting_after: cursor } : {}) },
    });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.text}`);
    const page = response.body as unknown as { data: T[]; has_more: boolean; next_cursor?: string | null };
    rows.push(...page.data);
    cursor = page.has_more ? (page.next_cursor ?? (page.data.at(-1) as { id: string }).id) : null;
  } while (cursor);
  return rows;
}

/** The system accounts of the entity by system_key. */
export async function systemAccounts(api: TestApi, owner: TestEntity): Promise<Record<string, string>> {
  const accounts = await api.get(owner, '/v1/gl-accounts', { limit: '100' });
  return Object.fromEntries(accounts.data.flatMap((a) => (a.system_key ? [[a.system_key, a.id]] : [])));
}

const CREDIT_NORMAL = new Set(['accounts_payable', 'received_not_billed', 'customer_credits', 'vendor_credits', 'sales_tax_payable']);

/** The trial balance as of a date (default today): totals, and each system account's balance on its normal side. */
export async function trialBalance(api: TestApi, owner: TestEntity, system: Record<string, string>, asOfDate?: string) {
  const trial = await api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`, asOfDate ? { as_of_date: asOfDate } : {});
  const balances: Record<string, string> = {};
  for (const [key, id] of Object.entries(system)) {
    const row = trial.accounts.find((account) => account.account_id === id);
    const debit = amount(row?.debit_balance ?? 0).minus(row?.credit_balance ?? 0);
    balances[key] = (CREDIT_NORMAL.has(key) ? debit.negated() : debit).toString();
  }
  return { totalDebits: amount(trial.total_debits).toString(), totalCredits: amount(trial.total_credits).toString(), balances, accounts: trial.accounts };
}

const total = (values: AmountLike[]) => sum(values).toString();
const POSTED_BILL = ['open', 'partially_paid', 'paid'];

export interface Books {
  totalDebits: string;
  totalCredits: string;
  /** GL balance of each system account, on its normal side. */
  gl: Record<string, string>;
  openInvoices: string;
  customerMoney: string;
  undepositedReceipts: string;
  inventoryValue: string;
  receivedNotBilled: string;
  openBills: string;
  apAgingTotal: string;
  apAgingControl: string;
  vendorCreditsRemaining: string;
  /** Balance sheet, profit and loss and account activity as of today (books-reports.ts). */
  statements: Statements;
}

/** Reads the GL and every sub-ledger of the entity through the API. */
export async function readBooks(api: TestApi, owner: TestEntity, system: Record<string, string>): Promise<Books> {
  const trial = await trialBalance(api, owner, system);
  type Order = { id: string; order_status: string; balance_due: number; amount_paid: number; converted_from_id: string | null };
  const ofType = (documentType: string) => listAll<Order>(api, owner, '/v1/orders', { document_type: documentType });
  const live = (o: Order) => !['draft', 'cancelled', 'voided'].includes(o.order_status);
  const invoices = (await ofType('invoice')).filter(live);
  const salesOrders = await ofType('sales_order');
  // A sales order's amount_paid counts what its live invoices were paid too (their credit-memo
  // credit shows in its amount_credited, not amount_paid); what is left is the deposit it still holds.
  const throughInvoices = (order: Order) => sum(invoices.filter((i) => i.converted_from_id === order.id).map((i) => i.amount_paid));
  const memos = (await ofType('return')).filter((o) => live(o) && o.balance_due < 0);

  type Payment = { status: string; unapplied_amount: number; amount: number; amount_refunded: number; deposit_id: string | null };
  const payments = await listAll<Payment>(api, owner, '/v1/payments');
  const held = payments.filter((p) => p.status === 'undeposited' || p.status === 'deposited');
  const undeposited = payments.filter((p) => p.status === 'undeposited');

  const balances = await listAll<{ inventory_value: number }>(api, owner, '/v1/inventory/balances');
  const receipts = await listAll<{ total_cost: number }>(api, owner, '/v1/inventory/transactions', { transaction_type: 'receive', reference_type: 'order' });

  type BillLine = { receipt_cost: number | null };
  type Bill = { status: string; balance_due: number; lines?: BillLine[] };
  const bills = await listAll<Bill>(api, owner, '/v1/vendor-bills', { 'expand[]': 'data.lines' });
  const posted = bills.filter((b) => POSTED_BILL.includes(b.status));
  const cleared = posted.flatMap((b) => (b.lines ?? []).map((l) => l.receipt_cost ?? 0));
  const credits = await listAll<{ remaining_amount: string | number }>(api, owner, '/v1/vendor-credits');
  const aging = await api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/ap-aging`);

  return {
    totalDebits: trial.totalDebits,
    totalCredits: trial.totalCredits,
    gl: trial.balances,
    openInvoices: total(invoices.map((o) => o.balance_due)),
    customerMoney: sum([
      ...held.map((p) => p.unapplied_amount),
      ...salesOrders.map((o) => amount(o.amount_paid).minus(throughInvoices(o))),
      ...memos.map((o) => amount(o.balance_due).negated()),
    ]).toString(),
    undepositedReceipts: total(undeposited.map((p) => amount(p.amount).minus(p.amount_refunded))),
    inventoryValue: total(balances.map((b) => b.inventory_value)),
    receivedNotBilled: sum(receipts.map((t) => t.total_cost))
      .minus(sum(cleared))
      .toString(),
    openBills: total(bills.filter((b) => b.status === 'open' || b.status === 'partially_paid').map((b) => b.balance_due)),
    apAgingTotal: amount(aging.totals.total).toString(),
    apAgingControl: amount(aging.accounts_payable_balance).toString(),
    // The ledger holds each credit's remaining in cents (4-decimal credits, applications in whole cents).
    vendorCreditsRemaining: total(credits.map((c) => round(c.remaining_amount, 2))),
    statements: await readStatements(api, owner, system),
  };
}

/** The identities a controller ties at month end, by name; each is [GL side, sub-ledger side]. */
function booksIdentities(books: Books): Record<string, [string, string]> {
  return {
    'trial balance: Σ debits = Σ credits': [books.totalDebits, books.totalCredits],
    'accounts_receivable = Σ balance_due of posted invoices': [books.gl.accounts_receivable, books.openInvoices],
    'customer_credits = unapplied payments + deposits + credit-memo credit': [books.gl.customer_credits, books.customerMoney],
    'undeposited_funds = Σ undeposited receipts': [books.gl.undeposited_funds, books.undepositedReceipts],
    'inventory = Σ inventory_value': [books.gl.inventory, books.inventoryValue],
    'received_not_billed = receipts not yet billed at receipt cost': [books.gl.received_not_billed, books.receivedNotBilled],
    'accounts_payable = Σ balance_due of open bills': [books.gl.accounts_payable, books.openBills],
    'AP aging total = Σ balance_due of open bills': [books.apAgingTotal, books.openBills],
    'AP aging control figure = accounts_payable': [books.apAgingControl, books.gl.accounts_payable],
    'vendor_credits = Σ remaining_amount': [books.gl.vendor_credits, books.vendorCreditsRemaining],
    'vendor_returns_receivable = Σ remaining_amount': [books.gl.vendor_returns_receivable, books.vendorCreditsRemaining],
    ...statementIdentities(books.statements),
  };
}

/** Asserts every identity, each named in the failure with `label` (the step that broke it). */
export function expectBooksTie(books: Books, label: string): void {
  for (const [name, [gl, subledger]] of Object.entries(booksIdentities(books))) {
    expect(gl, `${name} — ${label}`).toBe(subledger);
  }
}

/** The sub-ledger balances that must be zero once every document holding money reached a terminal state. */
export function expectBooksSettled(books: Books, label: string): void {
  const open = {
    openInvoices: books.openInvoices,
    customerMoney: books.customerMoney,
    undepositedReceipts: books.undepositedReceipts,
    receivedNotBilled: books.receivedNotBilled,
    openBills: books.openBills,
    vendorCreditsRemaining: books.vendorCreditsRemaining,
  };
  expect(open, label).toEqual(Object.fromEntries(Object.keys(open).map((key) => [key, '0'])));
}

// ---------------------------------------------------------------------------------------------
// The subledger reports: AR aging and inventory valuation, tied to the books as of a date

/** What the AR aging and the inventory valuation answer as of a date (default today). */
export interface SubledgerReports {
  arAgingTotal: string;
  arAgingBuckets: string;
  arAgingCustomers: string;
  arAgingControl: string;
  unappliedCredits: string;
  unappliedByCustomer: string;
  customerCreditsControl: string;
  valuationTotal: string;
  valuationItems: string;
  valuationControl: string;
}

/**
 * Every page of the AR aging (a few customers a page, so the books' handful of customers spans
 * pages): the customers of all pages, and the report figures, which every page must carry alike.
 */
async function readArAgingPages(api: TestApi, owner: TestEntity, query: Record<string, string>) {
  const path = `/v1/entities/${owner.entity.id}/reconciliation/ar-aging` as const;
  const first = await api.get(owner, path, { ...query, limit: '2' });
  const customers = [...first.customers];
  const figures = ({ totals, unapplied_credits, accounts_receivable_balance, customer_credits_balance }: typeof first) => ({
    totals,
    unapplied_credits,
    accounts_receivable_balance,
    customer_credits_balance,
  });
  for (let page = first; page.has_more;) {
    page = await api.get(owner, path, { ...query, limit: '2', starting_after: page.next_cursor! });
    expect(figures(page), 'AR aging: every page carries the totals over every customer').toEqual(figures(first));
    customers.push(...page.customers);
  }
  return { ...first, customers };
}

/** Reads both reports through the API, each figure as a decimal string (Σ of the rows beside the report's own totals). */
export async function readSubledgerReports(api: TestApi, owner: TestEntity, asOfDate?: string): Promise<SubledgerReports> {
  const query: Record<string, string> = asOfDate ? { as_of_date: asOfDate } : {};
  const aging = await readArAgingPages(api, owner, query);
  const valuationPath = `/v1/entities/${owner.entity.id}/reconciliation/inventory-valuation` as const;
  const valuation = await api.get(owner, valuationPath, { ...query, limit: '1000' });
  // Every page's items, for Σ items value; each page carries the same totals.
  const valuationItems = [...valuation.items];
  for (let page = valuation; page.next_cursor;) {
    page = await api.get(owner, valuationPath, { ...query, limit: '1000', starting_after: page.next_cursor });
    expect(page.totals, 'inventory valuation: every page carries the same totals').toEqual(valuation.totals);
    valuationItems.push(...page.items);
  }
  const { total: bucketsTotal, ...buckets } = aging.totals;
  expect(total(Object.values(buckets)), 'AR aging: totals.total = Σ of its buckets').toBe(amount(bucketsTotal).toString());
  return {
    arAgingTotal: amount(aging.totals.total).toString(),
    arAgingBuckets: total(Object.values(buckets)),
    arAgingCustomers: total(aging.customers.map((c) => c.total)),
    arAgingControl: amount(aging.accounts_receivable_balance).toString(),
    unappliedCredits: amount(aging.unapplied_credits).toString(),
    unappliedByCustomer: total(aging.customers.map((c) => c.unapplied_credits)),
    customerCreditsControl: amount(aging.customer_credits_balance).toString(),
    valuationTotal: amount(valuation.totals.value).toString(),
    valuationItems: total(valuationItems.map((item) => item.value)),
    valuationControl: amount(valuation.inventory_account_balance).toString(),
  };
}

/** The reports' identities as of today against the books read the same moment; each is [one side, the other]. */
function subledgerReportIdentities(reports: SubledgerReports, books: Books): Record<string, [string, string]> {
  return {
    'AR aging totals.total = Σ balance_due of open invoices': [reports.arAgingTotal, books.openInvoices],
    'AR aging totals.total = Σ customers total': [reports.arAgingTotal, reports.arAgingCustomers],
    'AR aging accounts_receivable_balance = accounts_receivable': [reports.arAgingControl, books.gl.accounts_receivable],
    'AR aging unapplied_credits = customer_credits': [reports.unappliedCredits, books.gl.customer_credits],
    'AR aging unapplied_credits = Σ customers unapplied_credits': [reports.unappliedCredits, reports.unappliedByCustomer],
    'AR aging customer_credits_balance = customer_credits': [reports.customerCreditsControl, books.gl.customer_credits],
    'inventory valuation total = inventory': [reports.valuationTotal, books.gl.inventory],
    'inventory valuation total = Σ items value': [reports.valuationTotal, reports.valuationItems],
    'inventory valuation inventory_account_balance = inventory': [reports.valuationControl, books.gl.inventory],
  };
}

/** Asserts the reports tie to the books (as of today), each identity named with `label`. */
export function expectSubledgerReportsTie(reports: SubledgerReports, books: Books, label: string): void {
  for (const [name, [left, right]] of Object.entries(subledgerReportIdentities(reports, books))) {
    expect(left, `${name} — ${label}`).toBe(right);
  }
}

/** As of a past date the reports tie to their own control figures (the GL as of that date). */
export function expectSubledgerReportsTieAsOf(reports: SubledgerReports, label: string): void {
  expect(reports.arAgingTotal, `AR aging total = accounts_receivable_balance — ${label}`).toBe(reports.arAgingControl);
  expect(reports.unappliedCredits, `unapplied_credits = customer_credits_balance — ${label}`).toBe(reports.customerCreditsControl);
  expect(reports.valuationTotal, `inventory valuation total = inventory_account_balance — ${label}`).toBe(reports.valuationControl);
}
