/**
 * The accounts-payable invariants, through the API: after any sequence of bill, credit, return,
 * payment, void and expiry operations,
 *   - the accounts payable control balance = Σ balance_due of the open (open, partially_paid) bills,
 *     and AP aging's grand total says the same;
 *   - the vendor-credit balance (vendor_credits, and its twin vendor_returns_receivable) = Σ remaining_amount;
 *   - the trial balance ties;
 *   - no bill is overpaid (0 ≤ amount_paid ≤ bill_total) and no credit over-applied
 *     (amount = applied + voided_amount + forfeited_amount + remaining_amount, each ≥ 0).
 *
 * fast-check generates the sequences; each runs against a fresh entity and the invariants are
 * checked after every step (a failure shrinks to the shortest sequence that breaks them).
 * Operations whose preconditions do not hold (no open bill to pay, ...) are skipped or refused
 * by the API, which must then leave everything as it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amount, sum } from '../../shared/money';
import { runCreditExpiry } from '../../shared/payables/expire-credits';
import { apWorld, receivedPurchaseOrder, type ApWorld } from '../support/ap-fixtures';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();

type Op =
  | { kind: 'bill'; cents: number }
  | { kind: 'credit'; cents: number; expiring: boolean }
  | { kind: 'return'; cents: number }
  | { kind: 'price_adjustment'; pick: number; cents: number }
  | { kind: 'pay'; picks: number[]; percent: number; credits: number[] }
  | { kind: 'void_payment'; pick: number }
  | { kind: 'void_credit'; pick: number }
  | { kind: 'void_bill'; pick: number }
  | { kind: 'expire' };

const cents = fc.integer({ min: 1, max: 500_000 });
const pick = fc.nat(40);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('bill' as const), cents }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('credit' as const), cents: fc.integer({ min: 1, max: 100_000 }), expiring: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('return' as const), cents: fc.integer({ min: 1, max: 100_000 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('price_adjustment' as const), pick, cents: fc.integer({ min: 1, max: 50_000 }) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      picks: fc.array(pick, { minLength: 1, maxLength: 3 }),
      percent: fc.integer({ min: 1, max: 110 }),
      credits: fc.array(pick, { maxLength: 2 }),
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ kind: fc.constant('void_payment' as const), pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('void_credit' as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('void_bill' as const), pick }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'expire' as const }), weight: 1 },
);

const money = (c: number) => (c / 100).toFixed(2);

interface State {
  bills: string[];
  credits: string[];
  payments: string[];
}

async function all<T>(
  path: '/v1/vendor-bills' | '/v1/vendor-credits' | '/v1/ap-payments',
  w: ApWorld,
  extra: Record<string, string | string[]> = {},
): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  do {
    const page = (await api.get(w.owner, path, { limit: '100', ...extra, ...(cursor ? { starting_after: cursor } : {}) })) as unknown as {
      data: T[];
      has_more: boolean;
      next_cursor: string | null;
    };
    rows.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return rows;
}

async function run(w: ApWorld, state: State, step: Op): Promise<void> {
  const at = <T>(list: T[], index: number) => (list.length ? list[index % list.length] : undefined);
  switch (step.kind) {
    case 'bill': {
      const bill = await w.postedBill(money(step.cents));
      state.bills.push(bill.id);
      return;
    }
    case 'credit': {
      const body = {
        vendor_id: w.vendor.id,
        amount: money(step.cents),
        ...(step.expiring ? { expires_at: new Date(Date.now() + 3_600_000).toISOString() } : {}),
      };
      state.credits.push((await api.post(w.owner, '/v1/vendor-credits', body)).id);
      return;
    }
    case 'return': {
      // Received goods of a purchase order go back to the vendor: 2 units at cents/100, one returned.
      const po = await receivedPurchaseOrder(api, w.owner, { vendorId: w.vendor.id, quantity: 2, unitCost: step.cents / 100 });
      const returned = await api.post(w.owner, `/v1/orders/${po.id}/vendor-returns`, { lines: [{ line_id: po.lineId, quantity: 1 }] });
      expect(returned.credit_amount).toBe(step.cents / 100);
      state.credits.push(returned.vendor_credit_id!);
      return;
    }
    case 'price_adjustment': {
      const billId = at(state.bills, step.pick);
      if (!billId) return;
      const response = await api.request('POST', '/v1/vendor-credits', {
        key: w.owner.secret,
        body: { vendor_id: w.vendor.id, amount: money(step.cents), source_type: 'price_adjustment', source_id: billId },
      });
      if (response.status === 201) state.credits.push(response.body.id);
      else expect(['vendor_bill_invalid_transition', 'parameter_invalid']).toContain(response.error.code);
      return;
    }
    case 'pay': {
      const bills = [...new Set(step.picks.map((p) => at(state.bills, p)).filter((id): id is string => id !== undefined))];
      if (!bills.length) return;
      const current = await Promise.all(bills.map((id) => api.get(w.owner, `/v1/vendor-bills/${id}`)));
      const lines = current
        .map((bill) => ({ bill_id: bill.id, amount: amount(bill.balance_due).times(step.percent).div(100).toDecimalPlaces(2).toString() }))
        .filter((line) => amount(line.amount).gt(0));
      if (!lines.length) return;
      const credits = [...new Set(step.credits.map((p) => at(state.credits, p)).filter((id): id is string => id !== undefined))];
      const response = await api.request('POST', '/v1/ap-payments', {
        key: w.owner.secret,
        body: { bills: lines, vendor_credit_ids: credits, bank_account_id: w.bankAccountId, method: 'check' },
      });
      if (response.status === 201) state.payments.push(response.body.id);
      // Overpaying (percent > 100), paying a paid or voided bill, a spent, voided or expired credit: refused.
      else expect(['vendor_bill_overpayment', 'vendor_bill_not_payable', 'vendor_credit_not_applicable']).toContain(response.error.code);
      return;
    }
    case 'void_payment': {
      const id = at(state.payments, step.pick);
      if (!id) return;
      const response = await api.request('POST', `/v1/ap-payments/${id}/void`, { key: w.owner.secret, body: {} });
      if (response.status !== 200) expect(response.error.code).toBe('ap_payment_invalid_transition');
      return;
    }
    case 'void_credit': {
      const id = at(state.credits, step.pick);
      if (!id) return;
      const response = await api.request('POST', `/v1/vendor-credits/${id}/void`, { key: w.owner.secret, body: {} });
      if (response.status !== 200) expect(response.error.code).toBe('vendor_credit_invalid_transition');
      return;
    }
    case 'void_bill': {
      const id = at(state.bills, step.pick);
      if (!id) return;
      const response = await api.request('POST', `/v1/vendor-bills/${id}/void`, { key: w.owner.secret, body: {} });
      if (response.status !== 200) expect(['vendor_bill_has_payments', 'vendor_bill_invalid_transition']).toContain(response.error.code);
      return;
    }
    case 'expire':
      await runCreditExpiry(new Date(Date.now() + EXPIRY_RUN_AHEAD_MS), { entityIds: [w.owner.entity.id] });
      return;
  }
}

/** The expiry job runs this far ahead of now, past every expiring credit's expires_at (now + 1 h). */
const EXPIRY_RUN_AHEAD_MS = 7_200_000;

type Bill = { id: string; status: string; bill_total: number; amount_paid: number; balance_due: number };
type Credit = {
  id: string;
  status: string;
  amount: string;
  remaining_amount: string;
  voided_amount: string;
  forfeited_amount: string;
  applications: { amount: string; status: string }[];
};

async function checkInvariants(w: ApWorld, label: string): Promise<void> {
  const bills = await all<Bill>('/v1/vendor-bills', w);
  const credits = await all<Credit>('/v1/vendor-credits', w, { 'expand[]': ['data.applications'] });
  // As of the expiry run's date: its forfeitures are dated then, which after 22:00 UTC is tomorrow.
  const asOfDate = new Date(Date.now() + EXPIRY_RUN_AHEAD_MS).toISOString().slice(0, 10);
  const trial = await api.get(w.owner, `/v1/entities/${w.owner.entity.id}/reconciliation/trial-balance`, { as_of_date: asOfDate });
  const aging = await api.get(w.owner, `/v1/entities/${w.owner.entity.id}/reconciliation/ap-aging`);
  const balanceOf = (key: string, side: 'debit' | 'credit') => {
    const row = trial.accounts.find((account) => account.account_id === w.system[key]);
    if (!row) return amount(0);
    return side === 'credit' ? amount(row.credit_balance).minus(row.debit_balance) : amount(row.debit_balance).minus(row.credit_balance);
  };
  const openBalance = sum(bills.filter((b) => b.status === 'open' || b.status === 'partially_paid').map((b) => b.balance_due));
  expect(balanceOf('accounts_payable', 'credit').toString(), `AP control ${label}`).toBe(openBalance.toString());
  expect(amount(aging.totals.total).toString(), `AP aging ${label}`).toBe(openBalance.toString());
  expect(amount(aging.accounts_payable_balance).toString(), `AP aging control ${label}`).toBe(openBalance.toString());
  const remaining = sum(credits.map((c) => c.remaining_amount));
  expect(balanceOf('vendor_credits', 'credit').toString(), `vendor_credits ${label}`).toBe(remaining.toString());
  expect(balanceOf('vendor_returns_receivable', 'debit').toString(), `vendor_returns_receivable ${label}`).toBe(remaining.toString());
  expect(trial.total_debits, `trial balance ${label}`).toBe(trial.total_credits);
  for (const bill of bills) {
    expect(bill.amount_paid, `bill ${bill.id} ${label}`).toBeGreaterThanOrEqual(0);
    expect(bill.amount_paid, `bill ${bill.id} overpaid ${label}`).toBeLessThanOrEqual(bill.bill_total);
    expect(amount(bill.balance_due).toString()).toBe(amount(bill.bill_total).minus(bill.amount_paid).toString());
  }
  for (const credit of credits) {
    const applied = sum(credit.applications.filter((a) => a.status === 'applied').map((a) => a.amount));
    expect(amount(credit.remaining_amount).gte(0), `credit ${credit.id} ${label}`).toBe(true);
    expect(
      applied.plus(credit.voided_amount).plus(credit.forfeited_amount).plus(credit.remaining_amount).toString(),
      `credit ${credit.id} over-applied ${label}`,
    ).toBe(amount(credit.amount).toString());
  }
}

describe('AP control', () => {
  it('AP control = Σ open balance_due, vendor credits = Σ remaining_amount, the trial balance ties, nothing overpaid or over-applied, after any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (generated) => {
        const w = await apWorld(api);
        const state: State = { bills: [], credits: [], payments: [] };
        const opening: Op[] = [
          { kind: 'bill', cents: 123_456 },
          { kind: 'bill', cents: 50_000 },
          { kind: 'credit', cents: 20_000, expiring: false },
          { kind: 'return', cents: 4_321 },
        ];
        for (const [index, step] of [...opening, ...generated].entries()) {
          await run(w, state, step);
          await checkInvariants(w, `after step ${index + 1} ${JSON.stringify(step)}`);
        }
      }),
      { numRuns: Number(process.env.AP_PROPERTY_RUNS ?? 10), endOnFailure: true },
    );
  }, 600_000);
});
