import { listApprovalRules } from '../../shared/orders/approval-rules';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { APPROVAL_DOCUMENT_TYPES, OrderApprovalRule } from '../../shared/orders/schemas/order-approval';

export const route = defineRoute({
  id: 'orders.approval_rules.list',
  method: 'GET',
  path: '/v1/orders/approval-rules',
  tag: 'Order approvals',
  summary: 'List order approval rules',
  description:
    'Newest first. Filters: document_type (sales_order or purchase_order), account_id, sales_channel_id, vendor_id (rules naming exactly that value), is_active.',
  scopes: ['settings:read'],
  query: listQuery({
    document_type: param.oneOf(APPROVAL_DOCUMENT_TYPES, 'Sales order or purchase order rules.'),
    vendor_id: param.id('Purchase order rules of this vendor.'),
    account_id: param.id('Rules of this customer account.'),
    sales_channel_id: param.id('Rules of this sales channel.'),
    is_active: param.flag('Only active (true) or inactive (false) rules.'),
  }),
  response: listEnvelope(OrderApprovalRule),
  list: true,
  handler: (ctx, { query }) =>
    listApprovalRules(
      ctx.db,
      ctx.entityId,
      {
        document_type: query.document_type,
        vendor_id: query.vendor_id,
        account_id: query.account_id,
        sales_channel_id: query.sales_channel_id,
        is_active: query.is_active,
      },
      query,
    ),
});

export const handler = lambdaHandler(route);
