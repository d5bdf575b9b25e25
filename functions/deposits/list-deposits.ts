import { listDeposits } from '../../shared/payments/deposits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { Deposit } from '../../shared/payments/schemas/payment';
import { DEPOSIT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'deposits.list',
  method: 'GET',
  path: '/v1/deposits',
  tag: 'Deposits',
  summary: 'List bank deposits',
  description:
    'Newest first, keyset-paginated. Filters: bank_account_id (the bank_account_id of the bank GL account), deposit_date_gte and deposit_date_lte (inclusive dates). Each deposit carries its lines; expand[]=data.payments adds the payments. Scope accounting:read, like E3.',
  scopes: ['accounting:read'],
  query: listQuery({
    bank_account_id: param.id('Only deposits to this bank account.'),
    deposit_date_gte: param.date('Only deposits dated on or after this date.'),
    deposit_date_lte: param.date('Only deposits dated on or before this date.'),
  }),
  response: listEnvelope(Deposit),
  list: true,
  expand: DEPOSIT_EXPAND,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listDeposits(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
