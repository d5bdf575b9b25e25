import { listPayments } from '../../shared/payments/payment-store';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { defineRoute } from '../../shared/http/route';
import { Payment, paymentListFilters } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'payments.list',
  method: 'GET',
  path: '/v1/payments',
  tag: 'Payments',
  summary: 'List payments',
  description: 'Newest first. Filters: account_id, status (pending, undeposited, deposited, voided, failed).',
  scopes: ['payments:read'],
  query: listQuery(paymentListFilters),
  response: listEnvelope(Payment),
  list: true,
  handler: (ctx, { query }) => listPayments(ctx.db, ctx.entityId, { account_id: query.account_id, status: query.status }, query),
});

export const handler = lambdaHandler(route);
