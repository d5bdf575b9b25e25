import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { listPaymentTerms } from '../../shared/payables/payment-terms';
import { PaymentTerm } from '../../shared/payables/schemas/payment-term';

export const route = defineRoute({
  id: 'payment_terms.list',
  method: 'GET',
  path: '/v1/payment-terms',
  tag: 'Payment terms',
  summary: 'List payment terms',
  description: 'Newest first, cursor-paginated.',
  scopes: ['purchasing:read'],
  query: listQuery(),
  response: listEnvelope(PaymentTerm),
  list: true,
  handler: (ctx, { query }) => listPaymentTerms(ctx.db, ctx.entityId, query),
});

export const handler = lambdaHandler(route);
