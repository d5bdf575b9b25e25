/**
 * SQL for account payment methods and the processor customer behind each account. Every statement
 * also filters by entity (row level security is the second wall). Writes to one account's methods
 * are serialised by locking the account row, so "first method becomes the default" and "one
 * default per account" hold under concurrency (the partial unique index is the last wall).
 */
import type { KeyMode } from '../auth/api-key-format';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { getParty } from '../parties/parties';
import type { ProcessorName, ProcessorPaymentMethod } from './processor';
import type { AccountPaymentMethod } from './schemas/payment-method';

const COLUMNS = `m.id, 'account_payment_method' AS object, m.account_id, m.entity_id, m.processor_payment_method_id, m.type, m.card_brand,
  m.last_four, m.bank_name, m.account_type, m.routing_last_four, m.funding_type, m.verification_status, m.exp_month, m.exp_year,
  m.is_default, m.is_active, m.created_at, m.updated_at`;

export interface PaymentMethodAccount {
  id: string;
  name: string;
  is_archived: boolean;
}

/**
 * The account, locked so that this transaction is the only writer of its payment methods. Another
 * entity's account is a 404; an archived one takes no new methods.
 */
export async function lockAccount(db: Db, entityId: string, accountId: string, options: { forNewMethod?: boolean } = {}): Promise<PaymentMethodAccount> {
  const { id, name, is_archived } = await getParty(db, 'account', entityId, accountId, { lock: true });
  const account: PaymentMethodAccount = { id, name, is_archived };
  if (options.forNewMethod && account.is_archived) throw new ApiError('party_archived', { param: 'id' });
  return account;
}

export interface ProcessorCustomerKey {
  accountId: string;
  processor: ProcessorName;
  mode: KeyMode;
}

export async function findProcessorCustomer(db: Db, entityId: string, key: ProcessorCustomerKey): Promise<string | undefined> {
  const row = await db.maybeOne<{ processor_customer_id: string }>(
    'SELECT processor_customer_id FROM account_processor_customers WHERE entity_id = $1 AND account_id = $2 AND processor = $3 AND mode = $4',
    [entityId, key.accountId, key.processor, key.mode],
  );
  return row?.processor_customer_id;
}

export async function saveProcessorCustomer(db: Db, entityId: string, key: ProcessorCustomerKey, customerId: string): Promise<void> {
  await db.query(
    `INSERT INTO account_processor_customers (entity_id, account_id, processor, mode, processor_customer_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (entity_id, account_id, processor, mode) DO NOTHING`,
    [entityId, key.accountId, key.processor, key.mode, customerId],
  );
}

export async function getPaymentMethod(
  db: Db,
  entityId: string,
  accountId: string,
  methodId: string,
  options: { lock?: boolean } = {},
): Promise<AccountPaymentMethod> {
  const row = await db.maybeOne<AccountPaymentMethod>(
    `SELECT ${COLUMNS} FROM account_payment_methods m WHERE m.entity_id = $1 AND m.account_id = $2 AND m.id = $3 ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, accountId, methodId],
  );
  if (!row) throw new ApiError('not_found', { param: 'payment_method_id', hint: 'No such payment method on this account.' });
  return row;
}

/** Demotes the account's current default (other than `except`); returns the demoted method. */
async function demoteDefault(
  db: Db,
  entityId: string,
  accountId: string,
  except?: string,
): Promise<{ before: AccountPaymentMethod; after: AccountPaymentMethod } | undefined> {
  const before = await db.maybeOne<AccountPaymentMethod>(
    `SELECT ${COLUMNS} FROM account_payment_methods m WHERE m.entity_id = $1 AND m.account_id = $2 AND m.is_default AND m.id IS DISTINCT FROM $3`,
    [entityId, accountId, except ?? null],
  );
  if (!before) return undefined;
  const after = await db.one<AccountPaymentMethod>(
    `UPDATE account_payment_methods m SET is_default = false, updated_at = now() WHERE m.entity_id = $1 AND m.id = $2 RETURNING ${COLUMNS}`,
    [entityId, before.id],
  );
  return { before, after };
}

export interface DefaultChange {
  method: AccountPaymentMethod;
  previous: Partial<AccountPaymentMethod>;
}

export interface AttachInput {
  processor: ProcessorName;
  setupIntentId: string;
  method: ProcessorPaymentMethod;
  isDefault?: boolean;
}

/**
 * Saves a confirmed method. The account's first active method becomes its default; is_default
 * true demotes the previous default in the same transaction. Call with the account locked.
 */
export async function insertPaymentMethod(
  db: Db,
  entityId: string,
  accountId: string,
  input: AttachInput,
): Promise<{ method: AccountPaymentMethod; demoted?: DefaultChange }> {
  const { has_default } = await db.one<{ has_default: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM account_payment_methods WHERE entity_id = $1 AND account_id = $2 AND is_default) AS has_default',
    [entityId, accountId],
  );
  const isDefault = !has_default || input.isDefault === true;
  const demoted = isDefault && has_default ? await demoteDefault(db, entityId, accountId) : undefined;
  const m = input.method;
  try {
    const method = await db.one<AccountPaymentMethod>(
      `INSERT INTO account_payment_methods AS m (id, entity_id, account_id, processor, processor_payment_method_id, processor_setup_intent_id, type,
         card_brand, last_four, bank_name, account_type, routing_last_four, funding_type, verification_status, exp_month, exp_year, is_default)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING ${COLUMNS}`,
      [
        newId(),
        entityId,
        accountId,
        input.processor,
        m.processor_payment_method_id,
        input.setupIntentId,
        m.type,
        m.card_brand,
        m.last_four,
        m.bank_name,
        m.account_type,
        m.routing_last_four,
        m.funding_type,
        m.verification_status,
        m.exp_month,
        m.exp_year,
        isDefault,
      ],
    );
    return { method, demoted: demoted && { method: demoted.after, previous: previousAttributes(demoted.before, demoted.after) } };
  } catch (error) {
    if (isUniqueViolation(error, 'account_payment_methods_setup_intent') || isUniqueViolation(error, 'account_payment_methods_processor_id')) {
      throw new ApiError('payment_method_already_attached', { param: 'setup_intent_id' });
    }
    throw error;
  }
}

/** Makes a method the account's default. Call with the account locked. */
export async function makeDefault(
  db: Db,
  entityId: string,
  accountId: string,
  methodId: string,
): Promise<{ changed?: DefaultChange; demoted?: DefaultChange; method: AccountPaymentMethod }> {
  const before = await getPaymentMethod(db, entityId, accountId, methodId, { lock: true });
  if (!before.is_active) throw new ApiError('payment_method_inactive', { param: 'payment_method_id' });
  if (before.is_default) return { method: before };
  const demoted = await demoteDefault(db, entityId, accountId, methodId);
  const method = await db.one<AccountPaymentMethod>(
    `UPDATE account_payment_methods m SET is_default = true, updated_at = now() WHERE m.entity_id = $1 AND m.id = $2 RETURNING ${COLUMNS}`,
    [entityId, methodId],
  );
  return {
    method,
    changed: { method, previous: previousAttributes(before, method) },
    demoted: demoted && { method: demoted.after, previous: previousAttributes(demoted.before, demoted.after) },
  };
}

/**
 * Soft removal: is_active false (the row stays for history and for payments that used it). When
 * the default goes, the newest remaining active method takes its place, so an account with active
 * methods always has a default. Call with the account locked.
 */
export async function deactivatePaymentMethod(
  db: Db,
  entityId: string,
  accountId: string,
  methodId: string,
): Promise<{ method: AccountPaymentMethod; previous: Partial<AccountPaymentMethod>; promoted?: DefaultChange }> {
  const before = await getPaymentMethod(db, entityId, accountId, methodId, { lock: true });
  if (!before.is_active) throw new ApiError('payment_method_inactive', { param: 'payment_method_id' });
  const method = await db.one<AccountPaymentMethod>(
    `UPDATE account_payment_methods m SET is_active = false, is_default = false, updated_at = now() WHERE m.entity_id = $1 AND m.id = $2 RETURNING ${COLUMNS}`,
    [entityId, methodId],
  );
  let promoted: DefaultChange | undefined;
  if (before.is_default) {
    const next = await db.maybeOne<AccountPaymentMethod>(
      `SELECT ${COLUMNS} FROM account_payment_methods m WHERE m.entity_id = $1 AND m.account_id = $2 AND m.is_active
       ORDER BY m.created_at DESC, m.id DESC LIMIT 1`,
      [entityId, accountId],
    );
    if (next) {
      const after = await db.one<AccountPaymentMethod>(
        `UPDATE account_payment_methods m SET is_default = true, updated_at = now() WHERE m.entity_id = $1 AND m.id = $2 RETURNING ${COLUMNS}`,
        [entityId, next.id],
      );
      promoted = { method: after, previous: previousAttributes(next, after) };
    }
  }
  return { method, previous: previousAttributes(before, method), promoted };
}

export interface PaymentMethodFilters {
  account_id?: string;
  type?: 'card' | 'ach';
  is_default?: boolean;
  is_active?: boolean;
}

export function listPaymentMethods(db: Db, entityId: string, filters: PaymentMethodFilters, page: PageRequest): Promise<Page<AccountPaymentMethod>> {
  const where = ['m.entity_id = $1'];
  const params: unknown[] = [entityId];
  for (const column of ['account_id', 'type', 'is_default', 'is_active'] as const) {
    if (filters[column] === undefined) continue;
    params.push(filters[column]);
    where.push(`m.${column} = $${params.length}`);
  }
  return keysetPage<AccountPaymentMethod>(db, { table: 'account_payment_methods', alias: 'm', select: COLUMNS, where, params }, page);
}
