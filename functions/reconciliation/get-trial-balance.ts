import { todayUtc } from '../../shared/dates';
import { trialBalance } from '../../shared/ledger/ledger-reports';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { asOfQuery, TrialBalance } from '../../shared/ledger/schemas/ledger-report';

export const route = defineRoute({
  id: 'reconciliation.trial_balance',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reconciliation/trial-balance',
  tag: 'Reports',
  summary: 'Trial balance as of a date',
  description:
    "Every account's balance on as_of_date (default today in UTC) in the debit or credit column; total_debits equals total_credits. Balance sheet accounts carry everything to date; revenue and expense accounts carry the fiscal year's activity (from fiscal_year_start, taken from the accounting periods, else January 1), with earlier years' profit or loss in retained earnings, as QuickBooks reports it. Same scope as the other reconciliation reports.",
  scopes: ['migration:read'],
  params: entityScopedParams,
  query: asOfQuery,
  response: TrialBalance,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return trialBalance(ctx.db, ctx.entityId, query.as_of_date ?? todayUtc());
  },
});

export const handler = lambdaHandler(route);
