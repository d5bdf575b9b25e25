import { todayUtc } from '../../shared/dates';
import { accountActivity } from '../../shared/ledger/account-activity';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { AccountActivity, AccountActivityQuery } from '../../shared/ledger/schemas/financial-report';

export const route = defineRoute({
  id: 'reports.account_activity',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reports/account-activity',
  tag: 'Reports',
  summary: "One GL account's activity over a date range",
  description:
    "The journal lines of account_id dated from start_date (default: the start of the fiscal year containing end_date) to end_date (default today, UTC), by date and then in posting order, each with its entry, memo (the line's, else the entry's), the source document that posted it, and the running balance. Balances are on the account's normal side (debit for assets and expenses, credit for liabilities, equity and revenue): closing_balance = opening_balance + total_debits − total_credits, or + credits − debits on a credit-normal account. Balance sheet accounts open with everything posted before start_date; revenue and expense accounts open with their activity since the start of start_date's fiscal year; the retained earnings account also opens with the profit or loss of earlier fiscal years. Within one fiscal year closing_balance is the account's trial balance figure on end_date. Lines are paged by cursor, as lists are: limit, and starting_after (the lines after a line id: next_cursor of the previous page) or ending_before (the lines before it, paging backwards; has_more and next_cursor then look backwards), not both; running balances are the same whichever way a line is reached, and the totals and balances cover the whole range on every page. Another entity's account is a 404 on account_id. Scope accounting:read or migration:read.",
  scopes: ['accounting:read', 'migration:read'],
  scopeMatch: 'any',
  params: entityScopedParams,
  query: AccountActivityQuery,
  response: AccountActivity,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return accountActivity(ctx.db, ctx.entityId, { ...query, end_date: query.end_date ?? todayUtc() });
  },
});

export const handler = lambdaHandler(route);
