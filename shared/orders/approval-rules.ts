/**
 * SQL for order approval rules (E9). A rule names a customer account, a sales channel or both, a
 * threshold and an approver (an active user of the entity). Every statement also filters by entity.
 */
import type { Db } from '../db/database';
import { updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { toJsonNumber } from '../money';
import type { OrderApprovalRule, OrderApprovalRuleCreate, OrderApprovalRuleUpdate } from './schemas/order-approval';

const COLUMNS = `r.id, 'order_approval_rule' AS object, r.entity_id, r.account_id, r.sales_channel_id, r.threshold_amount, r.approver_user_id,
  r.is_active, r.created_by_user_id, r.created_at, r.updated_at`;
const EDITABLE = ['account_id', 'sales_channel_id', 'threshold_amount', 'approver_user_id', 'is_active'] as const;

type RuleRow = Omit<OrderApprovalRule, 'threshold_amount'> & { threshold_amount: string };
const toRule = (row: RuleRow): OrderApprovalRule => ({ ...row, threshold_amount: toJsonNumber(row.threshold_amount) });

/** A customer account of the entity (vendors are not customers), else 404 on account_id. */
async function checkAccount(db: Db, entityId: string, accountId: string): Promise<void> {
  const row = await db.maybeOne('SELECT 1 FROM accounts WHERE entity_id = $1 AND id = $2', [entityId, accountId]);
  if (!row) throw new ApiError('not_found', { param: 'account_id', hint: 'No such customer account in this entity.' });
}

/** An active user of the entity, else 404 (not in the entity) or 422 approver_user_inactive. */
async function checkApprover(db: Db, entityId: string, userId: string): Promise<void> {
  const user = await db.maybeOne<{ is_active: boolean }>('SELECT is_active FROM users WHERE entity_id = $1 AND id = $2', [entityId, userId]);
  if (!user) throw new ApiError('not_found', { param: 'approver_user_id', hint: 'No such user in this entity.' });
  if (!user.is_active) throw new ApiError('approver_user_inactive', { param: 'approver_user_id' });
}

export async function getApprovalRule(db: Db, entityId: string, ruleId: string, options: { lock?: boolean } = {}): Promise<OrderApprovalRule> {
  const row = await db.maybeOne<RuleRow>(
    `SELECT ${COLUMNS} FROM order_approval_rules r WHERE r.entity_id = $1 AND r.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, ruleId],
  );
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such order approval rule in this entity.' });
  return toRule(row);
}

export async function createApprovalRule(db: Db, actor: { entityId: string; userId: string }, input: OrderApprovalRuleCreate): Promise<OrderApprovalRule> {
  const { entityId } = actor;
  if (!input.account_id && !input.sales_channel_id) {
    throw new ApiError('parameter_missing', {
      param: 'account_id',
      hint: 'Send account_id (a per-customer rule), sales_channel_id (a per-channel rule) or both (that customer in that channel).',
    });
  }
  if (input.account_id) await checkAccount(db, entityId, input.account_id);
  await checkApprover(db, entityId, input.approver_user_id);
  const id = newId();
  await db.query(
    `INSERT INTO order_approval_rules (id, entity_id, account_id, sales_channel_id, threshold_amount, approver_user_id, is_active, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      entityId,
      input.account_id ?? null,
      input.sales_channel_id ?? null,
      input.threshold_amount,
      input.approver_user_id,
      input.is_active ?? true,
      actor.userId,
    ],
  );
  return getApprovalRule(db, entityId, id);
}

export async function updateApprovalRule(
  db: Db,
  entityId: string,
  ruleId: string,
  patch: OrderApprovalRuleUpdate,
): Promise<{ rule: OrderApprovalRule; previous: Partial<OrderApprovalRule> }> {
  const before = await getApprovalRule(db, entityId, ruleId, { lock: true });
  const accountId = patch.account_id === undefined ? before.account_id : patch.account_id;
  const channelId = patch.sales_channel_id === undefined ? before.sales_channel_id : patch.sales_channel_id;
  if (!accountId && !channelId) {
    throw new ApiError('parameter_invalid', {
      param: patch.account_id === null ? 'account_id' : 'sales_channel_id',
      hint: 'A rule keeps account_id, sales_channel_id or both.',
    });
  }
  if (patch.account_id && patch.account_id !== before.account_id) await checkAccount(db, entityId, patch.account_id);
  if (patch.approver_user_id && patch.approver_user_id !== before.approver_user_id) await checkApprover(db, entityId, patch.approver_user_id);
  const params: unknown[] = [entityId, ruleId];
  const set = updateSet(patch, EDITABLE, params);
  if (!set) return { rule: before, previous: {} };
  await db.query(`UPDATE order_approval_rules ${set} WHERE entity_id = $1 AND id = $2`, params);
  const rule = await getApprovalRule(db, entityId, ruleId);
  return { rule, previous: previousAttributes(before, rule) };
}

/** Permanent; a rule that routed orders is kept for their audit trail (409 approval_rule_in_use: deactivate it). */
export async function deleteApprovalRule(db: Db, entityId: string, ruleId: string): Promise<OrderApprovalRule> {
  // The row lock keeps any order from being routed by this rule until the delete commits.
  const rule = await getApprovalRule(db, entityId, ruleId, { lock: true });
  const { orders } = await db.one<{ orders: number }>('SELECT count(*)::int AS orders FROM orders WHERE entity_id = $1 AND approval_rule_id = $2', [
    entityId,
    ruleId,
  ]);
  if (orders > 0) throw new ApiError('approval_rule_in_use', { param: 'id', details: { references: { orders } } });
  await db.query('DELETE FROM order_approval_rules WHERE entity_id = $1 AND id = $2', [entityId, ruleId]);
  return rule;
}

export interface ApprovalRuleFilters {
  account_id?: string;
  sales_channel_id?: string;
  is_active?: boolean;
}

export async function listApprovalRules(db: Db, entityId: string, filters: ApprovalRuleFilters, page: PageRequest): Promise<Page<OrderApprovalRule>> {
  const where = ['r.entity_id = $1'];
  const params: unknown[] = [entityId];
  const add = (column: string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(`r.${column} = $${params.length}`);
  };
  add('account_id', filters.account_id);
  add('sales_channel_id', filters.sales_channel_id);
  add('is_active', filters.is_active);
  const result = await keysetPage<RuleRow>(db, { table: 'order_approval_rules', alias: 'r', select: COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toRule) };
}
