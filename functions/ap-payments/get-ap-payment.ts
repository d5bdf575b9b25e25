import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { getApPayment } from '../../shared/payables/ap-payments';
import { ApPayment } from '../../shared/payables/schemas/ap-payment';

export const route = defineRoute({
  id: 'ap_payments.get',
  method: 'GET',
  path: '/v1/ap-payments/{id}',
  tag: 'AP payments',
  summary: 'Retrieve an AP payment',
  description: 'The payment with its applications: per bill, the vendor credit amounts and the cash.',
  scopes: ['purchasing:read'],
  params: idParams,
  response: ApPayment,
  handler: (ctx, { params }) => getApPayment(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
