/**
 * Approval routing of sales and purchase orders (E9). Confirming a sales order whose order_total is
 * over the threshold of an active rule matching its customer or channel holds it (on_hold,
 * hold_type 'approval', the rule and its approver recorded) instead of confirming it; approve moves
 * it to confirmed, reject back to draft with the reason. Purchase orders follow the same moves with
 * purchase order rules (by vendor, or every purchase order): confirming or submitting one over a
 * threshold holds it, its lines are locked while it waits (po_pending_approval_edit_locked), and
 * sending one that needs approval and lacks it is 409 po_approval_required. An approval covers the
 * order_total it saw (approved_total): a purchase order that grew past it needs approval again.
 * Only the order's approver or a user with the orders.approve permission decides.
 */
import type { Db } from '../db/database';
import { routingRule, type ApprovalRuleLike } from './approval-routing';
import { APPROVAL_HOLD } from './lifecycle-rules';
import { ApiError } from '../errors';
import { begin, finish, invalidTransition, type LifecycleResult } from './order-lifecycle';
import { amount, toJsonNumber } from '../money';
import type { OrderState } from './order-state';
import { userState } from '../tenants/tenant-reads';

const APPROVE_PERMISSION = 'orders.approve';

type RoutingRule = ApprovalRuleLike & { approver_user_id: string };

/** The active purchase order rule that routes this purchase order at its order_total, or null. */
async function purchaseRuleFor(db: Db, entityId: string, order: OrderState): Promise<RoutingRule | null> {
  const { vendor_id: vendorId } = await db.one<{ vendor_id: string | null }>('SELECT vendor_id FROM orders WHERE entity_id = $1 AND id = $2', [
    entityId,
    order.id,
  ]);
  const rules = await db.query<RoutingRule>(
    `SELECT id, document_type, account_id, sales_channel_id, vendor_id, threshold_amount, approver_user_id, is_active FROM order_approval_rules
     WHERE entity_id = $1 AND is_active AND document_type = 'purchase_order' AND (vendor_id IS NULL OR vendor_id = $2) ORDER BY created_at, id`,
    [entityId, vendorId],
  );
  return routingRule({ document_type: 'purchase_order', vendor_id: vendorId, account_id: null, sales_channel_id: null, order_total: order.order_total }, rules);
}

/** The active rule that routes this order, or null (sales and purchase orders are routed). */
export async function approvalRuleFor(db: Db, entityId: string, order: OrderState): Promise<RoutingRule | null> {
  if (order.document_type === 'purchase_order') return purchaseRuleFor(db, entityId, order);
  if (order.document_type !== 'sales_order') return null;
  const header = await db.one<{ customer_account_id: string | null; sales_channel_id: string | null }>(
    'SELECT customer_account_id, sales_channel_id FROM orders WHERE entity_id = $1 AND id = $2',
    [entityId, order.id],
  );
  const rules = await db.query<ApprovalRuleLike & { approver_user_id: string }>(
    `SELECT id, account_id, sales_channel_id, threshold_amount, approver_user_id, is_active FROM order_approval_rules
     WHERE entity_id = $1 AND is_active AND document_type = 'sales_order' AND (account_id = $2 OR sales_channel_id = $3) ORDER BY created_at, id`,
    [entityId, header.customer_account_id, header.sales_channel_id],
  );
  return routingRule({ account_id: header.customer_account_id, sales_channel_id: header.sales_channel_id, order_total: order.order_total }, rules);
}

/** Holds an order for approval by `rule` (called by confirm, or submit, instead of confirming it). */
export async function holdForApproval(db: Db, entityId: string, order: OrderState, rule: { id: string; approver_user_id: string }): Promise<LifecycleResult> {
  await db.query(
    `UPDATE orders SET is_on_hold = true, hold_type = $3, hold_reason = NULL, approval_rule_id = $4, approver_user_id = $5, approval_requested_at = now(),
       approved_by = NULL, approved_at = NULL, approved_total = NULL
     WHERE entity_id = $1 AND id = $2`,
    [entityId, order.id, APPROVAL_HOLD, rule.id, rule.approver_user_id],
  );
  return finish(db, entityId, order, { order_status: 'on_hold' });
}

/** The key's user must be the order's approver or hold orders.approve (403 insufficient_permissions). */
async function checkDecider(db: Db, actor: { entityId: string; userId: string }, orderId: string): Promise<void> {
  const row = await db.one<{ approver_user_id: string | null }>('SELECT o.approver_user_id FROM orders o WHERE o.entity_id = $1 AND o.id = $2', [
    actor.entityId,
    orderId,
  ]);
  if (row.approver_user_id === actor.userId) return;
  const user = await userState(db, actor.entityId, actor.userId);
  if (user?.permissions.includes(APPROVE_PERMISSION)) return;
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
    `UPDATE orders SET is_on_hold = false, hold_type = NULL, hold_reason = NULL, approved_by = $3, approved_at = now(), approved_total = order_total
     WHERE entity_id = $1 AND id = $2`,
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

/**
 * Whether a purchase order needs an approval it lacks: an active purchase order rule routes its
 * order_total and no approval covers that total (never approved, or approved at a lower total).
 */
async function purchaseApprovalNeeded(db: Db, entityId: string, order: OrderState): Promise<RoutingRule | null> {
  const rule = await purchaseRuleFor(db, entityId, order);
  if (!rule) return null;
  const { approved_total: approvedTotal } = await db.one<{ approved_total: string | null }>(
    'SELECT approved_total FROM orders WHERE entity_id = $1 AND id = $2',
    [entityId, order.id],
  );
  return approvedTotal !== null && amount(order.order_total).lte(approvedTotal) ? null : rule;
}

/** 409 po_approval_required unless the purchase order has the approval its total needs (checked by send). */
export async function requirePurchaseApproval(db: Db, entityId: string, order: OrderState): Promise<void> {
  const rule = await purchaseApprovalNeeded(db, entityId, order);
  if (!rule) return;
  throw new ApiError('po_approval_required', {
    param: 'id',
    hint: `order_total ${toJsonNumber(order.order_total)} is over the approval threshold ${toJsonNumber(rule.threshold_amount)}: submit it (POST /v1/orders/{id}/submit) and have it approved first.`,
    details: {
      current_status: order.order_status,
      order_total: toJsonNumber(order.order_total),
      approval_rule_id: rule.id,
      threshold_amount: toJsonNumber(rule.threshold_amount),
    },
  });
}

/**
 * Submits a purchase order for approval: a draft, or a confirmed one whose total grew past its
 * approval, goes on hold for the rule's approver. One that no active rule routes, or that its
 * approval still covers, needs no approval: 409 order_invalid_transition (reason
 * approval_not_required), to be sent or confirmed directly.
 */
export async function submitPurchaseOrder(db: Db, entityId: string, orderId: string): Promise<LifecycleResult> {
  const { order } = await begin(db, entityId, orderId, 'submit');
  const rule = await purchaseApprovalNeeded(db, entityId, order);
  if (!rule) {
    throw invalidTransition(
      order,
      'submit',
      'approval_not_required',
      'No active purchase order approval rule routes this purchase order at its order_total (or its approval covers it): send or confirm it directly.',
    );
  }
  return holdForApproval(db, entityId, order, rule);
}
