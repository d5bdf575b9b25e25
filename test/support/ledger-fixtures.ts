/**
 * Security-matrix fixtures of the general ledger routes (spread into route-fixtures.ts): a record
 * of the given entity for each parameterised path, and a valid body for each route that needs one.
 */
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;

let sequence = 0;

/** Two fresh postable accounts of the entity (an expense and a bank account). */
async function accounts(api: TestApi, owner: TestEntity): Promise<[string, string]> {
  const n = sequence++;
  const expense = await api.post(owner, '/v1/gl-accounts', { code: `X${Date.now().toString(36)}${n}`, name: 'Fixture expense', type: 'expense' });
  const bank = await api.post(owner, '/v1/gl-accounts', { code: `B${Date.now().toString(36)}${n}`, name: 'Fixture bank', type: 'asset', subtype: 'bank' });
  return [expense.id, bank.id];
}

async function entry(api: TestApi, owner: TestEntity, post: boolean): Promise<Params> {
  const [expense, bank] = await accounts(api, owner);
  const body = {
    entry_date: '2026-03-10',
    post,
    lines: [
      { account_id: expense, debit: 10 },
      { account_id: bank, credit: 10 },
    ],
  };
  return { id: (await api.post(owner, '/v1/journal-entries', body)).id };
}

async function period(api: TestApi, owner: TestEntity): Promise<Params> {
  // Periods never overlap, so each seeded one gets a year of its own.
  const year = 3000 + sequence++;
  return { id: (await api.post(owner, '/v1/periods', { period_name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` })).id };
}

async function template(api: TestApi, owner: TestEntity): Promise<Params> {
  const [expense, bank] = await accounts(api, owner);
  const body = {
    name: 'Fixture rent',
    frequency: 'monthly' as const,
    start_date: '2026-01-31',
    template_lines: [
      { account_id: expense, debit: 100 },
      { account_id: bank, credit: 100 },
    ],
  };
  return { id: (await api.post(owner, '/v1/recurring-journal-entries', body)).id };
}

const ownEntity = (_api: TestApi, owner: TestEntity): Promise<Params> => Promise.resolve({ entity_id: owner.entity.id });

export const LEDGER_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/gl-accounts/{id}': async (api, owner) => ({ id: (await accounts(api, owner))[0] }),
  '/v1/journal-entries/{id}': (api, owner) => entry(api, owner, false),
  '/v1/journal-entries/{id}/post': (api, owner) => entry(api, owner, false),
  '/v1/journal-entries/{id}/reverse': (api, owner) => entry(api, owner, true),
  '/v1/periods/{id}': period,
  '/v1/periods/{id}/request-close': period,
  '/v1/periods/{id}/approve-close': period,
  '/v1/periods/{id}/reopen': period,
  '/v1/recurring-journal-entries/{id}': template,
  '/v1/entities/{entity_id}/reconciliation/cash-balance': ownEntity,
  '/v1/entities/{entity_id}/reconciliation/trial-balance': ownEntity,
  '/v1/entities/{entity_id}/reports/balance-sheet': ownEntity,
  '/v1/entities/{entity_id}/reports/profit-and-loss': ownEntity,
  '/v1/entities/{entity_id}/reports/account-activity': ownEntity,
};

const SAMPLE_ACCOUNT = '0190a8e0-0000-7000-8000-000000000001';

/** The required query parameters of the ledger's GET routes, so a request gets past validation to the entity check. */
export const LEDGER_SAMPLE_QUERIES: Record<string, Record<string, string>> = {
  'reports.account_activity': { account_id: SAMPLE_ACCOUNT },
};

export const LEDGER_SAMPLE_BODIES: Record<string, unknown> = {
  'gl_accounts.create': { code: 'S-100', name: 'Sample account', type: 'expense' },
  'gl_accounts.update': { name: 'Renamed account' },
  'journal_entries.create': { entry_date: '2026-03-10', lines: [{ account_id: SAMPLE_ACCOUNT, debit: 1 }] },
  'journal_entries.update': { memo: 'Sample memo' },
  'periods.create': { period_name: 'Sample', start_date: '2999-01-01', end_date: '2999-01-31' },
  'periods.create_fiscal_year': { fiscal_year: 2998 },
  'periods.reopen': { reason: 'Sample reason' },
  'recurring_journal_entries.create': {
    name: 'Sample template',
    frequency: 'monthly',
    start_date: '2026-01-31',
    template_lines: [
      { account_id: SAMPLE_ACCOUNT, debit: 1 },
      { account_id: SAMPLE_ACCOUNT, credit: 1 },
    ],
  },
  'recurring_journal_entries.update': { name: 'Renamed template' },
};
