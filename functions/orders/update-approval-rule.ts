import { getApprovalRule, updateApprovalRule } from '../../shared/orders/approval-rules';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { OrderApprovalRule, OrderApprovalRuleUpdate } from '../../shared/orders/schemas/order-approval';

export const route = defineRoute({
  id: 'orders.approval_rules.update',
  method: 'PATCH',
  path: '/v1/orders/approval-rules/{id}',
  tag: 'Order approvals',
  summary: 'Update an order approval rule',
  description:
    'Send only the fields to change; is_active false deactivates the rule (it routes nothing). A sales order rule must keep account_id, sales_channel_id or both (400 parameter_invalid on the field being cleared); a purchase order rule takes vendor_id only (null: every purchase order). document_type does not change. Changes apply to orders confirmed afterwards: an order already held keeps the approver it was routed to. Emits order_approval_rule.updated.',
  scopes: ['settings:write'],
  params: idParams,
  body: OrderApprovalRuleUpdate,
  response: OrderApprovalRule,
  errors: ['approver_user_inactive'],
  current: (ctx, { params }) => getApprovalRule(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { rule, previous } = await updateApprovalRule(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('order_approval_rule.updated', rule, previous);
    return rule;
  },
});

export const handler = lambdaHandler(route, idempotency);
