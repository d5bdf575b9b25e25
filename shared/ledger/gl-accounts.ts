/** SQL for the chart of accounts. Every statement also filters by entity (row level security is the second wall). */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { updateSet } from '../db/sql';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { previousAttributes } from '../events/outbox';
import { newId } from '../ids';
import {
  GL_ACCOUNT_SUBTYPES,
  RESERVED_SUBTYPES,
  type GlAccount,
  type GlAccountCreate,
  type GlAccountSubtype,
  type GlAccountType,
  type GlAccountUpdate,
  type SystemAccountKey,
} from './schemas/gl-account';

const COLUMNS = `a.id, 'gl_account' AS object, a.entity_id, a.code, a.name, a.description, a.type, a.subtype,
  CASE WHEN a.type IN ('asset', 'expense') THEN 'debit' ELSE 'credit' END AS normal_balance,
  a.system_key, a.subtype = 'bank' AS is_bank, a.bank_account_id, a.is_active, a.metadata, a.created_at, a.updated_at`;

interface SystemAccount {
  system_key: SystemAccountKey;
  code: string;
  name: string;
  type: GlAccountType;
  subtype: GlAccountSubtype;
}

/** The accounts every entity gets at creation; other modules post to them by system_key. */
export const SYSTEM_ACCOUNTS: readonly SystemAccount[] = [
  { system_key: 'bank', code: '1000', name: 'Operating Bank Account', type: 'asset', subtype: 'bank' },
  { system_key: 'undeposited_funds', code: '1050', name: 'Undeposited Funds', type: 'asset', subtype: 'other_current_asset' },
  { system_key: 'accounts_receivable', code: '1100', name: 'Accounts Receivable', type: 'asset', subtype: 'accounts_receivable' },
  { system_key: 'inventory', code: '1200', name: 'Inventory Asset', type: 'asset', subtype: 'inventory' },
  { system_key: 'vendor_returns_receivable', code: '1300', name: 'Vendor Returns Receivable', type: 'asset', subtype: 'other_current_asset' },
  { system_key: 'accounts_payable', code: '2000', name: 'Accounts Payable', type: 'liability', subtype: 'accounts_payable' },
  // Goods received on purchase orders and not yet billed: credited at receipt, cleared by the vendor bill.
  { system_key: 'received_not_billed', code: '2050', name: 'Received Not Billed', type: 'liability', subtype: 'other_current_liability' },
  // Money customers gave us that no posted invoice owes yet: sales-order prepayments, unapplied
  // payments and credit-memo credit. Kept out of AR so AR ties exactly to open invoices.
  { system_key: 'customer_credits', code: '2150', name: 'Customer Deposits and Credits', type: 'liability', subtype: 'other_current_liability' },
  { system_key: 'vendor_credits', code: '2100', name: 'Vendor Credits', type: 'liability', subtype: 'other_current_liability' },
  { system_key: 'sales_tax_payable', code: '2200', name: 'Sales Tax Payable', type: 'liability', subtype: 'other_current_liability' },
  { system_key: 'opening_balance_equity', code: '3000', name: 'Opening Balance Equity', type: 'equity', subtype: 'opening_balance_equity' },
  { system_key: 'retained_earnings', code: '3100', name: 'Retained Earnings', type: 'equity', subtype: 'retained_earnings' },
  { system_key: 'sales_revenue', code: '4000', name: 'Sales Revenue', type: 'revenue', subtype: 'income' },
  { system_key: 'cost_of_goods_sold', code: '5000', name: 'Cost of Goods Sold', type: 'expense', subtype: 'cost_of_goods_sold' },
  // A vendor bill's price against the cost its purchase-order receipts were booked at: the difference lands here.
  { system_key: 'purchase_price_variance', code: '5100', name: 'Purchase Price Variance', type: 'expense', subtype: 'cost_of_goods_sold' },
  // Stock counted in or written off (adjustments), and the cost of units that settle negative stock.
  { system_key: 'inventory_adjustments', code: '5200', name: 'Inventory Shrinkage and Adjustments', type: 'expense', subtype: 'cost_of_goods_sold' },
];

/** System keys of the control accounts: their sub-ledgers (invoices, bills) must tie to them, so only those documents post there. */
const CONTROL_ACCOUNT_KEYS: readonly SystemAccountKey[] = ['accounts_receivable', 'accounts_payable'];

/**
 * Creates the system accounts an entity lacks; idempotent and safe to run concurrently. New
 * entities get them at creation (provisionEntity); entities created before the ledger get them
 * the first time the ledger needs them. Should a user account already hold a system account's
 * code, the system account takes the code with an `-S` suffix rather than failing.
 */
export async function ensureSystemAccounts(db: Db, entityId: string): Promise<void> {
  await db.query(
    `INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype, system_key, bank_account_id)
     SELECT v.id, $1,
            CASE WHEN EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = $1 AND lower(g.code) = lower(v.code)) THEN v.code || '-S' ELSE v.code END,
            v.name, v.type, v.subtype, v.system_key, CASE WHEN v.subtype = 'bank' THEN v.bank_account_id END
       FROM jsonb_to_recordset($2::jsonb) AS v(id uuid, code text, name text, type text, subtype text, system_key text, bank_account_id uuid)
      WHERE NOT EXISTS (SELECT 1 FROM gl_accounts g WHERE g.entity_id = $1 AND g.system_key = v.system_key)
      ORDER BY v.code
     ON CONFLICT DO NOTHING`,
    [entityId, JSON.stringify(SYSTEM_ACCOUNTS.map((account) => ({ ...account, id: newId(), bank_account_id: newId() })))],
  );
}

function codeTaken(error: unknown): never {
  if (isUniqueViolation(error, 'gl_accounts_code_unique')) throw new ApiError('gl_account_code_taken', { param: 'code' });
  throw error;
}

export async function getGlAccount(db: Db, entityId: string, accountId: string, options: { lock?: boolean } = {}): Promise<GlAccount> {
  const row = await db.maybeOne<GlAccount>(`SELECT ${COLUMNS} FROM gl_accounts a WHERE a.entity_id = $1 AND a.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    accountId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such GL account in this entity.' });
  return row;
}

/** For expand: the accounts with these ids in the current entity. */
export function glAccountsByIds(db: Db, ids: string[]): Promise<GlAccount[]> {
  return db.query<GlAccount>(`SELECT ${COLUMNS} FROM gl_accounts a WHERE a.entity_id = current_entity_id() AND a.id = ANY($1::uuid[])`, [ids]);
}

function checkSubtype(type: GlAccountType, subtype: GlAccountSubtype, param: string): void {
  if (!(GL_ACCOUNT_SUBTYPES[type] as readonly string[]).includes(subtype)) {
    throw new ApiError('parameter_invalid', {
      param,
      hint: `Subtype ${subtype} does not belong to type ${type}; allowed: ${GL_ACCOUNT_SUBTYPES[type].join(', ')}.`,
    });
  }
  if (RESERVED_SUBTYPES.includes(subtype)) {
    throw new ApiError('parameter_invalid', { param, hint: `Subtype ${subtype} belongs to the system account of that name; every entity has exactly one.` });
  }
}

export async function createGlAccount(db: Db, entityId: string, input: GlAccountCreate): Promise<GlAccount> {
  const subtype = input.subtype ?? GL_ACCOUNT_SUBTYPES[input.type][0];
  checkSubtype(input.type, subtype, input.subtype ? 'subtype' : 'type');
  // The system accounts take their codes first, so a user account never blocks one.
  await ensureSystemAccounts(db, entityId);
  try {
    return await db.one<GlAccount>(
      `WITH a AS (
         INSERT INTO gl_accounts (id, entity_id, code, name, description, type, subtype, bank_account_id, is_active, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *
       ) SELECT ${COLUMNS} FROM a`,
      [
        newId(),
        entityId,
        input.code,
        input.name,
        input.description ?? null,
        input.type,
        subtype,
        subtype === 'bank' ? newId() : null,
        input.is_active ?? true,
        input.metadata ?? {},
      ],
    );
  } catch (error) {
    codeTaken(error);
  }
}

interface GlAccountReferences {
  journal_lines: number;
  draft_journal_entries: number;
  recurring_templates: number;
}

/** What refers to an account: posted lines, draft entries and recurring templates. */
async function accountReferences(db: Db, entityId: string, accountId: string): Promise<GlAccountReferences> {
  const reference = JSON.stringify([{ account_id: accountId }]);
  return db.one<GlAccountReferences>(
    `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM journal_lines WHERE entity_id = $1 AND account_id = $2 LIMIT 1000) l) AS journal_lines,
            (SELECT count(*)::int FROM journal_entries WHERE entity_id = $1 AND status = 'draft' AND draft_lines @> $3::jsonb) AS draft_journal_entries,
            (SELECT count(*)::int FROM recurring_journal_templates WHERE entity_id = $1 AND template_lines @> $3::jsonb) AS recurring_templates`,
    [entityId, accountId, reference],
  );
}

const hasPostings = async (db: Db, entityId: string, accountId: string) =>
  (await db.maybeOne('SELECT 1 FROM journal_lines WHERE entity_id = $1 AND account_id = $2 LIMIT 1', [entityId, accountId])) !== undefined;

export async function updateGlAccount(
  db: Db,
  entityId: string,
  accountId: string,
  patch: GlAccountUpdate,
): Promise<{ account: GlAccount; previous: Partial<GlAccount> }> {
  const before = await getGlAccount(db, entityId, accountId, { lock: true });
  const type = patch.type ?? before.type;
  const subtypeGiven = patch.subtype !== undefined;
  const subtype = patch.subtype ?? (patch.type && patch.type !== before.type ? GL_ACCOUNT_SUBTYPES[patch.type][0] : before.subtype);
  const retyped = type !== before.type || subtype !== before.subtype;
  if (before.system_key) {
    if (retyped) throw new ApiError('gl_account_is_system', { param: subtypeGiven && patch.type === undefined ? 'subtype' : 'type' });
    if (patch.is_active === false) throw new ApiError('gl_account_is_system', { param: 'is_active' });
  }
  if (retyped) {
    checkSubtype(type, subtype, subtypeGiven ? 'subtype' : 'type');
    // A new type (or a move into or out of bank) would rewrite what past postings meant.
    const bankChange = (subtype === 'bank') !== (before.subtype === 'bank');
    if ((type !== before.type || bankChange) && (await hasPostings(db, entityId, accountId))) {
      throw new ApiError('gl_account_in_use', {
        param: type !== before.type ? 'type' : 'subtype',
        hint: 'The account has postings: its type, and whether it is a bank account, can no longer change. Create a new account instead.',
      });
    }
  }
  const params: unknown[] = [entityId, accountId];
  const changes: Record<string, unknown> = { ...patch, type: retyped ? type : undefined, subtype: retyped ? subtype : undefined };
  let set = updateSet(changes, ['code', 'name', 'description', 'type', 'subtype', 'is_active', 'metadata'], params);
  if (set && (subtype === 'bank') !== (before.subtype === 'bank')) {
    params.push(subtype === 'bank' ? newId() : null);
    set = `${set}, bank_account_id = $${params.length}`;
  }
  try {
    if (set) await db.query(`UPDATE gl_accounts a ${set} WHERE a.entity_id = $1 AND a.id = $2`, params);
  } catch (error) {
    codeTaken(error);
  }
  const account = await getGlAccount(db, entityId, accountId);
  return { account, previous: previousAttributes(before, account) };
}

export async function deleteGlAccount(db: Db, entityId: string, accountId: string): Promise<GlAccount> {
  const account = await getGlAccount(db, entityId, accountId, { lock: true });
  if (account.system_key) throw new ApiError('gl_account_is_system', { param: 'id' });
  const references = await accountReferences(db, entityId, accountId);
  if (references.journal_lines + references.draft_journal_entries + references.recurring_templates > 0) {
    throw new ApiError('gl_account_in_use', { param: 'id', details: { references } });
  }
  await db.query('DELETE FROM gl_accounts WHERE entity_id = $1 AND id = $2', [entityId, accountId]);
  return account;
}

export interface GlAccountFilters {
  type?: GlAccountType;
  subtype?: GlAccountSubtype;
  is_active?: boolean;
  is_bank?: boolean;
}

export function listGlAccounts(db: Db, entityId: string, filters: GlAccountFilters, page: PageRequest): Promise<Page<GlAccount>> {
  const where = ['a.entity_id = $1'];
  const params: unknown[] = [entityId];
  for (const column of ['type', 'subtype', 'is_active'] as const) {
    if (filters[column] === undefined) continue;
    params.push(filters[column]);
    where.push(`a.${column} = $${params.length}`);
  }
  if (filters.is_bank !== undefined) where.push(filters.is_bank ? `a.subtype = 'bank'` : `a.subtype <> 'bank'`);
  return keysetPage<GlAccount>(db, { table: 'gl_accounts', alias: 'a', select: COLUMNS, where, params }, page);
}

export interface AccountRef {
  account_id?: string;
  system_key?: SystemAccountKey;
}

interface PostingAccount {
  id: string;
  system_key: SystemAccountKey | null;
  is_active: boolean;
}

/**
 * Resolves the accounts of a set of lines (by id or system key) in one query and checks each:
 * it exists in this entity (else 404 naming the line), is active, and, unless control accounts
 * are allowed, is not accounts receivable or payable. Returns the account id of every line.
 */
export async function resolvePostingAccounts(
  db: Db,
  entityId: string,
  refs: readonly AccountRef[],
  options: { allowControlAccounts: boolean; param?: string },
): Promise<string[]> {
  const param = options.param ?? 'lines';
  const load = () =>
    db.query<PostingAccount>(
      `SELECT id, system_key, is_active FROM gl_accounts WHERE entity_id = $1 AND (id = ANY($2::uuid[]) OR system_key = ANY($3::text[]))`,
      [entityId, refs.flatMap((ref) => (ref.account_id ? [ref.account_id] : [])), refs.flatMap((ref) => (ref.system_key ? [ref.system_key] : []))],
    );
  let accounts = await load();
  const bySystemKey = () => new Map(accounts.filter((a) => a.system_key).map((a) => [a.system_key, a]));
  if (refs.some((ref) => ref.system_key && !bySystemKey().has(ref.system_key))) {
    await ensureSystemAccounts(db, entityId);
    accounts = await load();
  }
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const byKey = bySystemKey();
  return refs.map((ref, index) => {
    const field = ref.account_id ? 'account_id' : 'system_key';
    const account = ref.account_id ? byId.get(ref.account_id) : ref.system_key ? byKey.get(ref.system_key) : undefined;
    if (!account) throw new ApiError('not_found', { param: `${param}[${index}].${field}`, hint: 'No such GL account in this entity.' });
    if (!account.is_active) throw new ApiError('gl_account_inactive', { param: `${param}[${index}].${field}` });
    if (!options.allowControlAccounts && account.system_key && CONTROL_ACCOUNT_KEYS.includes(account.system_key)) {
      throw new ApiError('gl_account_control', { param: `${param}[${index}].${field}` });
    }
    return account.id;
  });
}
