import { createPeriod } from '../../shared/ledger/accounting-periods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { AccountingPeriod, AccountingPeriodCreate } from '../../shared/ledger/schemas/accounting-period';

export const route = defineRoute({
  id: 'periods.create',
  method: 'POST',
  path: '/v1/periods',
  tag: 'Accounting periods',
  summary: 'Create an accounting period',
  description: 'A period of any length, open. Periods of an entity never overlap (409 period_overlap naming the other period).',
  scopes: ['accounting:write'],
  body: AccountingPeriodCreate,
  response: AccountingPeriod,
  successStatus: 201,
  errors: ['period_overlap'],
  handler: async (ctx, { body }) => {
    const period = await createPeriod(ctx.db, ctx.entityId, body);
    await ctx.events.record('period.created', period);
    return period;
  },
});

export const handler = lambdaHandler(route, idempotency);
