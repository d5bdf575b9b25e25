/** Chart of accounts and journal entries: drafts, posting, reversal, immutability, errors. */
import { describe, expect, it } from 'vitest';
import { withTransaction } from '../../shared/db/database';
import { ensureSystemAccounts, SYSTEM_ACCOUNTS } from '../../shared/ledger/gl-accounts';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { chart, postEntry, type Line } from '../support/ledger-helpers';

const api = setupTestApi();

describe('chart of accounts', () => {
  it('gives every entity its system accounts, with a bank account that has a bank_account_id', async () => {
    const owner = await api.newEntity();
    const list = await api.request('GET', '/v1/gl-accounts', { key: owner.secret, query: { limit: '100' } });
    expect(list.status).toBe(200);
    const byKey = Object.fromEntries(list.body.data.map((a) => [String(a.system_key), a] as const));
    for (const key of [
      'accounts_receivable',
      'accounts_payable',
      'undeposited_funds',
      'inventory',
      'sales_revenue',
      'cost_of_goods_sold',
      'sales_tax_payable',
      'vendor_returns_receivable',
      'vendor_credits',
      'bank',
    ]) {
      expect(byKey[key], key).toBeDefined();
    }
    expect(byKey.bank).toMatchObject({ object: 'gl_account', type: 'asset', subtype: 'bank', is_bank: true, normal_balance: 'debit', is_active: true });
    expect(byKey.bank.bank_account_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(byKey.accounts_payable).toMatchObject({ type: 'liability', normal_balance: 'credit', is_bank: false, bank_account_id: null });
    const banks = await api.request('GET', '/v1/gl-accounts', { key: owner.secret, query: { is_bank: 'true' } });
    expect(banks.body.data.map((a) => a.system_key)).toEqual(['bank']);
  });

  it('creates system accounts idempotently for an entity that predates the ledger', async () => {
    const owner = await api.newEntity();
    await owner.sql((db) => ensureSystemAccounts(db, owner.entity.id));
    await Promise.all([1, 2, 3].map(() => owner.sql((db) => ensureSystemAccounts(db, owner.entity.id))));
    const counts = await tenantRowCounts(owner.entity.id);
    expect(counts.gl_accounts).toBe(SYSTEM_ACCOUNTS.length);
  });

  it('creates, updates and deletes an account; codes are unique case-insensitively', async () => {
    const owner = await api.newEntity();
    const created = await api.request('POST', '/v1/gl-accounts', { key: owner.secret, body: { code: 'X-10', name: 'Office supplies', type: 'expense' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code: 'X-10', subtype: 'expense', system_key: null, is_bank: false, normal_balance: 'debit' });
    expect(await api.get(owner, `/v1/gl-accounts/${created.body.id}`)).toEqual(created.body);
    const before = await tenantRowCounts(owner.entity.id);
    const duplicate = await api.request('POST', '/v1/gl-accounts', { key: owner.secret, body: { code: 'x-10', name: 'Other', type: 'asset' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'gl_account_code_taken', param: 'code' });
    const systemCode = await api.request('POST', '/v1/gl-accounts', { key: owner.secret, body: { code: '1100', name: 'Other', type: 'asset' } });
    expect(systemCode.error.code).toBe('gl_account_code_taken');
    const wrongSubtype = await api.request('POST', '/v1/gl-accounts', { key: owner.secret, body: { code: 'Y', name: 'Y', type: 'expense', subtype: 'bank' } });
    expect(wrongSubtype.error).toMatchObject({ code: 'parameter_invalid', param: 'subtype' });
    const reserved = await api.request('POST', '/v1/gl-accounts', {
      key: owner.secret,
      body: { code: 'Y', name: 'Y', type: 'asset', subtype: 'accounts_receivable' },
    });
    expect(reserved.error).toMatchObject({ code: 'parameter_invalid', param: 'subtype' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const toBank = await api.request('PATCH', `/v1/gl-accounts/${created.body.id}`, { key: owner.secret, body: { type: 'asset', subtype: 'bank' } });
    expect(toBank.status).toBe(200);
    expect(toBank.body).toMatchObject({ type: 'asset', subtype: 'bank', is_bank: true });
    expect(toBank.body.bank_account_id).toBeTruthy();
    const renamed = await api.request('PATCH', `/v1/gl-accounts/${created.body.id}`, { key: owner.secret, body: { name: 'Petty cash' } });
    expect(renamed.body).toMatchObject({ name: 'Petty cash', bank_account_id: toBank.body.bank_account_id });
    const deleted = await api.request('DELETE', `/v1/gl-accounts/${created.body.id}`, { key: owner.secret });
    expect(deleted.body).toEqual({ id: created.body.id, object: 'gl_account', livemode: false, deleted: true });
    const events = api.published.filter((e) => e.entity_id === owner.entity.id).map((e) => e.type);
    expect(events).toEqual(['gl_account.created', 'gl_account.updated', 'gl_account.updated', 'gl_account.deleted']);
  });

  it('protects system accounts and accounts in use', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const ar = accounts.system.accounts_receivable;
    for (const [body, param] of [
      [{ is_active: false }, 'is_active'],
      [{ type: 'expense' }, 'type'],
      [{ subtype: 'other_current_asset' }, 'subtype'],
    ] as const) {
      const response = await api.request('PATCH', `/v1/gl-accounts/${ar}`, { key: owner.secret, body });
      expect(response.status).toBe(409);
      expect(response.error).toMatchObject({ code: 'gl_account_is_system', param });
    }
    expect((await api.request('PATCH', `/v1/gl-accounts/${ar}`, { key: owner.secret, body: { name: 'Trade debtors' } })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/gl-accounts/${ar}`, { key: owner.secret })).error.code).toBe('gl_account_is_system');
    await postEntry(api, owner.secret, '2026-01-05', [
      { account_id: accounts.expense, debit: 5 },
      { account_id: accounts.bank2, credit: 5 },
    ]);
    const retype = await api.request('PATCH', `/v1/gl-accounts/${accounts.expense}`, { key: owner.secret, body: { type: 'asset' } });
    expect(retype.error).toMatchObject({ code: 'gl_account_in_use', param: 'type' });
    const unbank = await api.request('PATCH', `/v1/gl-accounts/${accounts.bank2}`, { key: owner.secret, body: { subtype: 'other_current_asset' } });
    expect(unbank.error).toMatchObject({ code: 'gl_account_in_use', param: 'subtype' });
    const inUse = await api.request('DELETE', `/v1/gl-accounts/${accounts.expense}`, { key: owner.secret });
    expect(inUse.status).toBe(409);
    expect(inUse.error).toMatchObject({ code: 'gl_account_in_use', references: { journal_lines: 1, draft_journal_entries: 0, recurring_templates: 0 } });
    // deactivating is the way out; it is then refused in new postings
    expect((await api.request('PATCH', `/v1/gl-accounts/${accounts.expense}`, { key: owner.secret, body: { is_active: false } })).body.is_active).toBe(false);
    const refused = await postEntry(api, owner.secret, '2026-01-06', [
      { account_id: accounts.bank2, debit: 5 },
      { account_id: accounts.expense, credit: 5 },
    ]);
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'gl_account_inactive', param: 'lines[1].account_id' });
  });
});

describe('journal entries', () => {
  it('saves a draft (even unbalanced), edits it, and posts it once balanced: numbered, immutable, event recorded', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const draft = await api.request('POST', '/v1/journal-entries', {
      key: owner.secret,
      body: {
        entry_date: '2026-02-10',
        memo: 'Rent',
        lines: [
          { account_id: accounts.expense, debit: 1200.5 },
          { account_id: accounts.system.bank, credit: '1200' },
        ],
      },
    });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({
      object: 'journal_entry',
      status: 'draft',
      entry_number: null,
      source_type: 'manual',
      source_id: null,
      total_debits: 1200.5,
      total_credits: 1200,
      posted_at: null,
      created_by_user_id: owner.owner.id,
    });
    expect(draft.body.lines.map((l) => [l.line_number, l.debit, l.credit])).toEqual([
      [1, 1200.5, 0],
      [2, 0, 1200],
    ]);
    const before = await tenantRowCounts(owner.entity.id);
    const unbalanced = await api.request('POST', `/v1/journal-entries/${draft.body.id}/post`, { key: owner.secret });
    expect(unbalanced.status).toBe(422);
    expect(unbalanced.error).toMatchObject({
      code: 'journal_entry_unbalanced',
      error: 'journal_entry_unbalanced',
      param: 'lines',
      total_debits: 1200.5,
      total_credits: 1200,
    });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const fixed = await api.request('PATCH', `/v1/journal-entries/${draft.body.id}`, {
      key: owner.secret,
      body: {
        lines: [
          { account_id: accounts.expense, debit: 1200.5 },
          { account_id: accounts.system.bank, credit: '1200.50', memo: 'Cheque 12' },
        ],
      },
    });
    expect(fixed.status).toBe(200);
    const posted = await api.request('POST', `/v1/journal-entries/${draft.body.id}/post`, { key: owner.secret });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({
      id: draft.body.id,
      status: 'posted',
      entry_number: 'JE-000001',
      total_debits: 1200.5,
      total_credits: 1200.5,
      posted_by_user_id: owner.owner.id,
      posted_by_key_id: owner.key.id,
      period_id: null,
    });
    expect(posted.body.lines.map((l) => l.id)).toEqual(fixed.body.lines.map((l) => l.id));
    expect(posted.body.lines[1].memo).toBe('Cheque 12');
    const unchanged = await tenantRowCounts(owner.entity.id);
    for (const refused of [
      await api.request('PATCH', `/v1/journal-entries/${draft.body.id}`, { key: owner.secret, body: { memo: 'x' } }),
      await api.request('DELETE', `/v1/journal-entries/${draft.body.id}`, { key: owner.secret }),
      await api.request('POST', `/v1/journal-entries/${draft.body.id}/post`, { key: owner.secret }),
    ]) {
      expect(refused.status, refused.text).toBe(409);
      expect(refused.error).toMatchObject({ code: 'journal_entry_not_draft', current_status: 'posted' });
    }
    expect(await tenantRowCounts(owner.entity.id)).toEqual(unchanged);
    const fetched = await api.request('GET', `/v1/journal-entries/${draft.body.id}`, { key: owner.secret, query: { 'expand[]': 'lines.account' } });
    expect(fetched.body.lines[0].account).toMatchObject({ id: accounts.expense, object: 'gl_account', name: 'Rent expense' });
    const types = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('journal_entry')).map((e) => e.type);
    expect(types).toEqual(['journal_entry.created', 'journal_entry.updated', 'journal_entry.posted']);
    const event = api.published.find((e) => e.entity_id === owner.entity.id && e.type === 'journal_entry.posted')!;
    expect(event.data.object).toMatchObject({ id: draft.body.id, entry_number: 'JE-000001', status: 'posted' });
  });

  it('posts in one step with post: true and deletes drafts', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const posted = await postEntry(api, owner.secret, '2026-02-11', [
      { account_id: accounts.system.bank, debit: 99.99 },
      { account_id: accounts.revenue, credit: 99.99 },
    ]);
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ status: 'posted', entry_number: 'JE-000001' });
    const draft = await api.request('POST', '/v1/journal-entries', {
      key: owner.secret,
      body: { entry_date: '2026-02-11', lines: [{ account_id: accounts.expense, debit: 1 }] },
    });
    const deleted = await api.request('DELETE', `/v1/journal-entries/${draft.body.id}`, { key: owner.secret });
    expect(deleted.body).toEqual({ id: draft.body.id, object: 'journal_entry', livemode: false, deleted: true });
    const second = await postEntry(api, owner.secret, '2026-02-12', [
      { account_id: accounts.system.bank, debit: 1 },
      { account_id: accounts.revenue, credit: 1 },
    ]);
    expect(second.body.entry_number).toBe('JE-000002'); // numbers are taken at posting: gap-free
  });

  it('refuses bad postings with a precise code and param, writing nothing', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const accounts = await chart(api, owner);
    const foreign = (await chart(api, other)).expense;
    const before = await tenantRowCounts(owner.entity.id);
    const cases: [Line[], number, string, string][] = [
      [
        [
          { account_id: accounts.expense, debit: 10 },
          { account_id: accounts.system.bank, credit: 9.99 },
        ],
        422,
        'journal_entry_unbalanced',
        'lines',
      ],
      [[{ account_id: accounts.expense, debit: 10 }], 422, 'journal_entry_unbalanced', 'lines'],
      [
        [
          { account_id: accounts.expense, debit: 10, credit: 10 },
          { account_id: accounts.system.bank, credit: 0 },
        ],
        400,
        'parameter_invalid',
        'lines[0].credit',
      ],
      [[{ account_id: accounts.expense }, { account_id: accounts.system.bank, credit: 1 }], 400, 'parameter_invalid', 'lines[0].debit'],
      [
        [
          { account_id: accounts.expense, debit: -10 },
          { account_id: accounts.system.bank, credit: 10 },
        ],
        400,
        'parameter_invalid',
        'lines[0].debit',
      ],
      [
        [
          { account_id: accounts.expense, debit: 10.005 },
          { account_id: accounts.system.bank, credit: 10.005 },
        ],
        400,
        'parameter_invalid',
        'lines[0].debit',
      ],
      [
        [
          { account_id: accounts.expense, debit: 10 },
          { account_id: foreign, credit: 10 },
        ],
        404,
        'not_found',
        'lines[1].account_id',
      ],
      [
        [
          { account_id: accounts.system.accounts_receivable, debit: 10 },
          { account_id: accounts.revenue, credit: 10 },
        ],
        422,
        'gl_account_control',
        'lines[0].account_id',
      ],
      [
        [
          { account_id: accounts.expense, debit: 10 },
          { account_id: accounts.system.accounts_payable, credit: 10 },
        ],
        422,
        'gl_account_control',
        'lines[1].account_id',
      ],
      [[], 400, 'parameter_invalid', 'lines'],
    ];
    for (const [lines, status, code, param] of cases) {
      const response = await postEntry(api, owner.secret, '2026-03-01', lines);
      expect(response.status, JSON.stringify(lines)).toBe(status);
      expect(response.error, JSON.stringify(lines)).toMatchObject({ code, param });
    }
    const badDate = await postEntry(api, owner.secret, '2026-02-30', [
      { account_id: accounts.expense, debit: 1 },
      { account_id: accounts.system.bank, credit: 1 },
    ]);
    expect(badDate.error).toMatchObject({ code: 'parameter_invalid', param: 'entry_date' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('reverses a posted entry with its mirror image, once; the original is marked reversed', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const original = (
      await postEntry(api, owner.secret, '2026-04-10', [
        { account_id: accounts.expense, debit: 300, memo: 'Accrual' },
        { account_id: accounts.system.bank, credit: 100 },
        { account_id: accounts.bank2, credit: 200 },
      ])
    ).body;
    const early = await api.request('POST', `/v1/journal-entries/${original.id}/reverse`, { key: owner.secret, body: { reversal_date: '2026-04-09' } });
    expect(early.error).toMatchObject({ code: 'parameter_invalid', param: 'reversal_date' });
    const reversal = await api.request('POST', `/v1/journal-entries/${original.id}/reverse`, { key: owner.secret, body: { reversal_date: '2026-05-01' } });
    expect(reversal.status).toBe(201);
    expect(reversal.body).toMatchObject({
      status: 'posted',
      entry_date: '2026-05-01',
      entry_number: 'JE-000002',
      reversal_of_id: original.id,
      source_type: 'manual',
      memo: 'Reversal of JE-000001',
      total_debits: 300,
    });
    expect(reversal.body.lines.map((l) => [l.account_id, l.debit, l.credit, l.memo])).toEqual([
      [accounts.expense, 0, 300, 'Accrual'],
      [accounts.system.bank, 100, 0, null],
      [accounts.bank2, 200, 0, null],
    ]);
    const after = await api.get(owner, `/v1/journal-entries/${original.id}`);
    expect(after).toMatchObject({ status: 'reversed', reversed_by_id: reversal.body.id });
    expect(after.reversed_at).toBeTruthy();
    expect(after.lines).toEqual(original.lines);
    const unchanged = await tenantRowCounts(owner.entity.id);
    const again = await api.request('POST', `/v1/journal-entries/${original.id}/reverse`, { key: owner.secret, body: {} });
    expect(again.status).toBe(409);
    expect(again.error).toMatchObject({ code: 'journal_entry_not_reversible', current_status: 'reversed' });
    const ofReversal = await api.request('POST', `/v1/journal-entries/${reversal.body.id}/reverse`, { key: owner.secret, body: {} });
    expect(ofReversal.error).toMatchObject({ code: 'journal_entry_not_reversible', current_status: 'posted' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(unchanged);
    const draft = await api.request('POST', '/v1/journal-entries', {
      key: owner.secret,
      body: { entry_date: '2026-04-10', lines: [{ account_id: accounts.expense, debit: 1 }] },
    });
    expect((await api.request('POST', `/v1/journal-entries/${draft.body.id}/reverse`, { key: owner.secret, body: {} })).error).toMatchObject({
      code: 'journal_entry_not_reversible',
      current_status: 'draft',
    });
    const types = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('journal_entry.')).map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['journal_entry.posted', 'journal_entry.posted', 'journal_entry.reversed']);
    const filtered = await api.request('GET', '/v1/journal-entries', { key: owner.secret, query: { status: 'reversed' } });
    expect(filtered.body.data.map((e) => e.id)).toEqual([original.id]);
    const byAccount = await api.request('GET', '/v1/journal-entries', {
      key: owner.secret,
      query: { account_id: accounts.bank2, 'expand[]': 'data.lines.account' },
    });
    expect(byAccount.body.data.map((e) => e.id)).toEqual([reversal.body.id, original.id]);
    expect(byAccount.body.data[0].lines[2].account!.id).toBe(accounts.bank2);
    const byDate = await api.request('GET', '/v1/journal-entries', {
      key: owner.secret,
      query: { entry_date_gte: '2026-04-11', entry_date_lte: '2026-05-01' },
    });
    expect(byDate.body.data.map((e) => e.id)).toEqual([reversal.body.id]);
  });

  it('the database itself keeps posted entries balanced and immutable, whatever code writes', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    const entry = (
      await postEntry(api, owner.secret, '2026-06-01', [
        { account_id: accounts.expense, debit: 50 },
        { account_id: accounts.system.bank, credit: 50 },
      ])
    ).body;
    // Direct SQL on purpose: the database itself must refuse these writes, whatever code sends them.
    const asApp = (sql: string, params: unknown[] = []) => withTransaction({ role: 'app_user', entityId: owner.entity.id }, (db) => db.query(sql, params));
    await expect(asApp('UPDATE journal_lines SET debit = 60 WHERE entry_id = $1 AND debit > 0', [entry.id])).rejects.toThrow(/permission denied|immutable/);
    await expect(asApp('DELETE FROM journal_lines WHERE entry_id = $1', [entry.id])).rejects.toThrow(/permission denied|immutable/);
    await expect(asApp("UPDATE journal_entries SET memo = 'changed' WHERE id = $1", [entry.id])).rejects.toThrow(/immutable/);
    await expect(asApp("UPDATE journal_entries SET status = 'draft', draft_lines = '[]' WHERE id = $1", [entry.id])).rejects.toThrow(/immutable/);
    await expect(asApp('DELETE FROM journal_entries WHERE id = $1', [entry.id])).rejects.toThrow(/cannot be deleted/);
    await expect(
      asApp(
        `INSERT INTO journal_lines (id, entity_id, entry_id, line_number, account_id, debit, credit, entry_date)
         VALUES (gen_random_uuid(), $1, $2, 3, $3, 10, 0, '2026-06-01'), (gen_random_uuid(), $1, $2, 4, $4, 0, 10, '2026-06-01')`,
        [owner.entity.id, entry.id, accounts.expense, accounts.system.bank],
      ),
    ).rejects.toThrow(/does not balance or does not match/);
    await expect(asApp('UPDATE gl_daily_balances SET debit_total = 0')).rejects.toThrow(/maintained by journal line postings/);
    // a header promising lines that never come cannot commit
    await expect(
      asApp(
        `INSERT INTO journal_entries (id, entity_id, entry_number, status, entry_date, source_type, line_count, total_amount, posted_at)
         VALUES (gen_random_uuid(), $1, 'JE-999999', 'posted', '2026-06-01', 'manual', 2, 10, now())`,
        [owner.entity.id],
      ),
    ).rejects.toThrow(/header states/);
    const unchanged = await api.get(owner, `/v1/journal-entries/${entry.id}`);
    expect(unchanged).toEqual(entry);
  });
});
