import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { getPaymentTerm } from '../../shared/payables/payment-terms';
import { PaymentTerm } from '../../shared/payables/schemas/payment-term';

export const route = defineRoute({
  id: 'payment_terms.get',
  method: 'GET',
  path: '/v1/payment-terms/{id}',
  tag: 'Payment terms',
  summary: 'Retrieve payment terms',
  scopes: ['purchasing:read'],
  params: idParams,
  response: PaymentTerm,
  handler: (ctx, { params }) => getPaymentTerm(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
