import { createApprovalRule } from '../../shared/orders/approval-rules';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { OrderApprovalRule, OrderApprovalRuleCreate } from '../../shared/orders/schemas/order-approval';

export const route = defineRoute({
  id: 'orders.approval_rules.create',
  method: 'POST',
  path: '/v1/orders/approval-rules',
  tag: 'Order approvals',
  summary: 'Create an order approval rule',
  description:
    'E9. A per-customer (account_id), per-channel (sales_channel_id) or both (that customer in that channel) order approval routing rule; at least one of the two (400 parameter_missing on account_id otherwise). account_id must be a customer account of the entity and approver_user_id a user of the entity (404 on the field; a deactivated user is 422 approver_user_inactive). threshold_amount: 2 decimals, at least 0. A sales order confirmed with order_total strictly over the threshold of an active matching rule is held for approval (see POST /v1/orders/{id}/confirm). document_type purchase_order makes a purchase order rule: it names vendor_id (a vendor of the entity, 404 otherwise) or nothing (every purchase order), never account_id or sales_channel_id (400 parameter_invalid); vendor_id on a sales order rule is 400 too. A purchase order submitted or confirmed over its threshold is held for approval, and sending it unapproved is 409 po_approval_required (see POST /v1/orders/{id}/submit). Emits order_approval_rule.created.',
  scopes: ['settings:write'],
  body: OrderApprovalRuleCreate,
  response: OrderApprovalRule,
  successStatus: 201,
  errors: ['approver_user_inactive'],
  handler: async (ctx, { body }) => {
    const rule = await createApprovalRule(ctx.db, ctx, body);
    await ctx.events.record('order_approval_rule.created', rule);
    return rule;
  },
});

export const handler = lambdaHandler(route, idempotency);
