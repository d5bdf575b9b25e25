import { createFiscalYear } from '../../shared/ledger/accounting-periods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { FiscalYearCreate, periodList } from '../../shared/ledger/schemas/accounting-period';

export const route = defineRoute({
  id: 'periods.create_fiscal_year',
  method: 'POST',
  path: '/v1/periods/fiscal-years',
  tag: 'Accounting periods',
  summary: "Create a fiscal year's periods",
  description:
    'Creates the twelve monthly periods of a fiscal year, all open, all or nothing (409 period_overlap when any month overlaps an existing period). A fiscal year is named by the calendar year it ends in: fiscal_year 2026 with start_month 4 runs from April 2025 to March 2026.',
  scopes: ['accounting:write'],
  body: FiscalYearCreate,
  response: periodList,
  successStatus: 201,
  errors: ['period_overlap'],
  handler: async (ctx, { body }) => {
    const periods = await createFiscalYear(ctx.db, ctx.entityId, body);
    for (const period of periods) await ctx.events.record('period.created', period);
    return { data: periods };
  },
});

export const handler = lambdaHandler(route, idempotency);
