/**
 * SQL for order approval rules (E9). A sales order rule names a customer account, a sales channel
 * or both; a purchase order rule names a vendor or nothing (every purchase order). Each has a
 * threshold and an approver (an active user of the entity). Every statement also filters by entity.
 */
import type { Db } from '../db/database';
import { entityFilters, updateSet } from '../db/sql';
import { previousAttributes } from '../events/outbox';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { newId } from '../ids';
import { toJsonNumber } from '../money';
import type { OrderApprovalRule, OrderApprovalRuleCreate, OrderApprovalRuleUpdate } from './schemas/order-approval';
import { hasParty } from '../parties/parties';
import { userState } from '../tenants/tenant-reads';

const COLUMNS = `r.id, 'order_approval_rule' AS object, r.entity_id, r.document_type, r.account_id, r.sales_channel_id, r.vendor_id, r.threshold_amount,
  r.approver_user_id, r.is_active, r.created_by_user_id, r.created_at, r.updated_at`;
const EDITABLE = ['account_id', 'sales_channel_id', 'vendor_id', 'threshold_amount', 'approver_user_id', 'is_active'] as const;

type RuleRow = Omit<OrderApprovalRule, 'threshold_amount'> & { threshold_amount: string };
const toRule = (row: RuleRow): OrderApprovalRule => ({ ...row, threshold_amount: toJsonNumber(row.threshold_amount) });

/** A customer account of the entity (vendors are not customers), else 404 on account_id. */
async function checkAccount(db: Db, entityId: string, accountId: string): Promise<void> {
  if (!(await hasParty(db, 'account', entityId, accountId)))
    throw new ApiError('not_found', { param: 'account_id', hint: 'No such customer account in this entity.' });
}

/** A vendor of the entity, else 404 on vendor_id. */
async function checkVendor(db: Db, entityId: string, vendorId: string): Promise<void> {
  if (!(await hasParty(db, 'vendor', entityId, vendorId))) throw new ApiError('not_found', { param: 'vendor_id', hint: 'No such vendor in this entity.' });
}

/** Which dimensions a rule of this document type may name: 400 on the first that does not belong. */
function checkDimensions(
  documentType: OrderApprovalRule['document_type'],
  rule: { account_id?: string | null; sales_channel_id?: string | null; vendor_id?: string | null },
): void {
  const foreign = documentType === 'purchase_order' ? (['account_id', 'sales_channel_id'] as const) : (['vendor_id'] as const);
  for (const field of foreign) {
    if (rule[field] === undefined || rule[field] === null) continue;
    throw new ApiError('parameter_invalid', {
      param: field,
      hint:
        documentType === 'purchase_order'
          ? 'A purchase order rule routes by vendor_id (or every purchase order); account_id and sales_channel_id are for sales order rules.'
          : 'vendor_id is for purchase order rules (document_type purchase_order).',
    });
  }
}

/** An active user of the entity, else 404 (not in the entity) or 422 approver_user_inactive. */
async function checkApprover(db: Db, entityId: string, userId: string): Promise<void> {
  const user = await userState(db, entityId, userId);
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
  const documentType = input.document_type ?? 'sales_order';
  checkDimensions(documentType, input);
  if (documentType === 'sales_order' && !input.account_id && !input.sales_channel_id) {
    throw new ApiError('parameter_missing', {
      param: 'account_id',
      hint: 'Send account_id (a per-customer rule), sales_channel_id (a per-channel rule) or both (that customer in that channel).',
    });
  }
  if (input.account_id) await checkAccount(db, entityId, input.account_id);
  if (input.vendor_id) await checkVendor(db, entityId, input.vendor_id);
  await checkApprover(db, entityId, input.approver_user_id);
  const id = newId();
  await db.query(
    `INSERT INTO order_approval_rules (id, entity_id, account_id, sales_channel_id, threshold_amount, approver_user_id, is_active, created_by_user_id,
       document_type, vendor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      entityId,
      input.account_id ?? null,
      input.sales_channel_id ?? null,
      input.threshold_amount,
      input.approver_user_id,
      input.is_active ?? true,
      actor.userId,
      documentType,
      input.vendor_id ?? null,
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
  checkDimensions(before.document_type, patch);
  if (patch.vendor_id && patch.vendor_id !== before.vendor_id) await checkVendor(db, entityId, patch.vendor_id);
  const accountId = patch.account_id === undefined ? before.account_id : patch.account_id;
  const channelId = patch.sales_channel_id === undefined ? before.sales_channel_id : patch.sales_channel_id;
  if (before.document_type === 'sales_order' && !accountId && !channelId) {
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
  document_type?: OrderApprovalRule['document_type'];
  vendor_id?: string;
  account_id?: string;
  sales_channel_id?: string;
  is_active?: boolean;
}

export async function listApprovalRules(db: Db, entityId: string, filters: ApprovalRuleFilters, page: PageRequest): Promise<Page<OrderApprovalRule>> {
  const { where, params, add } = entityFilters('r', entityId);
  add((n) => `r.document_type = ${n}`, filters.document_type);
  add((n) => `r.vendor_id = ${n}`, filters.vendor_id);
  add((n) => `r.account_id = ${n}`, filters.account_id);
  add((n) => `r.sales_channel_id = ${n}`, filters.sales_channel_id);
  add((n) => `r.is_active = ${n}`, filters.is_active);
  const result = await keysetPage<RuleRow>(db, { table: 'order_approval_rules', alias: 'r', select: COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toRule) };
}
