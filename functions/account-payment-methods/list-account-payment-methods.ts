import { listPaymentMethods } from '../../shared/payments/payment-methods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope } from '../../shared/schemas/list';
import { defineRoute } from '../../shared/http/route';
import { AccountPaymentMethod, PaymentMethodListQuery } from '../../shared/payments/schemas/payment-method';

export const route = defineRoute({
  id: 'account_payment_methods.list',
  method: 'GET',
  path: '/v1/account-payment-methods',
  tag: 'Account payment methods',
  summary: 'List payment methods of all accounts',
  description:
    'E19. Payment methods of every account of the entity, newest first (created_at then id, descending). Filters: account_id, type (card, ach), is_default, is_active (omit for both active and removed methods). limit 1 to 500, default 25; starting_after / ending_before take a payment method id. Either accounts:read or payments:read suffices.',
  scopes: ['accounts:read', 'payments:read'],
  scopeMatch: 'any',
  query: PaymentMethodListQuery,
  response: listEnvelope(AccountPaymentMethod),
  list: true,
  handler: (ctx, { query }) =>
    listPaymentMethods(
      ctx.db,
      ctx.entityId,
      { account_id: query.account_id, type: query.type, is_default: query.is_default, is_active: query.is_active },
      query,
    ),
});

export const handler = lambdaHandler(route);
