import { movePeriod } from '../../shared/ledger/accounting-periods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { AccountingPeriod } from '../../shared/ledger/schemas/accounting-period';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'periods.request_close',
  method: 'POST',
  path: '/v1/periods/{id}/request-close',
  tag: 'Accounting periods',
  summary: 'Request the close of a period',
  description:
    'open → close_requested, recording close_requested_by and close_requested_at. From then on the period refuses postings (422 period_closed) so the approver signs off the figures that were reviewed. Any other status is 409 period_invalid_transition with current_status.',
  scopes: ['accounting:write'],
  params: idParams,
  response: AccountingPeriod,
  errors: ['period_invalid_transition'],
  handler: async (ctx, { params }) => {
    const { period } = await movePeriod(ctx.db, ctx, params.id, 'request_close');
    await ctx.events.record('period.close_requested', period);
    return period;
  },
});

export const handler = lambdaHandler(route, idempotency);
