/** Vendor bills (accounts payable): the resource, its lines, E21, E22 and the lifecycle through E13 and void. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { glBalance } from '../support/cash-fixtures';
import { unchecked } from '../support/client';
import { eventTypesOf, setupTestApi } from '../support/harness';
import { closedPeriod, entryLines, userWithKey } from '../support/ledger-helpers';
import { payablesWorld } from '../support/payables-fixtures';

const api = setupTestApi();
const BILLS = '/v1/vendor-bills';

const billEvents = async (owner: Parameters<typeof eventTypesOf>[0], id: string) =>
  (await eventTypesOf(owner, id)).filter((type) => type.startsWith('vendor_bill.'));

describe('the vendor bill resource', () => {
  it('object is the constant vendor_bill and bill_number is sequential per entity', async () => {
    const w = await payablesWorld(api);
    const first = await w.bill();
    const second = await w.bill();
    expect(first).toMatchObject({ object: 'vendor_bill', bill_number: 'BILL-000001', entity_id: w.owner.entity.id, vendor_id: w.vendor.id, status: 'draft' });
    expect(second.bill_number).toBe('BILL-000002');
    const other = await payablesWorld(api);
    expect((await other.bill()).bill_number).toBe('BILL-000001');
  });

  it('bill_number stays gap-free under concurrency: 20 parallel creates, the refused ones take no number', async () => {
    const w = await payablesWorld(api);
    // Every third request repeats a vendor invoice number, so some are refused mid-flight.
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.request('POST', BILLS, {
          key: w.clerk.secret,
          body: {
            vendor_id: w.vendor.id,
            vendor_invoice_number: i % 3 === 0 ? 'DUP-1' : `INV-${i}`,
            lines: [{ type: 'expense', account_id: w.chart.expense, amount: 1 }],
          },
        }),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused.length).toBe(6);
    for (const r of refused) expect(r.error).toMatchObject({ code: 'vendor_invoice_number_taken', param: 'vendor_invoice_number' });
    const numbers = created.map((r) => r.body.bill_number).sort();
    expect(numbers).toEqual(Array.from({ length: created.length }, (_, i) => `BILL-${String(i + 1).padStart(6, '0')}`));
  });

  it("vendor_invoice_number is the vendor's own number: a duplicate for the same vendor is 409 naming the existing bill's id", async () => {
    const w = await payablesWorld(api);
    const original = await w.bill({ vendor_invoice_number: 'A-100' });
    const duplicate = await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { vendor_id: w.vendor.id, vendor_invoice_number: 'a-100' },
      409,
      'vendor_invoice_number_taken',
      'vendor_invoice_number',
    );
    expect(duplicate).toMatchObject({ existing_bill_id: original.id });
    expect(duplicate.hint).toContain(original.bill_number);
    // Another vendor may use the same number; a voided bill frees it.
    const otherVendor = await api.post(w.owner, '/v1/vendors', { name: 'Other supplier' });
    expect((await w.bill({ vendor_id: otherVendor.id, vendor_invoice_number: 'A-100' })).vendor_invoice_number).toBe('A-100');
    const renamed = await w.bill({ vendor_invoice_number: 'A-101' });
    await api.expectRefusal(
      w.owner,
      'PATCH',
      `${BILLS}/${renamed.id}`,
      { vendor_invoice_number: 'A-100' },
      409,
      'vendor_invoice_number_taken',
      'vendor_invoice_number',
    );
    await api.post(w.owner, `${BILLS}/${original.id}/void`, undefined, 200);
    expect((await w.bill({ vendor_invoice_number: 'A-100' })).vendor_invoice_number).toBe('A-100');
  });

  it('due_date comes from payment_term_id when not given; a sent due_date wins; without terms the bill is due on its date', async () => {
    const w = await payablesWorld(api);
    const termId = newId();
    // No route manages payment terms yet: the row a terms endpoint would write.
    await w.owner.sql((db) => db.query(`INSERT INTO payment_terms (id, entity_id, name, net_days) VALUES ($1, $2, 'Net 30', 30)`, [termId, w.owner.entity.id]));
    const net30 = await w.bill({ bill_date: '2026-01-10', payment_term_id: termId });
    expect(net30).toMatchObject({ bill_date: '2026-01-10', due_date: '2026-02-09', payment_term_id: termId });
    expect((await w.bill({ bill_date: '2026-01-10', payment_term_id: termId, due_date: '2026-01-20' })).due_date).toBe('2026-01-20');
    expect((await w.bill({ bill_date: '2026-03-05' })).due_date).toBe('2026-03-05');
    const moved = await api.patch(w.clerk.secret, `${BILLS}/${net30.id}`, { bill_date: '2026-02-01' });
    expect(moved.due_date).toBe('2026-03-03');
    await api.expectRefusal(w.owner, 'POST', BILLS, { vendor_id: w.vendor.id, payment_term_id: newId() }, 404, 'not_found', 'payment_term_id');
    await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { vendor_id: w.vendor.id, bill_date: '2026-01-10', due_date: '2026-01-09' },
      400,
      'parameter_invalid',
      'due_date',
    );
  });

  it('balance_due is bill_total minus amount_paid; totals add the lines, tax and shipping; there is no amount_due', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill({
      tax_total: 5,
      shipping_total: '2.50',
      currency: 'EUR',
      notes: 'March rent and parts',
      metadata: { source: 'procurement' },
      lines: [
        { type: 'expense', account_id: w.chart.expense, amount: '100.10', description: 'Rent' },
        // 3 × 2.3333 = 6.9999 → 7.00
        { type: 'item', product_id: w.product.id, quantity: 3, unit_cost: '2.3333' },
      ],
    });
    expect(bill).toMatchObject({
      subtotal: 107.1,
      tax_total: 5,
      shipping_total: 2.5,
      bill_total: 114.6,
      amount_paid: 0,
      balance_due: 114.6,
      currency: 'EUR',
      notes: 'March rent and parts',
      metadata: { source: 'procurement' },
    });
    expect(bill).not.toHaveProperty('amount_due');
    expect(bill.lines!.map((l) => [l.type, l.account_id, l.product_id, l.quantity, l.unit_cost, l.amount])).toEqual([
      ['expense', w.chart.expense, null, null, null, 100.1],
      ['item', null, w.product.id, 3, 2.3333, 7],
    ]);
  });

  it("currency defaults to the vendor's; bad lines are 400/404 on the line's field and write nothing", async () => {
    const w = await payablesWorld(api);
    expect((await w.bill()).currency).toBe('USD');
    await api.expectRefusal(w.owner, 'POST', BILLS, { vendor_id: newId() }, 404, 'not_found', 'vendor_id');
    const badLines: [lines: unknown[], status: number, code: string, param: string][] = [
      [
        [
          { type: 'expense', account_id: w.chart.expense, amount: 1 },
          { type: 'expense', account_id: newId(), amount: 1 },
        ],
        404,
        'not_found',
        'lines[1].account_id',
      ],
      [[{ type: 'expense', account_id: w.chart.system.accounts_payable, amount: 1 }], 422, 'gl_account_control', 'lines[0].account_id'],
      [[{ type: 'item', product_id: newId(), quantity: 1, unit_cost: 1 }], 404, 'not_found', 'lines[0].product_id'],
      [[{ type: 'item', product_id: w.product.id, quantity: 0, unit_cost: 1 }], 400, 'parameter_invalid', 'lines[0].quantity'],
      [[{ type: 'expense', amount: 1 }], 400, 'parameter_missing', 'lines[0].account_id'],
      [[{ type: 'expense', account_id: w.chart.expense, amount: 1, quantity: 2 }], 400, 'parameter_invalid', 'lines[0].quantity'],
      [[{ type: 'item', product_id: w.product.id, quantity: 1 }], 400, 'parameter_missing', 'lines[0].unit_cost'],
    ];
    for (const [lines, status, code, param] of badLines) {
      await api.expectRefusal(w.owner, 'POST', BILLS, unchecked({ vendor_id: w.vendor.id, lines }), status, code, param);
    }
  });
});

describe('bill lines: created, updated and deleted while the bill is a draft', () => {
  it('adds, changes and removes expense and item lines, recalculating the totals', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill({}, 10);
    const added = await api.post(w.clerk.secret, `${BILLS}/${bill.id}/lines`, { type: 'item', product_id: w.product.id, quantity: 4, unit_cost: '1.25' });
    expect(added).toMatchObject({ subtotal: 15, bill_total: 15 });
    const itemLine = added.lines![1];
    const changed = await api.patch(w.clerk.secret, `${BILLS}/${bill.id}/lines/${itemLine.id}`, { quantity: 2, description: 'Half' });
    expect(changed.lines![1]).toMatchObject({ quantity: 2, unit_cost: 1.25, amount: 2.5, description: 'Half' });
    expect(changed.subtotal).toBe(12.5);
    await api.expectRefusal(w.owner, 'PATCH', `${BILLS}/${bill.id}/lines/${itemLine.id}`, { amount: 3 }, 400, 'parameter_invalid', 'amount');
    const expenseLine = added.lines![0];
    expect((await api.patch(w.clerk.secret, `${BILLS}/${bill.id}/lines/${expenseLine.id}`, { amount: '20.05' })).bill_total).toBe(22.55);
    const removed = await api.delete(w.clerk.secret, `${BILLS}/${bill.id}/lines/${itemLine.id}`);
    expect(removed.lines!.map((l) => l.id)).toEqual([expenseLine.id]);
    expect(removed).toMatchObject({ subtotal: 20.05, bill_total: 20.05, balance_due: 20.05 });
    await api.expectRefusal(w.owner, 'DELETE', `${BILLS}/${bill.id}/lines/${itemLine.id}`, undefined, 404, 'not_found', 'line_id');
    expect(await billEvents(w.owner, bill.id)).toEqual([
      'vendor_bill.created',
      'vendor_bill.updated',
      'vendor_bill.updated',
      'vendor_bill.updated',
      'vendor_bill.updated',
    ]);
  });

  it('refuses line and field changes once the bill is submitted (409 with current_status); notes and metadata still change', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill();
    await api.post(w.clerk.secret, `${BILLS}/${bill.id}/submit`, undefined, 200);
    const line = bill.lines![0];
    const refused = await api.expectRefusal(
      w.owner,
      'POST',
      `${BILLS}/${bill.id}/lines`,
      { type: 'expense', account_id: w.chart.expense, amount: 1 },
      409,
      'vendor_bill_invalid_transition',
      'id',
    );
    expect(refused).toMatchObject({ current_status: 'pending_approval' });
    await api.expectRefusal(w.owner, 'PATCH', `${BILLS}/${bill.id}/lines/${line.id}`, { amount: 2 }, 409, 'vendor_bill_invalid_transition');
    await api.expectRefusal(w.owner, 'DELETE', `${BILLS}/${bill.id}/lines/${line.id}`, undefined, 409, 'vendor_bill_invalid_transition');
    await api.expectRefusal(w.owner, 'PATCH', `${BILLS}/${bill.id}`, { tax_total: 1 }, 409, 'vendor_bill_invalid_transition');
    expect((await api.patch(w.clerk.secret, `${BILLS}/${bill.id}`, { notes: 'Checked', metadata: { batch: '7' } })).notes).toBe('Checked');
  });
});

describe('E21 GET /v1/vendor-bills/{id}', () => {
  it('expands lines, lines.product, payments, gl_entries, vendor and purchase_order', async () => {
    const w = await payablesWorld(api);
    const bill = await w.approvedBill({
      lines: [
        { type: 'expense', account_id: w.chart.expense, amount: 40 },
        { type: 'item', product_id: w.product.id, quantity: 2, unit_cost: 5 },
      ],
    });
    await api.post(w.poster.secret, `${BILLS}/${bill.id}/post`, {}, 200);
    const plain = await api.get(w.owner, `${BILLS}/${bill.id}`);
    expect(plain).not.toHaveProperty('lines');
    expect(plain).not.toHaveProperty('vendor');
    const full = await api.get(w.owner, `${BILLS}/${bill.id}`, {
      'expand[]': ['lines', 'lines.product', 'payments', 'gl_entries', 'vendor', 'purchase_order'],
    });
    expect(full.lines!.map((l) => (l.product as { id: string } | null)?.id ?? null)).toEqual([null, w.product.id]);
    expect(full.payments).toEqual([]);
    expect((full.gl_entries as { id: string; source_type: string }[]).map((e) => [e.id, e.source_type])).toEqual([[full.journal_entry_id, 'vendor_bill']]);
    expect(full.vendor).toMatchObject({ id: w.vendor.id, object: 'vendor' });
    expect(full.purchase_order).toBeNull();
    const wrong = await api.request('GET', `${BILLS}/${bill.id}`, { key: w.owner.secret, query: { 'expand[]': 'data.lines' } });
    expect(wrong.error).toMatchObject({ code: 'expand_error', param: 'expand[0]' });
    expect((await api.request('GET', `${BILLS}/${newId()}`, { key: w.owner.secret })).error).toMatchObject({ code: 'not_found', param: 'id' });
  });
});

describe('E22 GET /v1/vendor-bills', () => {
  it('pages by cursor with limit at most 100 (101 is 400) and expands with the data. prefix', async () => {
    const w = await payablesWorld(api);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await w.bill()).id);
    const over = await api.request('GET', BILLS, { key: w.owner.secret, query: { limit: '101' } });
    expect(over.status).toBe(400);
    expect(over.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    expect((await api.request('GET', BILLS, { key: w.owner.secret, query: { limit: '100' } })).status).toBe(200);
    const first = await api.get(w.owner, BILLS, { limit: '2', 'expand[]': 'data.lines' });
    expect(first.data.map((b) => b.id)).toEqual([ids[2], ids[1]]);
    expect(first).toMatchObject({ object: 'list', has_more: true, next_cursor: ids[1] });
    expect(first.data[0].lines!.length).toBe(1);
    const second = await api.get(w.owner, BILLS, { limit: '2', starting_after: first.next_cursor! });
    expect(second.data.map((b) => b.id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
    const unprefixed = await api.request('GET', BILLS, { key: w.owner.secret, query: { 'expand[]': 'lines' } });
    expect(unprefixed.error).toMatchObject({ code: 'expand_error' });
  });

  it('filters by vendor, status (void and voided alike; rejected and open included), created on or after / on or before, and due_date on or before', async () => {
    const w = await payablesWorld(api);
    const otherVendor = await api.post(w.owner, '/v1/vendors', { name: 'Second supplier' });
    const draft = await w.bill({ bill_date: '2026-01-01', due_date: '2026-01-31' });
    const voided = await w.bill({ vendor_id: otherVendor.id, bill_date: '2026-01-01', due_date: '2026-03-31' });
    await api.post(w.owner, `${BILLS}/${voided.id}/void`, undefined, 200);
    const posted = await w.approvedBill({ bill_date: '2026-01-05', due_date: '2026-02-15' });
    await api.post(w.poster.secret, `${BILLS}/${posted.id}/post`, {}, 200);
    const rejected = await w.bill();
    await api.post(w.clerk.secret, `${BILLS}/${rejected.id}/submit`, undefined, 200);
    await api.post(w.approver.secret, `${BILLS}/${rejected.id}/reject`, { reason: 'Wrong vendor' }, 200);
    const ids = async (query: Record<string, string>) => (await api.get(w.owner, BILLS, query)).data.map((b) => b.id);
    expect(await ids({ vendor_id: otherVendor.id })).toEqual([voided.id]);
    expect(await ids({ status: 'void' })).toEqual([voided.id]);
    expect(await ids({ status: 'voided' })).toEqual([voided.id]);
    expect(await ids({ status: 'open' })).toEqual([posted.id]);
    expect(await ids({ status: 'rejected' })).toEqual([rejected.id]);
    expect(await ids({ status: 'draft' })).toEqual([draft.id]);
    expect(await ids({ due_date_lte: '2026-02-15' })).toEqual(expect.arrayContaining([posted.id, draft.id]));
    expect((await ids({ due_date_lte: '2026-02-15' })).length).toBe(2);
    const created = await api.get(w.owner, `${BILLS}/${posted.id}`);
    expect(await ids({ created_gte: created.created_at, created_lte: created.created_at })).toEqual([posted.id]);
    const bad = await api.request('GET', BILLS, { key: w.owner.secret, query: { status: 'closed' } });
    expect(bad.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
  });
});

describe('the lifecycle: draft → pending_approval → approved or rejected → open (E13) → voided', () => {
  it('approval needs the purchasing.approve_bills permission, and the creator can neither approve nor post (403 segregation_of_duties)', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill({}, 250);
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${bill.id}/approve`, undefined, 409, 'vendor_bill_invalid_transition', 'id', w.approver.secret);
    const submitted = await api.post(w.clerk.secret, `${BILLS}/${bill.id}/submit`, undefined, 200);
    expect(submitted).toMatchObject({ status: 'pending_approval', submitted_by: w.clerk.userId });
    const denied = await api.expectRefusal(
      w.owner,
      'POST',
      `${BILLS}/${bill.id}/approve`,
      undefined,
      403,
      'insufficient_permissions',
      undefined,
      w.poster.secret,
    );
    expect(denied).toMatchObject({ permission: 'purchasing.approve_bills' });
    // The creator holding the permission is still refused: approver and creator must differ.
    const creatorApprover = await userWithKey(w.owner, ['purchasing.approve_bills']);
    const own = await w.bill({}, 10, creatorApprover.secret);
    await api.post(creatorApprover.secret, `${BILLS}/${own.id}/submit`, undefined, 200);
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${own.id}/approve`, undefined, 403, 'segregation_of_duties', 'id', creatorApprover.secret);
    const approved = await api.post(w.approver.secret, `${BILLS}/${bill.id}/approve`, undefined, 200);
    expect(approved).toMatchObject({ status: 'approved', approved_by: w.approver.userId, created_by_user_id: w.clerk.userId });
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${bill.id}/post`, {}, 403, 'segregation_of_duties', 'id', w.clerk.secret);
    const posted = await api.post(w.poster.secret, `${BILLS}/${bill.id}/post`, {}, 200);
    expect(posted).toMatchObject({
      status: 'open',
      created_by_user_id: w.clerk.userId,
      approved_by: w.approver.userId,
      posted_by: w.poster.userId,
      skip_permission_check: false,
      balance_due: 250,
    });
    expect(await billEvents(w.owner, bill.id)).toEqual(['vendor_bill.created', 'vendor_bill.submitted', 'vendor_bill.approved', 'vendor_bill.posted']);
  });

  it('posting writes the AP journal entry: debit expense per line (an item line without a purchase order: cost of goods sold), credit accounts payable', async () => {
    const w = await payablesWorld(api);
    const bill = await w.approvedBill({
      bill_date: '2026-02-03',
      tax_total: 3,
      shipping_total: 2,
      lines: [
        { type: 'expense', account_id: w.chart.expense, amount: '80.25' },
        { type: 'item', product_id: w.product.id, quantity: 5, unit_cost: 3 },
      ],
    });
    const posted = await api.post(w.poster.secret, `${BILLS}/${bill.id}/post`, {}, 200);
    const { entry, lines } = await entryLines(api, w.owner, posted.journal_entry_id);
    expect(entry).toMatchObject({ entry_date: '2026-02-03', source_type: 'vendor_bill', source_id: bill.id, status: 'posted' });
    const expenseLine = entry.lines.find((l) => l.account_id === w.chart.expense);
    expect(expenseLine).toMatchObject({ debit: 80.25, credit: 0 });
    expect(lines.filter((l) => l.key).map((l) => [l.key, l.debit, l.credit])).toEqual([
      ['cost_of_goods_sold', 15, 0],
      ['cost_of_goods_sold', 3, 0],
      ['cost_of_goods_sold', 2, 0],
      ['accounts_payable', 0, 100.25],
    ]);
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-100.25');
  });

  it('reject (with a reason) sends the bill back to editing; it can be corrected and submitted again', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill();
    await api.post(w.clerk.secret, `${BILLS}/${bill.id}/submit`, undefined, 200);
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${bill.id}/reject`, unchecked({}), 400, 'parameter_missing', 'reason', w.approver.secret);
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${bill.id}/reject`, { reason: 'No' }, 403, 'insufficient_permissions', undefined, w.poster.secret);
    const rejected = await api.post(w.approver.secret, `${BILLS}/${bill.id}/reject`, { reason: 'Amount differs from the quote' }, 200);
    expect(rejected).toMatchObject({ status: 'rejected', rejected_by: w.approver.userId, rejection_reason: 'Amount differs from the quote' });
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${bill.id}/post`, {}, 409, 'vendor_bill_invalid_transition', 'id', w.poster.secret);
    const corrected = await api.patch(w.clerk.secret, `${BILLS}/${bill.id}/lines/${bill.lines![0].id}`, { amount: 90 });
    expect(corrected.bill_total).toBe(90);
    expect((await api.post(w.clerk.secret, `${BILLS}/${bill.id}/submit`, undefined, 200)).status).toBe('pending_approval');
    expect((await api.post(w.approver.secret, `${BILLS}/${bill.id}/approve`, undefined, 200)).status).toBe('approved');
  });

  it('an empty bill is not submitted (422 vendor_bill_empty)', async () => {
    const w = await payablesWorld(api);
    const empty = await api.post(w.clerk.secret, BILLS, { vendor_id: w.vendor.id });
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${empty.id}/submit`, undefined, 422, 'vendor_bill_empty', 'id', w.clerk.secret);
  });

  it('skip_permission_check needs migration:write (403 insufficient_scope, required migration:write) and is recorded on the bill and its journal entry', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill({}, 75);
    const noMigration = await userWithKey(
      w.owner,
      [],
      ALL_SCOPES.filter((scope) => !scope.startsWith('migration')),
    );
    const refused = await api.expectRefusal(
      w.owner,
      'POST',
      `${BILLS}/${bill.id}/post`,
      { skip_permission_check: true },
      403,
      'insufficient_scope',
      undefined,
      noMigration.secret,
    );
    expect(refused).toMatchObject({ required: 'migration:write' });
    // The migration key is the creator's and the bill is a draft: both checks are skipped.
    const posted = await api.post(w.clerk.secret, `${BILLS}/${bill.id}/post`, { skip_permission_check: true }, 200);
    expect(posted).toMatchObject({ status: 'open', skip_permission_check: true, posted_by: w.clerk.userId, approved_by: null });
    const entry = await api.get(w.owner, `/v1/journal-entries/${posted.journal_entry_id}`);
    expect(entry.metadata).toEqual({ skip_permission_check: 'true' });
  });

  it('a closed period gives 422 period_closed and writes nothing', async () => {
    const w = await payablesWorld(api);
    await closedPeriod(api, w.owner, { period_name: 'Jan 2020', start_date: '2020-01-01', end_date: '2020-01-31' });
    const bill = await w.approvedBill({ bill_date: '2020-01-15' });
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${bill.id}/post`, {}, 422, 'period_closed', 'bill_date', w.poster.secret);
    expect((await api.get(w.owner, `${BILLS}/${bill.id}`)).status).toBe('approved');
  });

  it('E13 takes an Idempotency-Key: a retry returns the original response and posts once', async () => {
    const w = await payablesWorld(api);
    const bill = await w.approvedBill();
    const headers = { 'Idempotency-Key': `post-${bill.id}` };
    const first = await api.request('POST', `${BILLS}/${bill.id}/post`, { key: w.poster.secret, headers, body: {} });
    const retry = await api.request('POST', `${BILLS}/${bill.id}/post`, { key: w.poster.secret, headers, body: {} });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    const entries = await api.get(w.owner, '/v1/journal-entries', { source_id: bill.id });
    expect(entries.data.length).toBe(1);
  });

  it('void reverses the posting; balance_due is not coerced; a voided bill moves no further', async () => {
    const w = await payablesWorld(api);
    const bill = await w.approvedBill({}, 60);
    const posted = await api.post(w.poster.secret, `${BILLS}/${bill.id}/post`, {}, 200);
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-60');
    const voided = await api.post(w.poster.secret, `${BILLS}/${bill.id}/void`, undefined, 200);
    expect(voided).toMatchObject({ status: 'voided', voided_by: w.poster.userId, balance_due: 60, bill_total: 60 });
    expect(voided.void_journal_entry_id).not.toBeNull();
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('0');
    const original = await api.get(w.owner, `/v1/journal-entries/${posted.journal_entry_id}`);
    expect(original.status).toBe('reversed');
    const expanded = await api.get(w.owner, `${BILLS}/${bill.id}`, { 'expand[]': 'gl_entries' });
    expect((expanded.gl_entries as { id: string }[]).map((e) => e.id)).toEqual([posted.journal_entry_id, voided.void_journal_entry_id]);
    await api.expectRefusal(w.owner, 'POST', `${BILLS}/${bill.id}/void`, undefined, 409, 'vendor_bill_invalid_transition', 'id');
    // An unposted bill is voided without touching the ledger.
    const draft = await w.bill();
    expect(await api.post(w.owner, `${BILLS}/${draft.id}/void`, undefined, 200)).toMatchObject({ status: 'voided', void_journal_entry_id: null });
    expect(await billEvents(w.owner, bill.id)).toEqual([
      'vendor_bill.created',
      'vendor_bill.submitted',
      'vendor_bill.approved',
      'vendor_bill.posted',
      'vendor_bill.voided',
    ]);
  });
});

describe('concurrent moves', () => {
  it('of racing approvals, rejections and posts of one bill exactly one of each stage wins, and one AP entry is written', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill({}, 30);
    await api.post(w.clerk.secret, `${BILLS}/${bill.id}/submit`, undefined, 200);
    const reviews = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? api.request('POST', `${BILLS}/${bill.id}/approve`, { key: w.approver.secret })
          : api.request('POST', `${BILLS}/${bill.id}/reject`, { key: w.approver.secret, body: { reason: 'Race' } }),
      ),
    );
    expect(reviews.filter((r) => r.status === 200).length).toBe(1);
    for (const r of reviews.filter((r) => r.status !== 200)) expect(r.error).toMatchObject({ code: 'vendor_bill_invalid_transition' });
    const reviewed = await api.get(w.owner, `${BILLS}/${bill.id}`);
    if (reviewed.status === 'rejected') {
      await api.post(w.clerk.secret, `${BILLS}/${bill.id}/submit`, undefined, 200);
      await api.post(w.approver.secret, `${BILLS}/${bill.id}/approve`, undefined, 200);
    }
    const posts = await Promise.all(Array.from({ length: 8 }, () => api.request('POST', `${BILLS}/${bill.id}/post`, { key: w.poster.secret, body: {} })));
    expect(posts.filter((r) => r.status === 200).length).toBe(1);
    expect((await api.get(w.owner, '/v1/journal-entries', { source_id: bill.id })).data.length).toBe(1);
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-30');
  });
});

describe('tags', () => {
  it('vendor_bill is a valid resource type for the tag routes', async () => {
    const w = await payablesWorld(api);
    const bill = await w.bill();
    const tag = await api.post(w.owner, '/v1/tags', { name: 'Disputed' });
    const attached = await api.post(w.owner, `/v1/tags/vendor_bill/${bill.id}`, { tag_id: tag.id }, 200);
    expect(attached.data.map((t) => t.id)).toEqual([tag.id]);
    expect((await api.get(w.owner, `/v1/tags/vendor_bill/${bill.id}`)).data.map((t) => t.name)).toEqual(['Disputed']);
  });
});
