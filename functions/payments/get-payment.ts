import { param, pathParams } from '../../shared/schemas/parameters';
import { getPayment } from '../../shared/payments/payment-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { Payment } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'payments.get',
  method: 'GET',
  path: '/v1/payments/{payment_id}',
  tag: 'Payments',
  summary: 'Retrieve a payment',
  description: 'The payment with its applications. The path parameter is named payment_id, as in E8 (one name per path segment).',
  scopes: ['payments:read'],
  params: pathParams({ payment_id: param.id('The payment id.') }),
  response: Payment,
  handler: (ctx, { params }) => getPayment(ctx.db, ctx.entityId, params.payment_id, 'payment_id'),
});

export const handler = lambdaHandler(route);
