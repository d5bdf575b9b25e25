/** The pure rules of vendor bills: line amounts, totals, due dates, the AP entry and the status moves. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amount, sum } from '../../shared/money';
import { checkEntry } from '../../shared/ledger/entry-balance';
import { allows, billPostingLines, billTotals, dueDateFrom, itemLineAmount } from '../../shared/payables/bill-rules';
import { decimal, positive } from '../support/decimal-arbitraries';

describe('vendor bill arithmetic', () => {
  it('an item line is quantity × unit cost rounded half away from zero to the cent', () => {
    expect(itemLineAmount('3', '2.3333')).toBe('7');
    expect(itemLineAmount('1', '0.005')).toBe('0.01');
    expect(itemLineAmount('0.5', '0.0049')).toBe('0');
  });

  it('bill_total = Σ line amounts + tax + shipping', () => {
    expect(billTotals(['100.10', '7'], '5', '2.5')).toEqual({ subtotal: '107.1', bill_total: '114.6' });
    expect(billTotals([], '0', '0')).toEqual({ subtotal: '0', bill_total: '0' });
  });

  it('due dates count calendar days across month and year ends', () => {
    expect(dueDateFrom('2026-01-10', 30)).toBe('2026-02-09');
    expect(dueDateFrom('2026-12-15', 30)).toBe('2027-01-14');
    expect(dueDateFrom('2028-02-28', 1)).toBe('2028-02-29');
    expect(dueDateFrom('2026-05-01', 0)).toBe('2026-05-01');
  });

  it('the AP entry of any bill balances and credits accounts payable exactly bill_total', () => {
    const line = fc.oneof(
      fc.record({ type: fc.constant('expense' as const), amount: decimal(10_000, 2) }),
      fc.record({ type: fc.constant('item' as const), quantity: positive(1000, 4), unit_cost: decimal(1000, 4) }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), decimal(1000, 2), decimal(1000, 2), (lines, tax, shipping) => {
        const amounts = lines.map((l) => (l.type === 'expense' ? l.amount : itemLineAmount(l.quantity, l.unit_cost)));
        const totals = billTotals(amounts, tax, shipping);
        fc.pre(amount(totals.bill_total).gt(0));
        const posting = billPostingLines(
          { bill_number: 'BILL-000001', tax_total: tax, shipping_total: shipping, bill_total: totals.bill_total },
          lines.map((l, i) => ({ type: l.type, account_id: l.type === 'expense' ? 'expense-account' : null, amount: amounts[i] })),
        );
        expect(checkEntry(posting).ok).toBe(true);
        const credits = posting.filter((p) => p.credit !== undefined);
        expect(credits).toEqual([{ system_key: 'accounts_payable', credit: amount(totals.bill_total).toString(), memo: 'BILL-000001' }]);
        expect(sum(posting.flatMap((p) => (p.debit ? [p.debit] : []))).eq(totals.bill_total)).toBe(true);
      }),
    );
  });
});

describe('vendor bill status moves', () => {
  it('edits and submission from draft or rejected only; approval and rejection from pending_approval; posting from approved', () => {
    expect(allows('edit', 'draft') && allows('edit', 'rejected')).toBe(true);
    expect(allows('edit', 'pending_approval') || allows('edit', 'open')).toBe(false);
    expect(allows('approve', 'pending_approval') && allows('reject', 'pending_approval')).toBe(true);
    expect(allows('approve', 'draft')).toBe(false);
    expect(allows('post', 'approved')).toBe(true);
    expect(allows('post', 'pending_approval')).toBe(false);
    expect(allows('post_skipping_approval', 'draft')).toBe(true);
    expect(allows('post_skipping_approval', 'open')).toBe(false);
  });

  it('void from any status before payment; never from partially_paid, paid or voided', () => {
    for (const status of ['draft', 'pending_approval', 'approved', 'rejected', 'open'] as const) expect(allows('void', status), status).toBe(true);
    for (const status of ['partially_paid', 'paid', 'voided'] as const) expect(allows('void', status), status).toBe(false);
  });
});
