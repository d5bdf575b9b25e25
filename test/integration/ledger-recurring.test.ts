/** Recurring journal entry templates (E27) and the runner: exactly once, even run twice or concurrently. */
import { describe, expect, it } from 'vitest';
import { handler as scheduledRunner } from '../../functions/platform/run-recurring';
import { runRecurringTemplates } from '../../shared/ledger/run-recurring';
import { unchecked, type BodyFor } from '../support/client';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { chart, type Chart } from '../support/ledger-helpers';

const api = setupTestApi();

async function template(owner: TestEntity, accounts: Chart, body: Partial<BodyFor<'POST', '/v1/recurring-journal-entries'>> = {}) {
  const response = await api.request('POST', '/v1/recurring-journal-entries', {
    key: owner.secret,
    body: {
      name: 'Office rent',
      memo: 'Monthly rent',
      frequency: 'monthly',
      start_date: '2026-01-31',
      template_lines: [
        { account_id: accounts.expense, debit: 2500, memo: 'Rent' },
        { account_id: accounts.system.bank, credit: 2500 },
      ],
      ...body,
    },
  });
  if (response.status !== 201) throw new Error(response.text);
  return response.body;
}

const entriesOf = async (owner: TestEntity, templateId: string) => (await api.get(owner, '/v1/journal-entries', { source_id: templateId, limit: '100' })).data;

describe('recurring journal entry templates', () => {
  it('creates, reads, updates and deletes a template', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const created = await template(owner, accounts);
    expect(created).toMatchObject({
      object: 'recurring_journal_entry_template',
      name: 'Office rent',
      frequency: 'monthly',
      start_date: '2026-01-31',
      end_date: null,
      next_run_date: '2026-01-31',
      last_run_date: null,
      auto_post: true,
      is_active: true,
      last_error: null,
      created_by_user_id: owner.owner.id,
      template_lines: [
        { account_id: accounts.expense, debit: 2500, credit: 0, memo: 'Rent' },
        { account_id: accounts.system.bank, debit: 0, credit: 2500, memo: null },
      ],
    });
    expect(await api.get(owner, `/v1/recurring-journal-entries/${created.id}`)).toEqual(created);
    const moved = await api.request('PATCH', `/v1/recurring-journal-entries/${created.id}`, {
      key: owner.secret,
      body: { frequency: 'quarterly', end_date: '2026-12-31' },
    });
    expect(moved.body).toMatchObject({ frequency: 'quarterly', next_run_date: '2026-01-31', end_date: '2026-12-31' });
    const deleted = await api.request('DELETE', `/v1/recurring-journal-entries/${created.id}`, { key: owner.secret });
    expect(deleted.body).toEqual({ id: created.id, object: 'recurring_journal_entry_template', livemode: false, deleted: true });
    expect((await api.request('GET', `/v1/recurring-journal-entries/${created.id}`, { key: owner.secret })).status).toBe(404);
    const types = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('recurring')).map((e) => e.type);
    expect(types).toEqual(['recurring_journal_entry_template.created', 'recurring_journal_entry_template.updated', 'recurring_journal_entry_template.deleted']);
  });

  it('refuses unbalanced templates, control accounts and bad schedules, writing nothing', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const before = await tenantRowCounts(owner.entity.id);
    /** A template from these defaults, some of them overridden (with invalid values on purpose). */
    const attempt = (body: Record<string, unknown>) =>
      api.request('POST', '/v1/recurring-journal-entries', {
        key: owner.secret,
        body: unchecked({
          name: 'T',
          frequency: 'monthly',
          start_date: '2026-01-01',
          template_lines: [
            { account_id: accounts.expense, debit: 10 },
            { account_id: accounts.system.bank, credit: 10 },
          ],
          ...body,
        }),
      });
    const unbalanced = await attempt({
      template_lines: [
        { account_id: accounts.expense, debit: 10 },
        { account_id: accounts.system.bank, credit: 9 },
      ],
    });
    expect(unbalanced.status).toBe(422);
    expect(unbalanced.error).toMatchObject({ code: 'journal_entry_unbalanced', param: 'template_lines', total_debits: 10, total_credits: 9 });
    const control = await attempt({
      template_lines: [
        { account_id: accounts.expense, debit: 10 },
        { account_id: accounts.system.accounts_payable, credit: 10 },
      ],
    });
    expect(control.error).toMatchObject({ code: 'gl_account_control', param: 'template_lines[1].account_id' });
    expect((await attempt({ frequency: 'hourly' })).error).toMatchObject({ code: 'parameter_invalid', param: 'frequency' });
    expect((await attempt({ end_date: '2025-12-31' })).error).toMatchObject({ code: 'parameter_invalid', param: 'end_date' });
    expect((await attempt({ template_lines: [{ account_id: accounts.expense, debit: 10 }] })).error).toMatchObject({
      code: 'parameter_invalid',
      param: 'template_lines',
    });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('pages by page number exactly as E27 states: page ≥ 1, page_size 1 to 100', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await template(owner, accounts, { name: `T${i}` })).id);
    ids.reverse(); // newest first
    const page1 = await api.request('GET', '/v1/recurring-journal-entries', { key: owner.secret, query: { page_size: '2' } });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ page: 1, page_size: 2, has_more: true });
    expect(page1.body.data.map((t) => t.id)).toEqual(ids.slice(0, 2));
    const page3 = await api.request('GET', '/v1/recurring-journal-entries', { key: owner.secret, query: { page: '3', page_size: '2' } });
    expect(page3.body.data.map((t) => t.id)).toEqual(ids.slice(4));
    expect(page3.body.has_more).toBe(false);
    const beyond = await api.request('GET', '/v1/recurring-journal-entries', { key: owner.secret, query: { page: '9', page_size: '2' } });
    expect(beyond.body).toMatchObject({ data: [], has_more: false });
    const defaults = await api.request('GET', '/v1/recurring-journal-entries', { key: owner.secret });
    expect(defaults.body).toMatchObject({ page: 1, page_size: 25 });
    for (const [query, param] of [
      [{ page: '0' }, 'page'],
      [{ page: '-1' }, 'page'],
      [{ page: 'x' }, 'page'],
      [{ page_size: '0' }, 'page_size'],
      [{ page_size: '101' }, 'page_size'],
      [{ page: '101', page_size: '100' }, 'page'],
      [{ limit: '10' }, 'limit'],
    ] as const) {
      const response = await api.request('GET', '/v1/recurring-journal-entries', { key: owner.secret, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.error.param, JSON.stringify(query)).toBe(param);
    }
    expect((await api.request('GET', '/v1/recurring-journal-entries', { key: owner.secret, query: { page_size: '100' } })).status).toBe(200);
  });
});

describe('the recurring runner', () => {
  it('posts each due occurrence once, catching up missed months at month ends, and advances next_run_date', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const rent = await template(owner, accounts);
    const result = await runRecurringTemplates('2026-04-30', { entityIds: [owner.entity.id] });
    expect(result.failures).toEqual([]);
    expect(result.entries.map((e) => e.occurrence_date)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    const entries = await entriesOf(owner, rent.id);
    expect(entries.map((e) => [e.entry_date, e.status, e.source_type, e.memo, e.total_debits]).sort()).toEqual([
      ['2026-01-31', 'posted', 'recurring_journal_template', 'Monthly rent', 2500],
      ['2026-02-28', 'posted', 'recurring_journal_template', 'Monthly rent', 2500],
      ['2026-03-31', 'posted', 'recurring_journal_template', 'Monthly rent', 2500],
      ['2026-04-30', 'posted', 'recurring_journal_template', 'Monthly rent', 2500],
    ]);
    expect(entries[0]).toMatchObject({ posted_by_user_id: owner.owner.id, posted_by_key_id: null });
    const after = await api.get(owner, `/v1/recurring-journal-entries/${rent.id}`);
    expect(after).toMatchObject({ last_run_date: '2026-04-30', next_run_date: '2026-05-31', last_error: null });
    const again = await runRecurringTemplates('2026-04-30', { entityIds: [owner.entity.id] });
    expect(again.entries).toEqual([]);
    expect(await entriesOf(owner, rent.id)).toHaveLength(4);
    const posted = api.published.filter((e) => e.entity_id === owner.entity.id && e.type === 'journal_entry.posted');
    expect(posted).toHaveLength(4);
  });

  it('run twice concurrently for the same date, posts each due occurrence exactly once', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const templates = await Promise.all([
      template(owner, accounts, { name: 'Daily', frequency: 'daily', start_date: '2026-03-01' }),
      template(owner, accounts, { name: 'Weekly', frequency: 'weekly', start_date: '2026-01-05' }),
      template(owner, accounts, { name: 'Monthly', frequency: 'monthly', start_date: '2025-11-30' }),
      template(owner, accounts, { name: 'Yearly', frequency: 'yearly', start_date: '2024-02-29' }),
    ]);
    const runs = await Promise.all([1, 2, 3].map(() => runRecurringTemplates('2026-03-31', { entityIds: [owner.entity.id] })));
    const occurrences = runs.flatMap((run) => run.entries.map((e) => `${e.template_id} ${e.occurrence_date}`));
    expect(new Set(occurrences).size).toBe(occurrences.length);
    expect(runs.flatMap((run) => run.failures)).toEqual([]);
    const expected = { Daily: 31, Weekly: 13, Monthly: 5, Yearly: 3 };
    for (const t of templates) {
      const entries = await entriesOf(owner, t.id);
      expect(entries, t.name).toHaveLength(expected[t.name as keyof typeof expected]);
      expect(new Set(entries.map((e) => e.entry_date)).size).toBe(entries.length);
    }
    expect(occurrences).toHaveLength(31 + 13 + 5 + 3);
    const yearly = await entriesOf(owner, templates[3].id);
    expect(yearly.map((e) => e.entry_date).sort()).toEqual(['2024-02-29', '2025-02-28', '2026-02-28']);
    // and once more, sequentially: nothing left to do
    expect((await runRecurringTemplates('2026-03-31', { entityIds: [owner.entity.id] })).entries).toEqual([]);
  });

  it('drafts instead of posting when auto_post is false, skips inactive templates and stops at end_date', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const review = await template(owner, accounts, { auto_post: false, frequency: 'quarterly', start_date: '2026-01-15', end_date: '2026-06-30' });
    const paused = await template(owner, accounts, { is_active: false });
    const result = await runRecurringTemplates('2026-12-31', { entityIds: [owner.entity.id] });
    expect(result.entries.map((e) => [e.template_id, e.occurrence_date, e.status])).toEqual([
      [review.id, '2026-01-15', 'draft'],
      [review.id, '2026-04-15', 'draft'],
    ]);
    const drafts = await entriesOf(owner, review.id);
    expect(drafts.every((e) => e.status === 'draft' && e.entry_number === null)).toBe(true);
    expect(await api.get(owner, `/v1/recurring-journal-entries/${review.id}`)).toMatchObject({
      last_run_date: '2026-04-15',
      next_run_date: null,
    });
    expect(await entriesOf(owner, paused.id)).toEqual([]);
    // a reviewed draft is posted like any other
    const posted = await api.request('POST', `/v1/journal-entries/${drafts[0].id}/post`, { key: owner.secret });
    expect(posted.body).toMatchObject({ status: 'posted', source_type: 'recurring_journal_template', source_id: review.id });
  });

  it('leaves an occurrence it cannot post due, records why, and posts it once the cause is fixed', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const rent = await template(owner, accounts, { start_date: '2026-05-31' });
    const period = (
      await api.request('POST', '/v1/periods', { key: owner.secret, body: { period_name: 'May 2026', start_date: '2026-05-01', end_date: '2026-05-31' } })
    ).body;
    await api.request('POST', `/v1/periods/${period.id}/request-close`, { key: owner.secret });
    const failed = await runRecurringTemplates('2026-06-30', { entityIds: [owner.entity.id] });
    expect(failed.entries).toEqual([]);
    expect(failed.failures).toEqual([
      { entity_id: owner.entity.id, template_id: rent.id, occurrence_date: '2026-05-31', code: 'period_closed', message: expect.any(String) },
    ]);
    const stuck = await api.get(owner, `/v1/recurring-journal-entries/${rent.id}`);
    expect(stuck).toMatchObject({ next_run_date: '2026-05-31', last_run_date: null, last_error: { code: 'period_closed', occurrence_date: '2026-05-31' } });
    await api.request('POST', `/v1/periods/${period.id}/reopen`, { key: owner.secret, body: { reason: 'Rent accrual missing' } });
    const fixed = await runRecurringTemplates('2026-06-30', { entityIds: [owner.entity.id] });
    expect(fixed.entries.map((e) => e.occurrence_date)).toEqual(['2026-05-31', '2026-06-30']);
    expect((await api.get(owner, `/v1/recurring-journal-entries/${rent.id}`)).last_error).toBeNull();
  });

  it('moving next_run_date skips occurrences and re-anchors; it cannot go back before the last run', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const rent = await template(owner, accounts, { start_date: '2026-01-31' });
    await runRecurringTemplates('2026-02-28', { entityIds: [owner.entity.id] });
    const back = await api.request('PATCH', `/v1/recurring-journal-entries/${rent.id}`, { key: owner.secret, body: { next_run_date: '2026-02-28' } });
    expect(back.error).toMatchObject({ code: 'parameter_invalid', param: 'next_run_date' });
    const skip = await api.request('PATCH', `/v1/recurring-journal-entries/${rent.id}`, { key: owner.secret, body: { next_run_date: '2026-05-15' } });
    expect(skip.body).toMatchObject({ start_date: '2026-05-15', next_run_date: '2026-05-15', last_run_date: '2026-02-28' });
    const result = await runRecurringTemplates('2026-06-30', { entityIds: [owner.entity.id] });
    expect(result.entries.map((e) => e.occurrence_date)).toEqual(['2026-05-15', '2026-06-15']);
  });

  it('the scheduled handler runs every entity with due templates, as of the schedule date', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const rent = await template(owner, accounts, { start_date: '2020-01-31', frequency: 'yearly' });
    const summary = await scheduledRunner({ time: '2022-02-01T06:00:00Z' });
    expect(summary.as_of_date).toBe('2022-02-01');
    expect((await entriesOf(owner, rent.id)).map((e) => e.entry_date).sort()).toEqual(['2020-01-31', '2021-01-31', '2022-01-31']);
    await expect(scheduledRunner({ as_of_date: 'yesterday' })).rejects.toThrow(/YYYY-MM-DD/);
  });
});
