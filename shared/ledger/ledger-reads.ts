/**
 * The ledger's named queries for other capabilities: the accounts a posting names, the balance of a
 * control account on a date, and the entries of a source. Orders, payments and payables read the
 * ledger's tables only through these and the posting functions (docs/architecture.md, "Who owns a table").
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { amount } from '../money';

/** The GL account of a bank account (404 on `param` when the entity has none with this bank_account_id). */
export async function bankGlAccountId(db: Db, entityId: string, bankAccountId: string, param = 'bank_account_id'): Promise<string> {
  const bank = await db.maybeOne<{ id: string }>(`SELECT id FROM gl_accounts WHERE entity_id = $1 AND bank_account_id = $2 AND subtype = 'bank'`, [
    entityId,
    bankAccountId,
  ]);
  if (!bank) throw new ApiError('not_found', { param, hint: 'No bank account with this bank_account_id in this entity.' });
  return bank.id;
}

/** The id of a system account (provisioning creates every one of them for each entity). */
export async function systemAccountId(db: Db, entityId: string, systemKey: string): Promise<string> {
  const row = await db.one<{ id: string }>('SELECT id FROM gl_accounts WHERE entity_id = $1 AND system_key = $2', [entityId, systemKey]);
  return row.id;
}

/** Whether a GL account of the entity is active, and which system account it is; undefined when there is none. */
export async function glAccountState(db: Db, entityId: string, accountId: string): Promise<{ is_active: boolean; system_key: string | null } | undefined> {
  return db.maybeOne<{ is_active: boolean; system_key: string | null }>('SELECT is_active, system_key FROM gl_accounts WHERE entity_id = $1 AND id = $2', [
    entityId,
    accountId,
  ]);
}

/** Credits minus debits posted to a system account up to and including a date (a liability's balance). */
export async function creditBalanceThrough(db: Db, entityId: string, systemKey: string, asOfDate: string): Promise<string> {
  const row = await db.one<{ balance: string }>(
    `SELECT coalesce(sum(d.credit_total - d.debit_total), 0) AS balance
       FROM gl_daily_balances d JOIN gl_accounts a ON a.entity_id = d.entity_id AND a.id = d.account_id
      WHERE d.entity_id = $1 AND a.system_key = $2 AND d.balance_date <= $3::date`,
    [entityId, systemKey, asOfDate],
  );
  return row.balance;
}

/** Those of the entries dated on or before a date. */
export async function entriesDatedThrough(db: Db, entityId: string, entryIds: readonly string[], asOfDate: string): Promise<string[]> {
  if (entryIds.length === 0) return [];
  const rows = await db.query<{ id: string }>('SELECT id FROM journal_entries WHERE entity_id = $1 AND id = ANY($2::uuid[]) AND entry_date <= $3::date', [
    entityId,
    [...entryIds],
    asOfDate,
  ]);
  return rows.map((row) => row.id);
}

/** The posted entries a source recorded under a source type, oldest first. */
export async function postedEntriesOfSource(db: Db, entityId: string, sourceType: string, sourceId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM journal_entries WHERE entity_id = $1 AND source_type = $2 AND source_id = $3 AND status = 'posted'
     ORDER BY created_at, id`,
    [entityId, sourceType, sourceId],
  );
  return rows.map((row) => row.id);
}

/** Debits minus credits posted to a system account up to and including a date (an asset's balance). */
export async function debitBalanceThrough(db: Db, entityId: string, systemKey: string, asOfDate: string): Promise<string> {
  return amount(await creditBalanceThrough(db, entityId, systemKey, asOfDate))
    .negated()
    .toString();
}
