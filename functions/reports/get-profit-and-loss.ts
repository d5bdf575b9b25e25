import { todayUtc } from '../../shared/dates';
import { profitAndLoss } from '../../shared/ledger/financial-statements';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { ProfitAndLoss, ProfitAndLossQuery } from '../../shared/ledger/schemas/financial-report';

export const route = defineRoute({
  id: 'reports.profit_and_loss',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reports/profit-and-loss',
  tag: 'Reports',
  summary: 'Profit and loss over a date range',
  description:
    'Income and expenses posted from start_date (default: the start of the fiscal year containing end_date) to end_date (default today, UTC), inclusive. Sections by account subtype: income (revenue accounts of subtype income), cost_of_goods_sold (expense accounts of subtype cost_of_goods_sold), expenses (subtype expense) and other (subtypes other_income and other_expense). Income and other show credits minus debits (other expenses are negative there, so other.total is net other income); cost of goods sold and expenses show debits minus credits. gross_profit = income − cost of goods sold; net_income = gross_profit − expenses + other. columns=month or quarter (fiscal quarters: three months from the fiscal year start) splits the range into columns cut at its ends, and the whole range is their sum; compare=previous_period or previous_year adds one column for the earlier range. Every line carries one amount per column. Accounts with no activity in the range or any column are left out. Scope accounting:read or migration:read.',
  scopes: ['accounting:read', 'migration:read'],
  scopeMatch: 'any',
  params: entityScopedParams,
  query: ProfitAndLossQuery,
  response: ProfitAndLoss,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return profitAndLoss(ctx.db, ctx.entityId, { ...query, end_date: query.end_date ?? todayUtc() });
  },
});

export const handler = lambdaHandler(route);
