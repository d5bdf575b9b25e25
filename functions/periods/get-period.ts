import { getPeriod } from '../../shared/ledger/accounting-periods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { AccountingPeriod } from '../../shared/ledger/schemas/accounting-period';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'periods.get',
  method: 'GET',
  path: '/v1/periods/{id}',
  tag: 'Accounting periods',
  summary: 'Retrieve an accounting period',
  scopes: ['accounting:read'],
  params: idParams,
  response: AccountingPeriod,
  handler: (ctx, { params }) => getPeriod(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
