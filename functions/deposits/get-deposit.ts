import { getDeposit } from '../../shared/payments/deposits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Deposit } from '../../shared/payments/schemas/payment';
import { DEPOSIT_EXPAND } from './expand';

export const route = defineRoute({
  id: 'deposits.get',
  method: 'GET',
  path: '/v1/deposits/{id}',
  tag: 'Deposits',
  summary: 'Retrieve a bank deposit',
  description:
    "The deposit with its lines (one per receipt: payment_id and the amount deposited, net of refunds made before the deposit) and payment_ids; expand[]=payments adds the payments. Scope accounting:read, like E3. Another entity's deposit is 404.",
  scopes: ['accounting:read'],
  params: idParams,
  response: Deposit,
  expand: DEPOSIT_EXPAND,
  handler: (ctx, { params }) => getDeposit(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
