/** Vendor credits: the resource as the spec's table words it, E16, listing, void and the expiry job. */
import { describe, expect, it } from 'vitest';
import { handler as scheduledExpiry } from '../../functions/platform/expire-vendor-credits';
import { newId } from '../../shared/ids';
import { runCreditExpiry } from '../../shared/payables/expire-credits';
import { apWorld } from '../support/ap-fixtures';
import { glBalance } from '../support/cash-fixtures';
import { eventTypesOf, setupTestApi } from '../support/harness';
import { closedPeriod, entryLines, userWithKey } from '../support/ledger-helpers';

const api = setupTestApi();
const CREDITS = '/v1/vendor-credits';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const creditEvents = async (owner: Parameters<typeof eventTypesOf>[0], id: string) =>
  (await eventTypesOf(owner, id)).filter((type) => type.startsWith('vendor_credit.'));
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('the vendor credit resource (spec table)', () => {
  it('A ledger entry reducing what is owed to a vendor; issued from a vendor return, a negotiated discount or a manual grant', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(100);
    const manual = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 10 });
    const discount = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 15, source_type: 'price_adjustment', source_id: bill.id });
    const returned = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 5, source_type: 'vendor_return', source_id: newId() });
    expect([manual.source_type, discount.source_type, returned.source_type]).toEqual(['manual', 'price_adjustment', 'vendor_return']);
    // Applied to the bill, the three credits reduce what is owed to the vendor by 30.
    const payment = await api.post(w.owner, '/v1/ap-payments', {
      bills: [{ bill_id: bill.id, amount: 30 }],
      vendor_credit_ids: [manual.id, discount.id, returned.id],
      method: 'check',
    });
    expect(payment).toMatchObject({ amount: 0, credit_total: 30, bank_account_id: null });
    expect((await api.get(w.owner, `/v1/vendor-bills/${bill.id}`)).balance_due).toBe(70);
  });

  it('At issuance the GL posts debit vendor_returns_receivable, credit vendor_credits', async () => {
    const w = await apWorld(api);
    const credit = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: '12.34', credit_date: '2026-03-15' });
    const { entry, lines } = await entryLines(api, w.owner, credit.journal_entry_id);
    expect(entry).toMatchObject({ entry_date: '2026-03-15', status: 'posted', source_type: 'vendor_credit', source_id: credit.id });
    expect(lines).toEqual([
      { key: 'vendor_returns_receivable', debit: 12.34, credit: 0 },
      { key: 'vendor_credits', debit: 0, credit: 12.34 },
    ]);
  });

  it('It is applied to an open vendor bill through POST /v1/ap-payments with vendor_credit_ids[]', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(50);
    const credit = await w.credit(20);
    const payment = await api.post(w.owner, '/v1/ap-payments', {
      bills: [{ bill_id: bill.id, amount: 50 }],
      vendor_credit_ids: [credit.id],
      bank_account_id: w.bankAccountId,
      method: 'ach',
    });
    expect(payment).toMatchObject({ amount: 30, credit_total: 20, total_applied: 50, vendor_credit_ids: [credit.id] });
    expect(await api.get(w.owner, `${CREDITS}/${credit.id}`)).toMatchObject({ remaining_amount: '0.0000', status: 'applied' });
    expect(await api.get(w.owner, `/v1/vendor-bills/${bill.id}`)).toMatchObject({ status: 'paid', balance_due: 0, amount_paid: 50 });
  });

  it('id, entity_id, vendor_id are uuids', async () => {
    const w = await apWorld(api);
    const credit = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 1 });
    expect(credit.id).toMatch(UUID);
    expect(credit).toMatchObject({ object: 'vendor_credit', entity_id: w.owner.entity.id, vendor_id: w.vendor.id, livemode: false });
  });

  it('credit_number is auto-generated and sequential (per entity, gap-free under concurrency)', async () => {
    const w = await apWorld(api);
    const archived = await w.newVendor();
    await api.post(w.owner, `/v1/vendors/${archived.id}/archive`, undefined, 200);
    // Every fourth request names an archived vendor and is refused: it takes no number.
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api.request('POST', CREDITS, { key: w.owner.secret, body: { vendor_id: i % 4 === 0 ? archived.id : w.vendor.id, amount: 1 } }),
      ),
    );
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.error.code)).toEqual(Array(4).fill('party_archived'));
    const numbers = responses.filter((r) => r.status === 201).map((r) => r.body.credit_number);
    expect(numbers.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `VC-${String(i + 1).padStart(6, '0')}`));
    const other = await apWorld(api);
    expect((await other.credit(1)).credit_number).toBe('VC-000001');
  });

  it('amount is a string, numeric with 4 decimals: the total issued', async () => {
    const w = await apWorld(api);
    for (const [sent, shown] of [
      [12.5, '12.5000'],
      ['7', '7.0000'],
      ['3.1000', '3.1000'],
    ] as const) {
      const credit = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: sent });
      expect(credit.amount).toBe(shown);
      expect(typeof credit.amount).toBe('string');
    }
    // Up to 4 decimals, at least a cent; a fifth decimal and amounts under a cent are refused.
    await api.expectRefusal(w.owner, 'POST', CREDITS, { vendor_id: w.vendor.id, amount: '1.00001' }, 400, 'parameter_invalid', 'amount');
    await api.expectRefusal(w.owner, 'POST', CREDITS, { vendor_id: w.vendor.id, amount: 0.0099 }, 400, 'parameter_invalid', 'amount');
    await api.expectRefusal(w.owner, 'POST', CREDITS, { vendor_id: w.vendor.id, amount: 0 }, 400, 'parameter_invalid', 'amount');
  });

  it('amount accepts 4 decimals as the resource carries them (issue 42 row 10): the ledger posts cents, payments apply whole cents, and the balances tie', async () => {
    const w = await apWorld(api);
    const credit = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: '10.0050' });
    expect([credit.amount, credit.remaining_amount]).toEqual(['10.0050', '10.0050']);
    expect((await entryLines(api, w.owner, credit.journal_entry_id)).lines).toEqual([
      { key: 'vendor_returns_receivable', debit: 10.01, credit: 0 },
      { key: 'vendor_credits', debit: 0, credit: 10.01 },
    ]);
    const bill = await w.postedBill(100);
    const payment = await api.post(w.owner, '/v1/ap-payments', {
      bills: [{ bill_id: bill.id, amount: 100 }],
      vendor_credit_ids: [credit.id],
      bank_account_id: w.bankAccountId,
      method: 'check',
    });
    expect(payment).toMatchObject({ amount: 90, credit_total: 10 });
    expect(await api.get(w.owner, `${CREDITS}/${credit.id}`)).toMatchObject({ remaining_amount: '0.0050', status: 'partially_applied' });
    // The ledger holds the remaining in cents: round(0.0050, 2) = 0.01, on both accounts.
    expect([await glBalance(w.owner, 'vendor_credits'), await glBalance(w.owner, 'vendor_returns_receivable')]).toEqual(['-0.01', '0.01']);
    const voided = await api.post(w.owner, `${CREDITS}/${credit.id}/void`, undefined, 200);
    expect(voided).toMatchObject({ status: 'voided', voided_amount: '0.0050', remaining_amount: '0.0000' });
    expect([await glBalance(w.owner, 'vendor_credits'), await glBalance(w.owner, 'vendor_returns_receivable')]).toEqual(['0', '0']);
    // Less than half a cent left posts no release entry.
    const small = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: '5.0049' });
    const second = await w.postedBill(5);
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: second.id, amount: 5 }], vendor_credit_ids: [small.id], method: 'check' });
    const residue = await api.post(w.owner, `${CREDITS}/${small.id}/void`, undefined, 200);
    expect(residue).toMatchObject({ status: 'voided', voided_amount: '0.0049', void_journal_entry_id: null });
    expect([await glBalance(w.owner, 'vendor_credits'), await glBalance(w.owner, 'vendor_returns_receivable')]).toEqual(['0', '0']);
  });

  it('remaining_amount is a string, numeric with 4 decimals: the unapplied balance', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(8);
    const credit = await w.credit('20.25');
    expect((await api.get(w.owner, `${CREDITS}/${credit.id}`)).remaining_amount).toBe('20.2500');
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: bill.id, amount: 8 }], vendor_credit_ids: [credit.id], method: 'check' });
    const after = await api.get(w.owner, `${CREDITS}/${credit.id}`);
    expect(after).toMatchObject({ amount: '20.2500', remaining_amount: '12.2500', status: 'partially_applied' });
  });

  it('source_type is free text; common values manual, vendor_return, price_adjustment, rebate, duplicate_payment, other', async () => {
    const w = await apWorld(api);
    for (const sourceType of ['manual', 'vendor_return', 'rebate', 'duplicate_payment', 'other', 'volume_discount']) {
      expect((await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 1, source_type: sourceType })).source_type).toBe(sourceType);
    }
    expect((await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 1 })).source_type).toBe('manual');
    await api.expectRefusal(w.owner, 'POST', CREDITS, { vendor_id: w.vendor.id, amount: 1, source_type: 'Not Snake' }, 400, 'parameter_invalid', 'source_type');
  });

  it('source_id links the vendor return or vendor bill when applicable', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(40);
    const adjusted = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 10, source_type: 'price_adjustment', source_id: bill.id });
    expect(adjusted.source_id).toBe(bill.id);
    const returnId = newId();
    expect((await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 1, source_type: 'vendor_return', source_id: returnId })).source_id).toBe(
      returnId,
    );
    expect((await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 1 })).source_id).toBeNull();
    // A price adjustment names a posted bill of the same vendor, and adjustments stay within the bill.
    await api.expectRefusal(
      w.owner,
      'POST',
      CREDITS,
      { vendor_id: w.vendor.id, amount: 1, source_type: 'price_adjustment' },
      400,
      'parameter_missing',
      'source_id',
    );
    await api.expectRefusal(
      w.owner,
      'POST',
      CREDITS,
      { vendor_id: w.vendor.id, amount: 31, source_type: 'price_adjustment', source_id: bill.id },
      400,
      'parameter_invalid',
      'amount',
    );
    const other = await w.newVendor();
    await api.expectRefusal(
      w.owner,
      'POST',
      CREDITS,
      { vendor_id: other.id, amount: 1, source_type: 'price_adjustment', source_id: bill.id },
      400,
      'parameter_invalid',
      'source_id',
    );
    const draft = await api.post(w.owner, '/v1/vendor-bills', { vendor_id: w.vendor.id, lines: [{ type: 'expense', account_id: w.expense, amount: 5 }] });
    await api.expectRefusal(
      w.owner,
      'POST',
      CREDITS,
      { vendor_id: w.vendor.id, amount: 1, source_type: 'price_adjustment', source_id: draft.id },
      409,
      'vendor_bill_invalid_transition',
      'source_id',
    );
  });

  it('status is one of open, partially_applied, applied, voided, expired', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(100);
    const [partial, full, voided, expiring, untouched] = [
      await w.credit(10),
      await w.credit(5),
      await w.credit(3),
      await w.credit(4, { expires_at: inDays(1) }),
      await w.credit(2),
    ];
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: bill.id, amount: 4 }], vendor_credit_ids: [partial.id], method: 'check' });
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: bill.id, amount: 5 }], vendor_credit_ids: [full.id], method: 'check' });
    await api.post(w.owner, `${CREDITS}/${voided.id}/void`, {}, 200);
    await runCreditExpiry(new Date(inDays(2)), { entityIds: [w.owner.entity.id] });
    const statuses = await Promise.all([partial, full, voided, expiring, untouched].map(async (c) => (await api.get(w.owner, `${CREDITS}/${c.id}`)).status));
    expect(statuses).toEqual(['partially_applied', 'applied', 'voided', 'expired', 'open']);
  });

  it('expires_at: the remaining balance is forfeited after this date; null means never expires', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(100);
    const expiring = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 10, expires_at: inDays(3) });
    const forever = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 10 });
    expect(forever.expires_at).toBeNull();
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: bill.id, amount: 4 }], vendor_credit_ids: [expiring.id], method: 'check' });
    // Not yet due: nothing happens.
    expect((await runCreditExpiry(new Date(inDays(2)), { entityIds: [w.owner.entity.id] })).expired).toEqual([]);
    const run = await runCreditExpiry(new Date(inDays(400)), { entityIds: [w.owner.entity.id] });
    expect(run.expired).toEqual([
      { entity_id: w.owner.entity.id, vendor_credit_id: expiring.id, credit_number: expiring.credit_number, forfeited_amount: '6.0000' },
    ]);
    const expired = await api.get(w.owner, `${CREDITS}/${expiring.id}`);
    expect(expired).toMatchObject({ status: 'expired', remaining_amount: '0.0000', forfeited_amount: '6.0000', amount: '10.0000' });
    expect((await api.get(w.owner, `${CREDITS}/${forever.id}`)).status).toBe('open');
    // The forfeiture leaves both accounts; what was applied stays applied.
    const { lines } = await entryLines(api, w.owner, expired.expiry_journal_entry_id);
    expect(lines).toEqual([
      { key: 'vendor_credits', debit: 6, credit: 0 },
      { key: 'vendor_returns_receivable', debit: 0, credit: 6 },
    ]);
    await api.expectRefusal(
      w.owner,
      'POST',
      '/v1/ap-payments',
      { bills: [{ bill_id: bill.id, amount: 1 }], vendor_credit_ids: [expiring.id], method: 'check' },
      422,
      'vendor_credit_not_applicable',
      'vendor_credit_ids[0]',
    );
    await api.expectRefusal(w.owner, 'POST', CREDITS, { vendor_id: w.vendor.id, amount: 1, expires_at: inDays(-1) }, 400, 'parameter_invalid', 'expires_at');
    expect(await creditEvents(w.owner, expiring.id)).toEqual(['vendor_credit.created', 'vendor_credit.applied', 'vendor_credit.expired']);
  });

  it('created_at and updated_at are date-times; updated_at moves when the credit does', async () => {
    const w = await apWorld(api);
    const credit = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 3 });
    expect(Date.parse(credit.created_at)).not.toBeNaN();
    const voided = await api.post(w.owner, `${CREDITS}/${credit.id}/void`, {}, 200);
    expect(voided.created_at).toBe(credit.created_at);
    expect(Date.parse(voided.updated_at)).toBeGreaterThanOrEqual(Date.parse(credit.updated_at));
  });

  it('Allowed expand values: vendor, source, applications (anything else is 400 expand_error)', async () => {
    const w = await apWorld(api);
    const credit = await w.credit(1);
    const expanded = await api.get(w.owner, `${CREDITS}/${credit.id}`, { 'expand[]': ['vendor', 'source', 'applications'] });
    expect(expanded).toMatchObject({ vendor: { id: w.vendor.id }, source: null, applications: [] });
    const refused = await api.request('GET', `${CREDITS}/${credit.id}`, { key: w.owner.secret, query: { 'expand[]': ['lines'] } });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'expand_error', param: 'expand[0]' });
  });

  it('the remaining balance past expires_at is forfeited: the state is named expired (states table)', async () => {
    const w = await apWorld(api);
    const credit = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 9, expires_at: inDays(1) });
    // The scheduled handler as AWS invokes it, with the schedule's time; running twice expires it once.
    const first = await scheduledExpiry({ time: inDays(2) });
    const second = await scheduledExpiry({ time: inDays(2) });
    expect(first.expired).toBeGreaterThanOrEqual(1);
    expect(second.expired).toBe(0);
    expect(await api.get(w.owner, `${CREDITS}/${credit.id}`)).toMatchObject({ status: 'expired', forfeited_amount: '9.0000' });
  });
});

describe('E16 GET /v1/vendor-credits/{id}', () => {
  it('Scope purchasing:read', async () => {
    const w = await apWorld(api);
    const credit = await w.credit(2);
    const reader = await userWithKey(w.owner, [], ['purchasing:read']);
    expect((await api.get(reader.secret, `${CREDITS}/${credit.id}`)).id).toBe(credit.id);
    const outsider = await userWithKey(w.owner, [], ['orders:read']);
    const refused = await api.request('GET', `${CREDITS}/${credit.id}`, { key: outsider.secret });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'insufficient_scope', required: 'purchasing:read' });
    // Another entity's credit is a 404.
    const stranger = await api.newEntity();
    const hidden = await api.request('GET', `${CREDITS}/${credit.id}`, { key: stranger.secret });
    expect(hidden.status).toBe(404);
    expect(hidden.error.code).toBe('not_found');
  });

  it('Query expand: vendor, source, applications', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(30);
    const credit = await api.post(w.owner, CREDITS, { vendor_id: w.vendor.id, amount: 6, source_type: 'price_adjustment', source_id: bill.id });
    const got = await api.get(w.owner, `${CREDITS}/${credit.id}`, { 'expand[]': ['vendor', 'source'] });
    expect(got.vendor).toMatchObject({ id: w.vendor.id, object: 'vendor' });
    expect(got.source).toMatchObject({ id: bill.id, object: 'vendor_bill', bill_number: bill.bill_number });
    expect(got.applications).toBeUndefined();
  });

  it('Response: vendor credit (see resources)', async () => {
    const w = await apWorld(api);
    const created = await w.credit(4);
    const got = await api.get(w.owner, `${CREDITS}/${created.id}`);
    expect(got).toMatchObject({
      object: 'vendor_credit',
      id: created.id,
      credit_number: created.credit_number,
      amount: '4.0000',
      remaining_amount: '4.0000',
      status: 'open',
    });
  });

  it('detail includes application events showing which bills were offset and the originating vendor return reference', async () => {
    const w = await apWorld(api);
    const first = await w.postedBill(5, { bill_date: '2026-05-01' });
    const second = await w.postedBill(20, { bill_date: '2026-05-01' });
    const returnId = newId();
    const credit = await api.post(w.owner, CREDITS, {
      vendor_id: w.vendor.id,
      amount: 12,
      source_type: 'vendor_return',
      source_id: returnId,
      credit_date: '2026-05-01',
    });
    const payment = await api.post(w.owner, '/v1/ap-payments', {
      bills: [
        { bill_id: first.id, amount: 5 },
        { bill_id: second.id, amount: 10 },
      ],
      vendor_credit_ids: [credit.id],
      bank_account_id: w.bankAccountId,
      method: 'check',
      payment_date: '2026-05-02',
    });
    const got = await api.get(w.owner, `${CREDITS}/${credit.id}`, { 'expand[]': ['applications'] });
    expect(got).toMatchObject({ source_type: 'vendor_return', source_id: returnId, remaining_amount: '0.0000', status: 'applied' });
    expect(got.applications).toMatchObject([
      {
        object: 'vendor_credit_application',
        bill_id: first.id,
        bill_number: first.bill_number,
        amount: '5.0000',
        applied_on: '2026-05-02',
        ap_payment_id: payment.id,
        status: 'applied',
      },
      { bill_id: second.id, bill_number: second.bill_number, amount: '7.0000', applied_on: '2026-05-02', status: 'applied' },
    ]);
    // Voiding the payment shows in the events and gives the credit back.
    await api.post(w.owner, `/v1/ap-payments/${payment.id}/void`, {}, 200);
    const after = await api.get(w.owner, `${CREDITS}/${credit.id}`, { 'expand[]': ['applications'] });
    expect(after).toMatchObject({ remaining_amount: '12.0000', status: 'open' });
    expect(after.applications!.map((a) => a.status)).toEqual(['voided', 'voided']);
  });
});

describe('listing vendor credits', () => {
  it('filters by vendor and status, newest first, cursor-paginated with the data. expand prefix', async () => {
    const w = await apWorld(api);
    const other = await w.newVendor();
    const a = await w.credit(1);
    const b = await w.credit(2);
    const c = await api.post(w.owner, CREDITS, { vendor_id: other.id, amount: 3 });
    await api.post(w.owner, `${CREDITS}/${a.id}/void`, {}, 200);
    const mine = await api.get(w.owner, CREDITS, { vendor_id: w.vendor.id });
    expect(mine.data.map((credit) => credit.id)).toEqual([b.id, a.id]);
    expect((await api.get(w.owner, CREDITS, { status: 'voided' })).data.map((credit) => credit.id)).toEqual([a.id]);
    const page = await api.get(w.owner, CREDITS, { limit: '1' });
    expect(page).toMatchObject({ object: 'list', has_more: true });
    expect(page.data[0].id).toBe(c.id);
    const next = await api.get(w.owner, CREDITS, { limit: '1', starting_after: page.next_cursor! });
    expect(next.data[0].id).toBe(b.id);
    const expanded = await api.get(w.owner, CREDITS, { vendor_id: other.id, 'expand[]': ['data.vendor'] });
    expect(expanded.data[0].vendor).toMatchObject({ id: other.id });
    const tooMany = await api.request('GET', CREDITS, { key: w.owner.secret, query: { limit: '101' } });
    expect([tooMany.status, tooMany.error.code, tooMany.error.param]).toEqual([400, 'parameter_invalid', 'limit']);
  });
});

describe('voiding a vendor credit', () => {
  it('voids only the unapplied balance and posts it out of both accounts', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(100);
    const credit = await w.credit(10);
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: bill.id, amount: 4 }], vendor_credit_ids: [credit.id], method: 'check' });
    const voided = await api.post(w.owner, `${CREDITS}/${credit.id}/void`, { reason: 'Vendor withdrew it' }, 200);
    expect(voided).toMatchObject({
      status: 'voided',
      amount: '10.0000',
      remaining_amount: '0.0000',
      voided_amount: '6.0000',
      void_reason: 'Vendor withdrew it',
    });
    const { lines } = await entryLines(api, w.owner, voided.void_journal_entry_id);
    expect(lines).toEqual([
      { key: 'vendor_credits', debit: 6, credit: 0 },
      { key: 'vendor_returns_receivable', debit: 0, credit: 6 },
    ]);
    // The applied 4 stays on the bill; both credit accounts are back to zero.
    expect((await api.get(w.owner, `/v1/vendor-bills/${bill.id}`)).balance_due).toBe(96);
    expect(await glBalance(w.owner, 'vendor_credits')).toBe('0');
    expect(await glBalance(w.owner, 'vendor_returns_receivable')).toBe('0');
    await api.expectRefusal(w.owner, 'POST', `${CREDITS}/${credit.id}/void`, {}, 409, 'vendor_credit_invalid_transition', 'id');
    expect(await creditEvents(w.owner, credit.id)).toEqual(['vendor_credit.created', 'vendor_credit.applied', 'vendor_credit.voided']);
  });

  it('an applied credit has nothing to void (409), and a closed period refuses the issuance', async () => {
    const w = await apWorld(api);
    const bill = await w.postedBill(10);
    const credit = await w.credit(10);
    await api.post(w.owner, '/v1/ap-payments', { bills: [{ bill_id: bill.id, amount: 10 }], vendor_credit_ids: [credit.id], method: 'check' });
    await api.expectRefusal(w.owner, 'POST', `${CREDITS}/${credit.id}/void`, {}, 409, 'vendor_credit_invalid_transition', 'id');
    await closedPeriod(api, w.owner, { period_name: 'Jan 2026', start_date: '2026-01-01', end_date: '2026-01-31' });
    await api.expectRefusal(w.owner, 'POST', CREDITS, { vendor_id: w.vendor.id, amount: 1, credit_date: '2026-01-10' }, 422, 'period_closed', 'credit_date');
  });
});
