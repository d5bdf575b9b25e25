import { deleteApprovalRule, getApprovalRule } from '../../shared/orders/approval-rules';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'orders.approval_rules.delete',
  method: 'DELETE',
  path: '/v1/orders/approval-rules/{id}',
  tag: 'Order approvals',
  summary: 'Delete an order approval rule',
  description:
    'Permanently deletes a rule that has never routed an order. A rule that routed orders stays for their audit trail (409 approval_rule_in_use with references.orders): deactivate it with is_active false instead. Emits order_approval_rule.deleted.',
  scopes: ['settings:write'],
  params: idParams,
  response: deletedObject('order_approval_rule'),
  errors: ['approval_rule_in_use'],
  current: (ctx, { params }) => getApprovalRule(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const rule = await deleteApprovalRule(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('order_approval_rule.deleted', rule);
    return { id: rule.id, object: 'order_approval_rule' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
