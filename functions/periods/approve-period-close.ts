import { movePeriod } from '../../shared/ledger/accounting-periods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { AccountingPeriod } from '../../shared/ledger/schemas/accounting-period';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'periods.approve_close',
  method: 'POST',
  path: '/v1/periods/{id}/approve-close',
  tag: 'Accounting periods',
  summary: 'Approve the close of a period',
  description:
    "close_requested → closed, recording close_approved_by/at and closed_by/at. The key's user needs the accounting.close_periods permission (403 insufficient_permissions) and must not be the user who requested the close (403 segregation_of_duties). Postings in flight finish first; none lands in the period afterwards.",
  scopes: ['accounting:write'],
  params: idParams,
  response: AccountingPeriod,
  errors: ['period_invalid_transition', 'insufficient_permissions', 'segregation_of_duties'],
  handler: async (ctx, { params }) => {
    const { period } = await movePeriod(ctx.db, ctx, params.id, 'approve_close');
    await ctx.events.record('period.closed', period);
    return period;
  },
});

export const handler = lambdaHandler(route, idempotency);
