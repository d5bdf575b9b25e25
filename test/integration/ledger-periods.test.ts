/** Accounting periods (E26): creation, the close workflow with permissions, and closed-period refusal, also under concurrency. */
import { describe, expect, it } from 'vitest';
import { withTransaction } from '../../shared/db/database';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { chart, postEntry, userWithKey } from '../support/ledger-helpers';

const api = setupTestApi();

describe('accounting periods', () => {
  it("creates a fiscal year's twelve periods and lists them with status and fiscal-year filters", async () => {
    const owner = await api.newEntity();
    const created = await api.request('POST', '/v1/periods/fiscal-years', { key: owner.secret, body: { fiscal_year: 2026, start_month: 4 } });
    expect(created.status).toBe(201);
    expect(created.body.data).toHaveLength(12);
    expect(created.body.data[0]).toMatchObject({
      object: 'accounting_period',
      period_name: 'Apr 2025',
      fiscal_year: 2026,
      start_date: '2025-04-01',
      end_date: '2025-04-30',
      status: 'open',
      closed_at: null,
      reopen_reason: null,
    });
    expect(created.body.data[11]).toMatchObject({ period_name: 'Mar 2026', start_date: '2026-03-01', end_date: '2026-03-31' });
    const single = await api.request('POST', '/v1/periods', {
      key: owner.secret,
      body: { period_name: 'Q2 2026', start_date: '2026-04-01', end_date: '2026-06-30' },
    });
    expect(single.status).toBe(201);
    expect(single.body.fiscal_year).toBe(2026);
    const list = await api.request('GET', '/v1/periods', { key: owner.secret, query: { fiscal_year: '2026' } });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['data']);
    expect(list.body.data).toHaveLength(13);
    expect(list.body.data.map((p) => p.start_date)).toEqual([...list.body.data.map((p) => p.start_date)].sort());
    expect((await api.get(owner, '/v1/periods', { fiscal_year: '2025' })).data).toEqual([]);
    await api.request('POST', `/v1/periods/${single.body.id}/request-close`, { key: owner.secret });
    const requested = await api.request('GET', '/v1/periods', { key: owner.secret, query: { status: 'close_requested' } });
    expect(requested.body.data.map((p) => p.id)).toEqual([single.body.id]);
    const bad = await api.request('GET', '/v1/periods', { key: owner.secret, query: { status: 'locked' } });
    expect(bad.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
    expect((await api.get(owner, `/v1/periods/${single.body.id}`)).status).toBe('close_requested');
  });

  it('refuses overlapping periods with 409 naming the other period, writing nothing', async () => {
    const owner = await api.newEntity();
    const year = (await api.request('POST', '/v1/periods/fiscal-years', { key: owner.secret, body: { fiscal_year: 2027 } })).body.data;
    const before = await tenantRowCounts(owner.entity.id);
    const overlap = await api.request('POST', '/v1/periods', {
      key: owner.secret,
      body: { period_name: 'X', start_date: '2027-03-31', end_date: '2027-04-02' },
    });
    expect(overlap.status).toBe(409);
    expect(overlap.error).toMatchObject({ code: 'period_overlap', param: 'start_date', period: { id: year[2].id, period_name: 'Mar 2027', status: 'open' } });
    const again = await api.request('POST', '/v1/periods/fiscal-years', { key: owner.secret, body: { fiscal_year: 2027, start_month: 7 } });
    expect(again.error).toMatchObject({ code: 'period_overlap', param: 'fiscal_year' });
    const backwards = await api.request('POST', '/v1/periods', {
      key: owner.secret,
      body: { period_name: 'X', start_date: '2030-02-01', end_date: '2030-01-31' },
    });
    expect(backwards.error).toMatchObject({ code: 'parameter_invalid', param: 'end_date' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('runs request close → approve close → reopen, recording who and when; approver differs from requester and needs the permission', async () => {
    const owner = await api.newEntity();
    const clerk = await userWithKey(owner, []);
    const controller = await userWithKey(owner, ['accounting.close_periods']);
    const period = (
      await api.request('POST', '/v1/periods', { key: owner.secret, body: { period_name: 'Jan 2026', start_date: '2026-01-01', end_date: '2026-01-31' } })
    ).body;
    const path = <A extends string>(action: A) => `/v1/periods/${period.id}/${action}` as const;

    const untouched = await tenantRowCounts(owner.entity.id);
    const tooEarly = await api.request('POST', path('approve-close'), { key: controller.secret });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.error).toMatchObject({ code: 'period_invalid_transition', current_status: 'open' });
    expect((await api.request('POST', path('reopen'), { key: controller.secret, body: { reason: 'x' } })).error).toMatchObject({
      code: 'period_invalid_transition',
      current_status: 'open',
    });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(untouched);

    const requested = await api.request('POST', path('request-close'), { key: clerk.secret });
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({ status: 'close_requested', close_requested_by: clerk.userId });
    expect(requested.body.close_requested_at).toBeTruthy();
    expect((await api.request('POST', path('request-close'), { key: owner.secret })).body).toMatchObject({ current_status: 'close_requested' });

    const before = await tenantRowCounts(owner.entity.id);
    const unprivileged = await api.request('POST', path('approve-close'), { key: clerk.secret });
    expect(unprivileged.status).toBe(403);
    expect(unprivileged.error).toMatchObject({ code: 'insufficient_permissions', type: 'permission_error', permission: 'accounting.close_periods' });
    const readOnly = await userWithKey(owner, ['accounting.close_periods'], ['accounting:read']);
    const scope = await api.request('POST', path('approve-close'), { key: readOnly.secret });
    expect(scope.error).toMatchObject({ code: 'insufficient_scope', required: 'accounting:write' });
    // a requester who holds the permission still cannot approve their own request
    const selfRequest = (
      await api.request('POST', '/v1/periods', { key: owner.secret, body: { period_name: 'Feb', start_date: '2026-02-01', end_date: '2026-02-28' } })
    ).body;
    await api.request('POST', `/v1/periods/${selfRequest.id}/request-close`, { key: controller.secret });
    const self = await api.request('POST', `/v1/periods/${selfRequest.id}/approve-close`, { key: controller.secret });
    expect(self.status).toBe(403);
    expect(self.error).toMatchObject({ code: 'segregation_of_duties' });
    expect((await tenantRowCounts(owner.entity.id)).accounting_periods).toBe(before.accounting_periods + 1);
    expect(await api.get(owner, `/v1/periods/${selfRequest.id}`)).toMatchObject({
      status: 'close_requested',
      close_approved_by: null,
    });
    expect(await api.get(owner, `/v1/periods/${period.id}`)).toMatchObject({
      status: 'close_requested',
      close_approved_by: null,
    });

    const closed = await api.request('POST', path('approve-close'), { key: controller.secret });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', close_approved_by: controller.userId, closed_by: controller.userId });
    expect(closed.body.closed_at).toBeTruthy();
    expect((await api.request('POST', path('approve-close'), { key: controller.secret })).body).toMatchObject({ current_status: 'closed' });

    const noReason = await api.request('POST', path('reopen'), { key: controller.secret, body: unchecked({}) });
    expect(noReason.error).toMatchObject({ code: 'parameter_missing', param: 'reason' });
    expect((await api.request('POST', path('reopen'), { key: clerk.secret, body: { reason: 'Late invoice' } })).error.code).toBe('insufficient_permissions');
    const reopened = await api.request('POST', path('reopen'), { key: controller.secret, body: { reason: 'Late invoice' } });
    expect(reopened.body).toMatchObject({ status: 'open', reopened_by: controller.userId, reopen_reason: 'Late invoice', closed_by: controller.userId });
    // reopening a close request rejects it
    const rejected = await api.request('POST', `/v1/periods/${selfRequest.id}/reopen`, { key: owner.secret, body: { reason: 'Not reconciled yet' } });
    expect(rejected.body).toMatchObject({ status: 'open', reopened_by: owner.owner.id });

    const events = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('period.')).map((e) => e.type);
    expect(events).toEqual([
      'period.created',
      'period.close_requested',
      'period.created',
      'period.close_requested',
      'period.closed',
      'period.reopened',
      'period.reopened',
    ]);
    const reopenEvent = api.published.find((e) => e.entity_id === owner.entity.id && e.type === 'period.reopened')!;
    expect(reopenEvent.data.previous_attributes).toEqual({ status: 'closed' });
  });

  it('refuses postings into closed and close-requested periods with 422 period_closed naming the period, writing nothing', async () => {
    const owner = await api.newEntity();
    const controller = await userWithKey(owner, ['accounting.close_periods']);
    const accounts = await chart(api, owner);
    const lines = [
      { account_id: accounts.expense, debit: 10 },
      { account_id: accounts.system.bank, credit: 10 },
    ];
    const period = (
      await api.request('POST', '/v1/periods', { key: owner.secret, body: { period_name: 'Mar 2026', start_date: '2026-03-01', end_date: '2026-03-31' } })
    ).body;
    const inOpen = await postEntry(api, owner.secret, '2026-03-15', lines);
    expect(inOpen.body.period_id).toBe(period.id);
    const outside = await postEntry(api, owner.secret, '2026-04-01', lines);
    expect(outside.body.period_id).toBeNull();
    const draft = (await api.request('POST', '/v1/journal-entries', { key: owner.secret, body: { entry_date: '2026-03-20', lines } })).body;

    await api.request('POST', `/v1/periods/${period.id}/request-close`, { key: owner.secret });
    let before = await tenantRowCounts(owner.entity.id);
    const whileRequested = await postEntry(api, owner.secret, '2026-03-31', lines);
    expect(whileRequested.status).toBe(422);
    expect(whileRequested.error).toMatchObject({
      code: 'period_closed',
      error: 'period_closed',
      param: 'entry_date',
      period: { id: period.id, period_name: 'Mar 2026', status: 'close_requested' },
    });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    await api.request('POST', `/v1/periods/${period.id}/approve-close`, { key: controller.secret });
    before = await tenantRowCounts(owner.entity.id);
    const whileClosed = await postEntry(api, owner.secret, '2026-03-01', lines);
    expect(whileClosed.error).toMatchObject({ code: 'period_closed', period: { id: period.id, status: 'closed' } });
    const draftPost = await api.request('POST', `/v1/journal-entries/${draft.id}/post`, { key: owner.secret });
    expect(draftPost.error).toMatchObject({ code: 'period_closed', param: 'entry_date' });
    const reversal = await api.request('POST', `/v1/journal-entries/${inOpen.body.id}/reverse`, { key: owner.secret, body: {} });
    expect(reversal.error).toMatchObject({ code: 'period_closed', param: 'reversal_date' });
    const explicit = await api.request('POST', `/v1/journal-entries/${inOpen.body.id}/reverse`, { key: owner.secret, body: { reversal_date: '2026-03-31' } });
    expect(explicit.error).toMatchObject({ code: 'period_closed', param: 'reversal_date' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    // the database refuses it too, whatever code inserts the lines
    await expect(
      withTransaction({ role: 'app_user', entityId: owner.entity.id }, async (db) => {
        const id = crypto.randomUUID();
        await db.query(
          `INSERT INTO journal_entries (id, entity_id, entry_number, status, entry_date, source_type, line_count, total_amount, posted_at)
           VALUES ($1, $2, 'JE-900000', 'posted', '2026-03-10', 'manual', 2, 10, now())`,
          [id, owner.entity.id],
        );
        await db.query(
          `INSERT INTO journal_lines (id, entity_id, entry_id, line_number, account_id, debit, credit, entry_date)
           VALUES (gen_random_uuid(), $1, $2, 1, $3, 10, 0, '2026-03-10'), (gen_random_uuid(), $1, $2, 2, $4, 0, 10, '2026-03-10')`,
          [owner.entity.id, id, accounts.expense, accounts.system.bank],
        );
      }),
    ).rejects.toThrow(/closed accounting period/);
    // a later reversal date is fine, and reopening lets postings in again
    expect(
      (await api.request('POST', `/v1/journal-entries/${inOpen.body.id}/reverse`, { key: owner.secret, body: { reversal_date: '2026-04-02' } })).status,
    ).toBe(201);
    await api.request('POST', `/v1/periods/${period.id}/reopen`, { key: controller.secret, body: { reason: 'Adjustment' } });
    expect((await postEntry(api, owner.secret, '2026-03-31', lines)).status).toBe(201);
  });
});

describe('concurrency', () => {
  it('parallel postings all balance and none lands in a period closed before it committed', async () => {
    const owner = await api.newEntity();
    const controller = await userWithKey(owner, ['accounting.close_periods']);
    const accounts = await chart(api, owner);
    const period = (
      await api.request('POST', '/v1/periods', { key: owner.secret, body: { period_name: 'May 2026', start_date: '2026-05-01', end_date: '2026-05-31' } })
    ).body;
    await api.request('POST', `/v1/periods/${period.id}/request-close`, { key: owner.secret });
    const amounts = Array.from({ length: 24 }, (_, i) => ((i + 1) * 111) / 100);
    const postings = amounts.map((value, i) =>
      postEntry(api, owner.secret, `2026-05-${String((i % 28) + 1).padStart(2, '0')}`, [
        { account_id: accounts.expense, debit: value },
        { account_id: i % 2 ? accounts.system.bank : accounts.bank2, credit: value },
      ]),
    );
    // The close is approved while the postings run; but this period is already close_requested,
    // so every posting must be refused. A second period stays open and takes a parallel stream.
    const open = (
      await api.request('POST', '/v1/periods', { key: owner.secret, body: { period_name: 'Jun 2026', start_date: '2026-06-01', end_date: '2026-06-30' } })
    ).body;
    const openPostings = amounts.map((value) =>
      postEntry(api, owner.secret, '2026-06-15', [
        { account_id: accounts.expense, debit: value },
        { account_id: accounts.system.bank, credit: value },
      ]),
    );
    const [closing, ...results] = await Promise.all([
      api.request('POST', `/v1/periods/${period.id}/approve-close`, { key: controller.secret }),
      ...postings,
      ...openPostings,
    ]);
    expect(closing.status).toBe(200);
    const refused = results.slice(0, amounts.length);
    const accepted = results.slice(amounts.length);
    for (const response of refused) expect(response.error.code).toBe('period_closed');
    for (const response of accepted) expect(response.status).toBe(201);
    const numbers = accepted.map((r) => r.body.entry_number).sort();
    expect(new Set(numbers).size).toBe(amounts.length);
    expect(numbers[numbers.length - 1]).toBe(`JE-${String(amounts.length).padStart(6, '0')}`);
    expect(open.status).toBe('open');
  });

  it('parallel postings over overlapping accounts in any order: every entry balances and the day balances equal the lines', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const pool = [accounts.expense, accounts.revenue, accounts.bank2, accounts.system.bank];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [a, b, c] = [pool[i % 4], pool[(i + 1) % 4], pool[(i + 2) % 4]];
        const lines = [
          { account_id: a, debit: (301 + i) / 100 },
          { account_id: b, credit: 3 },
          { account_id: c, credit: (i + 1) / 100 },
        ];
        return postEntry(api, owner.secret, `2026-08-0${(i % 3) + 1}`, i % 2 ? lines.reverse() : lines);
      }),
    );
    for (const response of results) expect(response.status, response.text).toBe(201);
    const check = await owner.sql((db) =>
      db.one<{ unbalanced: number; debits: string; credits: string; mismatched: number }>(
        `SELECT (SELECT count(*)::int FROM (SELECT entry_id FROM journal_lines WHERE entity_id = $1 GROUP BY entry_id HAVING sum(debit) <> sum(credit)) u) AS unbalanced,
                (SELECT sum(debit) FROM journal_lines WHERE entity_id = $1) AS debits,
                (SELECT sum(credit) FROM journal_lines WHERE entity_id = $1) AS credits,
                (SELECT count(*)::int FROM (SELECT account_id, entry_date, sum(debit) AS d, sum(credit) AS c FROM journal_lines WHERE entity_id = $1 GROUP BY 1, 2) l
                   FULL JOIN (SELECT * FROM gl_daily_balances WHERE entity_id = $1) b ON b.account_id = l.account_id AND b.balance_date = l.entry_date
                  WHERE b.debit_total IS DISTINCT FROM l.d OR b.credit_total IS DISTINCT FROM l.c) AS mismatched`,
        [owner.entity.id],
      ),
    );
    expect(check).toMatchObject({ unbalanced: 0, mismatched: 0 });
    expect(check.debits).toBe(check.credits);
    const tb = (
      await api.request('GET', `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`, { key: owner.secret, query: { as_of_date: '2026-08-31' } })
    ).body;
    expect(tb.total_debits).toBe(tb.total_credits);
  });

  it('a close racing postings: every posting either committed before the close or was refused', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const period = (
      await api.request('POST', '/v1/periods', { key: owner.secret, body: { period_name: 'Jul 2026', start_date: '2026-07-01', end_date: '2026-07-31' } })
    ).body;
    const postAt = (i: number) =>
      postEntry(api, owner.secret, '2026-07-10', [
        { account_id: accounts.expense, debit: i + 0.01 },
        { account_id: accounts.system.bank, credit: i + 0.01 },
      ]);
    const early = Array.from({ length: 15 }, (_, i) => postAt(i));
    const request = api.request('POST', `/v1/periods/${period.id}/request-close`, { key: owner.secret });
    const late = Array.from({ length: 15 }, (_, i) => postAt(100 + i));
    await Promise.all([...early, request, ...late]);
    const requestResponse = await request;
    expect(requestResponse.status).toBe(200);
    const requestedAt = Date.parse(requestResponse.body.close_requested_at!);
    const postings = await Promise.all([...early, ...late]);
    for (const response of postings) expect([201, 422]).toContain(response.status);
    for (const response of postings.filter((r) => r.status === 422)) expect(response.error.code).toBe('period_closed');
    // every accepted posting committed while the period was open: posted before the close request took effect
    const posted = postings.filter((r) => r.status === 201);
    for (const response of posted) expect(Date.parse(response.body.posted_at!)).toBeLessThanOrEqual(requestedAt);
    const after = await postEntry(api, owner.secret, '2026-07-10', [
      { account_id: accounts.expense, debit: 1 },
      { account_id: accounts.system.bank, credit: 1 },
    ]);
    expect(after.error.code).toBe('period_closed');
    // nothing in the period beyond what was accepted, and the ledger balances
    const lines = await owner.sql((db) =>
      db.one<{ n: number; debits: string; credits: string }>(
        `SELECT count(*)::int AS n, sum(debit) AS debits, sum(credit) AS credits FROM journal_lines WHERE entity_id = $1 AND entry_date = '2026-07-10'`,
        [owner.entity.id],
      ),
    );
    expect(lines.n).toBe(posted.length * 2);
    expect(lines.debits).toBe(lines.credits);
  });
});
