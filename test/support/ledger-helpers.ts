/** Helpers shared by the ledger integration tests. */
import { ALL_SCOPES } from '../../shared/auth/scopes';
import { getEntity, insertApiKey, insertUser } from '../../shared/tenants/identity-store';
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
  const list = await api.request('GET', '/v1/gl-accounts', { key: owner.secret, query: { limit: '100' } });
  const system = Object.fromEntries(list.body.data.filter((a: any) => a.system_key).map((a: any) => [a.system_key, a.id]));
  const create = async (body: Record<string, unknown>) => {
    const response = await api.request('POST', '/v1/gl-accounts', { key: owner.secret, body: { code: `T${counter++}`, ...body } });
    if (response.status !== 201) throw new Error(response.text);
    return response.body.id as string;
  };
  return {
    system,
    expense: await create({ name: 'Rent expense', type: 'expense' }),
    revenue: await create({ name: 'Service revenue', type: 'revenue' }),
    bank2: await create({ name: 'Savings', type: 'asset', subtype: 'bank' }),
  };
}

export type Line = { account_id: string; debit?: number | string; credit?: number | string; memo?: string };

export async function postEntry(api: TestApi, key: string, entryDate: string, lines: Line[], extra: Record<string, unknown> = {}) {
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
