/**
 * Approval routing of sales orders (E9). Confirming a sales order whose order_total is over the
 * threshold of an active rule matching its customer or channel holds it (on_hold, hold_type
 * 'approval', the rule and its approver recorded) instead of confirming it; approve moves it to
 * confirmed, reject back to draft with the reason. Only the order's approver or a user with the
 * orders.approve permission decides.
 */
import type { Db } from '../db/database';
import { routingRule, type ApprovalRuleLike } from './approval-routing';
import { APPROVAL_HOLD } from './lifecycle-rules';
import { ApiError } from '../errors';
import { begin, finish, type LifecycleResult } from './order-lifecycle';
import type { OrderState } from './order-state';

const APPROVE_PERMISSION = 'orders.approve';

/** The active rule that routes this order, or null (only sales orders are routed). */
export async function approvalRuleFor(db: Db, entityId: string, order: OrderState): Promise<(ApprovalRuleLike & { approver_user_id: string }) | null> {
  if (order.document_type !== 'sales_order') return null;
  const header = await db.one<{ customer_account_id: string | null; sales_channel_id: string | null }>(
    'SELECT customer_account_id, sales_channel_id FROM orders WHERE entity_id = $1 AND id = $2',
    [entityId, order.id],
  );
  const rules = await db.query<ApprovalRuleLike & { approver_user_id: string }>(
    `SELECT id, account_id, sales_channel_id, threshold_amount, approver_user_id, is_active FROM order_approval_rules
     WHERE entity_id = $1 AND is_active AND (account_id = $2 OR sales_channel_id = $3) ORDER BY created_at, id`,
    [entityId, header.customer_account_id, header.sales_channel_id],
  );
  return routingRule({ account_id: header.customer_account_id, sales_channel_id: header.sales_channel_id, order_total: order.order_total }, rules);
}

/** Holds a draft sales order for approval by `rule` (called by confirm instead of confirming it). */
export async function holdForApproval(db: Db, entityId: string, order: OrderState, rule: { id: string; approver_user_id: string }): Promise<LifecycleResult> {
  await db.query(
    `UPDATE orders SET is_on_hold = true, hold_type = $3, hold_reason = NULL, approval_rule_id = $4, approver_user_id = $5, approval_requested_at = now(),
       approved_by = NULL, approved_at = NULL
     WHERE entity_id = $1 AND id = $2`,
    [entityId, order.id, APPROVAL_HOLD, rule.id, rule.approver_user_id],
  );
  return finish(db, entityId, order, { order_status: 'on_hold' });
}

/** The key's user must be the order's approver or hold orders.approve (403 insufficient_permissions). */
async function checkDecider(db: Db, actor: { entityId: string; userId: string }, orderId: string): Promise<void> {
  const row = await db.one<{ approver_user_id: string | null; permissions: string[] | null }>(
    `SELECT o.approver_user_id, u.permissions FROM orders o LEFT JOIN users u ON u.entity_id = o.entity_id AND u.id = $3
     WHERE o.entity_id = $1 AND o.id = $2`,
    [actor.entityId, orderId, actor.userId],
  );
  if (row.approver_user_id === actor.userId || (row.permissions ?? []).includes(APPROVE_PERMISSION)) return;
  throw new ApiError('insufficient_permissions', {
    param: 'id',
    hint: `Only the order's approver (approver_user_id) or a user with the ${APPROVE_PERMISSION} permission may approve or reject it.`,
    details: { permission: APPROVE_PERMISSION },
  });
}

export async function approveOrder(db: Db, actor: { entityId: string; userId: string }, orderId: string): Promise<LifecycleResult> {
  const { order, next } = await begin(db, actor.entityId, orderId, 'approve');
  await checkDecider(db, actor, order.id);
  await db.query(
    `UPDATE orders SET is_on_hold = false, hold_type = NULL, hold_reason = NULL, approved_by = $3, approved_at = now() WHERE entity_id = $1 AND id = $2`,
    [actor.entityId, order.id, actor.userId],
  );
  return finish(db, actor.entityId, order, { order_status: next });
}

export async function rejectOrder(db: Db, actor: { entityId: string; userId: string }, orderId: string, reason: string): Promise<LifecycleResult> {
  const { order, next } = await begin(db, actor.entityId, orderId, 'reject');
  await checkDecider(db, actor, order.id);
  await db.query(
    `UPDATE orders SET is_on_hold = false, hold_type = NULL, hold_reason = NULL, rejected_by = $3, rejected_at = now(), rejection_reason = $4
     WHERE entity_id = $1 AND id = $2`,
    [actor.entityId, order.id, actor.userId, reason],
  );
  return finish(db, actor.entityId, order, { order_status: next });
}
