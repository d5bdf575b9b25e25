import { getPaymentMethod } from '../../shared/payments/payment-methods';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { AccountPaymentMethod, paymentMethodParams } from '../../shared/payments/schemas/payment-method';

export const route = defineRoute({
  id: 'accounts.payment_methods.get',
  method: 'GET',
  path: '/v1/accounts/{id}/payment-methods/{payment_method_id}',
  tag: 'Account payment methods',
  summary: 'Retrieve an account payment method',
  description: 'Removed methods (is_active false) are returned too. Either accounts:read or payments:read suffices, as for the list (E19).',
  scopes: ['accounts:read', 'payments:read'],
  scopeMatch: 'any',
  params: paymentMethodParams,
  response: AccountPaymentMethod,
  handler: (ctx, { params }) => getPaymentMethod(ctx.db, ctx.entityId, params.id, params.payment_method_id),
});

export const handler = lambdaHandler(route);
