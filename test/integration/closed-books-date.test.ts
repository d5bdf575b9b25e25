/**
 * Closing a period closes the books up to its end, as a closing date does in QuickBooks and Xero:
 * a posting dated before the earliest closed period, where no period was ever created, would change
 * every closed period's balances (the trial balance as of a closed period's end), so it is refused
 * with 422 period_closed like a posting inside one.
 */
import { describe, expect, it } from 'vitest';
import { setupTestApi } from '../support/harness';
import { chart, closedPeriod, postEntry } from '../support/ledger-helpers';

const api = setupTestApi();

describe('closed books', () => {
  it('a posting dated before the earliest closed period (no period covers it) is refused: it would change the closed balances', async () => {
    const owner = await api.newEntity();
    const accounts = await chart(api, owner);
    await closedPeriod(api, owner, { period_name: 'Mar 2026', start_date: '2026-03-01', end_date: '2026-03-31' });
    const before = await api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`, { as_of_date: '2026-03-31' });
    const lines = [
      { account_id: accounts.expense, debit: 10 },
      { account_id: accounts.bank2, credit: 10 },
    ];
    const response = await postEntry(api, owner.secret, '2026-02-15', lines);
    const after = await api.get(owner, `/v1/entities/${owner.entity.id}/reconciliation/trial-balance`, { as_of_date: '2026-03-31' });
    expect({ status: response.status, code: response.status < 300 ? null : response.error.code }).toEqual({ status: 422, code: 'period_closed' });
    expect(after).toEqual(before);
  });
});
