import { param, queryParams } from '../../shared/schemas/parameters';
import { listPeriods } from '../../shared/ledger/accounting-periods';
import { PERIOD_STATUSES } from '../../shared/ledger/period-status';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { periodList } from '../../shared/ledger/schemas/accounting-period';

export const route = defineRoute({
  id: 'periods.list',
  method: 'GET',
  path: '/v1/periods',
  tag: 'Accounting periods',
  summary: 'List accounting periods (E26)',
  description: 'Every matching period in date order (an entity has a dozen a year, so the list is not paged).',
  scopes: ['accounting:read'],
  query: queryParams({
    status: param.oneOf(PERIOD_STATUSES),
    fiscal_year: param.int({ min: 1900, max: 9999 }, 'Only the periods of this fiscal year.'),
  }),
  response: periodList,
  handler: async (ctx, { query }) => ({ data: await listPeriods(ctx.db, ctx.entityId, query) }),
});

export const handler = lambdaHandler(route);
