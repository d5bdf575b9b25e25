/** Helpers shared by the ledger integration tests. */
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { getEntity, insertApiKey, insertUser } from '../../shared/tenants/identity-store';
import type { BodyFor } from './client';
import type { TestApi, TestEntity } from './harness';

export interface Chart {
  /** System accounts by system_key. */
  system: Record<string, string>;
  expense: string;
  revenue: string;
  bank2: string;
}

let counter = 0;

/** The entity's system accounts plus an expense, a revenue and a second bank account. */
export async function chart(api: TestApi, owner: TestEntity): Promise<Chart> {
  const list = await api.get(owner, '/v1/gl-accounts', { limit: '100' });
  const system = Object.fromEntries(list.data.flatMap((a) => (a.system_key ? [[a.system_key, a.id]] : [])));
  const create = async (body: Omit<BodyFor<'POST', '/v1/gl-accounts'>, 'code'>) =>
    (await api.post(owner, '/v1/gl-accounts', { code: `T${counter++}`, ...body })).id;
  return {
    system,
    expense: await create({ name: 'Rent expense', type: 'expense' }),
    revenue: await create({ name: 'Service revenue', type: 'revenue' }),
    bank2: await create({ name: 'Savings', type: 'asset', subtype: 'bank' }),
  };
}

export type Line = { account_id: string; debit?: number | string; credit?: number | string; memo?: string };

export async function postEntry(api: TestApi, key: string, entryDate: string, lines: Line[], extra: Partial<BodyFor<'POST', '/v1/journal-entries'>> = {}) {
  return api.request('POST', '/v1/journal-entries', { key, body: { entry_date: entryDate, lines, post: true, ...extra } });
}

/** Another user of the entity, with a key acting for them (every scope unless stated). */
export async function userWithKey(owner: TestEntity, permissions: string[], scopes: string[] = ALL_SCOPES): Promise<{ userId: string; secret: string }> {
  return owner.sql(async (db) => {
    const user = await insertUser(db, owner.entity.id, { email: `u${counter++}@${owner.entity.code}.example`, name: 'Clerk', permissions });
    const key = await insertApiKey(db, await getEntity(db, owner.entity.id), { userId: user.id, mode: 'test', scopes });
    return { userId: user.id, secret: key.secret };
  });
}

/** A journal entry, and its lines named by the system key of their account: `{ key: 'accounts_receivable', debit, credit }`. */
export async function entryLines(api: TestApi, owner: TestEntity, entryId: string | null) {
  if (!entryId) throw new Error('no journal entry was posted');
  const { system } = await chart(api, owner);
  const byId = Object.fromEntries(Object.entries(system).map(([key, id]) => [id, key]));
  const entry = await api.get(owner, `/v1/journal-entries/${entryId}`);
  return { entry, lines: entry.lines.map((line) => ({ key: byId[line.account_id], debit: line.debit, credit: line.credit })) };
}

/** A closed accounting period, closed through the API: the owner requests the close, a controller approves it. */
export async function closedPeriod(api: TestApi, owner: TestEntity, body: BodyFor<'POST', '/v1/periods'>) {
  const period = await api.post(owner, '/v1/periods', body);
  await api.post(owner, `/v1/periods/${period.id}/request-close`, undefined, 200);
  const controller = await userWithKey(owner, ['accounting.close_periods']);
  return api.post(controller.secret, `/v1/periods/${period.id}/approve-close`, undefined, 200);
}
