import { todayUtc } from '../../shared/dates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { apAging } from '../../shared/payables/ap-aging';
import { ApAging, ApAgingQuery } from '../../shared/payables/schemas/ap-aging';

export const route = defineRoute({
  id: 'reconciliation.ap_aging',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reconciliation/ap-aging',
  tag: 'Reports',
  summary: 'AP aging per vendor (E23)',
  description:
    "Open vendor bill balances per vendor in buckets by days past due_date (current: not yet due; days_1_30, days_31_60, days_61_90, days_over_90), with a totals object of the same members. as_of_date (default today, UTC) gives a historical snapshot rebuilt from the bill and AP payment history: bills posted (bill_date) on or before it and not voided by then, less the AP payment applications dated on or before it and not voided by then — not today's balances. The grand total equals the accounts payable control balance on that date, returned as accounts_payable_balance. Vendors with nothing open are left out.",
  scopes: ['migration:read'],
  params: entityScopedParams,
  query: ApAgingQuery,
  response: ApAging,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return apAging(ctx.db, ctx.entityId, query.as_of_date ?? todayUtc());
  },
});

export const handler = lambdaHandler(route);
