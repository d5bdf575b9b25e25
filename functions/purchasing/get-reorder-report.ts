import { reorderReport } from '../../shared/inventory/reorder-report';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { ReorderReport, ReorderReportQuery } from '../../shared/inventory/schemas/reorder-report';

export const route = defineRoute({
  id: 'purchasing.reorder_report.get',
  method: 'GET',
  path: '/v1/purchasing/reorder-report',
  tag: 'Purchasing',
  summary: 'Reorder report',
  description:
    "Active stocked products that need buying, ordered by SKU. daily_demand = demand units over demand_window days by demand_basis (2026-09-22 semantics: fulfilled sales plus posted build_consume draws, each physical decrement once). target_level = reorder_point + daily_demand x the preferred vendor's lead_time_days; suggested_qty = target_level - (on_hand - committed + on_order); net_suggested_qty raises it to the vendor's minimum order and rounds it up to the preferred vendor's order_multiple. committed is the unshipped quantity of open (confirmed, partially fulfilled, on-hold) sales order lines, kit component lines rather than kit lines; on_order the unreceived quantity of open purchase order lines, both as on inventory balances. suggested_reorder_point = daily_demand x lead_time_days is advice only: the product's stored reorder_point drives target_level and the stock events. Pages by product_id cursor.",
  scopes: ['purchasing:read'],
  query: ReorderReportQuery,
  response: ReorderReport,
  handler: (ctx, { query }) => reorderReport(ctx.db, ctx.entityId, query, openOrderQuantitiesSql),
});

export const handler = lambdaHandler(route);
