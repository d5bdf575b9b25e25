import { getApprovalRule } from '../../shared/orders/approval-rules';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { OrderApprovalRule } from '../../shared/orders/schemas/order-approval';

export const route = defineRoute({
  id: 'orders.approval_rules.get',
  method: 'GET',
  path: '/v1/orders/approval-rules/{id}',
  tag: 'Order approvals',
  summary: 'Retrieve an order approval rule',
  scopes: ['settings:read'],
  params: idParams,
  response: OrderApprovalRule,
  handler: (ctx, { params }) => getApprovalRule(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
