import { todayUtc } from '../../shared/dates';
import { cashBalance } from '../../shared/ledger/ledger-reports';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { asOfQuery, CashBalance } from '../../shared/ledger/schemas/ledger-report';

export const route = defineRoute({
  id: 'reconciliation.cash_balance',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reconciliation/cash-balance',
  tag: 'Reports',
  summary: 'Cash balance per bank account (E20)',
  description:
    'The GL-derived balance of each bank account (debits minus credits posted on or before as_of_date, default today in UTC), and their total. Inactive bank accounts appear while they hold a balance.',
  scopes: ['migration:read'],
  params: entityScopedParams,
  query: asOfQuery,
  response: CashBalance,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return cashBalance(ctx.db, ctx.entityId, query.as_of_date ?? todayUtc());
  },
});

export const handler = lambdaHandler(route);
