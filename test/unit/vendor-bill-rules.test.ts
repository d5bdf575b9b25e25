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

describe('the AP entry of a bill from a purchase order', () => {
  it('a PO line debits received_not_billed its receipt cost and posts amount − receipt cost to purchase_price_variance (debit over, credit under)', () => {
    const bill = { bill_number: 'BILL-000002', tax_total: '0', shipping_total: '0', bill_total: '45' };
    const posting = billPostingLines(bill, [
      { type: 'item', account_id: null, amount: '30', receipt_cost: '24.5' },
      { type: 'item', account_id: null, amount: '10', receipt_cost: '12' },
      { type: 'item', account_id: null, amount: '5', receipt_cost: null },
    ]);
    expect(posting.map((p) => [p.system_key, p.debit ?? null, p.credit ?? null])).toEqual([
      ['received_not_billed', '24.5', null],
      ['purchase_price_variance', '5.5', null],
      ['received_not_billed', '12', null],
      ['purchase_price_variance', null, '2'],
      ['cost_of_goods_sold', '5', null],
      ['accounts_payable', null, '45'],
    ]);
  });

  it('property: whatever the receipt costs, the entry balances, AP is credited bill_total and received_not_billed is debited exactly the receipt costs', () => {
    const line = fc.record({ amount: decimal(10_000, 2), receipt_cost: fc.option(decimal(10_000, 2), { nil: null }) });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), (lines) => {
        const totals = billTotals(
          lines.map((l) => l.amount),
          '0',
          '0',
        );
        fc.pre(amount(totals.bill_total).gt(0));
        const posting = billPostingLines(
          { bill_number: 'BILL-000003', tax_total: '0', shipping_total: '0', bill_total: totals.bill_total },
          lines.map((l) => ({ type: 'item' as const, account_id: null, amount: l.amount, receipt_cost: l.receipt_cost })),
        );
        expect(checkEntry(posting).ok).toBe(true);
        expect(posting.filter((p) => p.system_key === 'accounts_payable')).toEqual([
          { system_key: 'accounts_payable', credit: amount(totals.bill_total).toString(), memo: 'BILL-000003' },
        ]);
        const rnb = posting.filter((p) => p.system_key === 'received_not_billed').map((p) => p.debit!);
        expect(sum(rnb).eq(sum(lines.flatMap((l) => (l.receipt_cost === null ? [] : [l.receipt_cost]))))).toBe(true);
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
