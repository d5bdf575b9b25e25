/** The inventory identity, read through the API: the inventory GL account against Σ inventory_value of the balances. */
import { amount, sum } from '../../shared/money';
import type { TestApi, TestEntity } from './harness';

/** Σ inventory_value over every balance of the entity (GET /v1/inventory/balances, all pages). */
export async function stockValuation(api: TestApi, owner: TestEntity): Promise<string> {
  const values: number[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api.get(owner, '/v1/inventory/balances', { limit: '100', ...(after ? { starting_after: after } : {}) });
    values.push(...page.data.map((balance) => balance.inventory_value));
    if (!page.has_more) break;
    after = page.data[page.data.length - 1].id;
  }
  return sum(values).toFixed(2);
}

/** The balance of a system account (debits minus credits) from the trial balance (GET .../reconciliation/trial-balance). */
export async function trialBalanceOf(api: TestApi, owner: TestEntity, systemKey: string): Promise<string> {
  const accounts = await api.get(owner, '/v1/gl-accounts', { limit: '100' });
  const account = accounts.data.find((candidate) => candidate.system_key === systemKey);
  if (!account) throw new Error(`no ${systemKey} account`);
  const report = await api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`);
  const row = report.accounts.find((candidate) => candidate.account_id === account.id);
  return amount(row?.debit_balance ?? 0)
    .minus(row?.credit_balance ?? 0)
    .toFixed(2);
}

/** Asserts the inventory account equals Σ inventory_value to the cent; returns the figure. */
export async function inventoryTies(api: TestApi, owner: TestEntity): Promise<string> {
  const valuation = await stockValuation(api, owner);
  const gl = await trialBalanceOf(api, owner, 'inventory');
  if (gl !== valuation) throw new Error(`inventory account ${gl} ≠ Σ inventory_value ${valuation}`);
  return gl;
}
