import { movePeriod } from '../../shared/ledger/accounting-periods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { AccountingPeriod, PeriodReopen } from '../../shared/ledger/schemas/accounting-period';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'periods.reopen',
  method: 'POST',
  path: '/v1/periods/{id}/reopen',
  tag: 'Accounting periods',
  summary: 'Reopen a period',
  description:
    "closed or close_requested → open (the latter rejects a close request), recording reopened_by, reopened_at and the required reason. The key's user needs the accounting.close_periods permission (403 insufficient_permissions). An open period is 409 period_invalid_transition.",
  scopes: ['accounting:write'],
  params: idParams,
  body: PeriodReopen,
  response: AccountingPeriod,
  errors: ['period_invalid_transition', 'insufficient_permissions'],
  handler: async (ctx, { params, body }) => {
    const { period, previous } = await movePeriod(ctx.db, ctx, params.id, 'reopen', body.reason);
    await ctx.events.record('period.reopened', period, { status: previous.status });
    return period;
  },
});

export const handler = lambdaHandler(route, idempotency);
