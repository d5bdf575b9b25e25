import { todayUtc } from '../../shared/dates';
import { balanceSheet } from '../../shared/ledger/financial-statements';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { BalanceSheet, BalanceSheetQuery } from '../../shared/ledger/schemas/financial-report';

export const route = defineRoute({
  id: 'reports.balance_sheet',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reports/balance-sheet',
  tag: 'Reports',
  summary: 'Balance sheet as of a date',
  description:
    "Assets, liabilities and equity on as_of_date (default today, UTC), each account on its section's side (assets debits minus credits, liabilities and equity credits minus debits, so a contra account shows negative), with section totals. Equity lists the equity accounts, retained earnings among them, and adds current_year_earnings: the net income of the fiscal year to date, computed from the revenue and expense accounts (equal to the profit and loss's net_income from fiscal_year_start to as_of_date). The profit or loss of every earlier fiscal year sits in retained earnings, whether or not its periods were closed, as QuickBooks and Xero report it; no closing entry is needed. The fiscal year follows the accounting periods (a full fiscal year defined there, else its start month; January without one). assets.total equals total_liabilities_and_equity exactly. compare_to, an earlier date, adds compare_balance and compare_total beside every figure. Scope accounting:read or migration:read.",
  scopes: ['accounting:read', 'migration:read'],
  scopeMatch: 'any',
  params: entityScopedParams,
  query: BalanceSheetQuery,
  response: BalanceSheet,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return balanceSheet(ctx.db, ctx.entityId, query.as_of_date ?? todayUtc(), query.compare_to);
  },
});

export const handler = lambdaHandler(route);
