import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { getPaymentTerm, updatePaymentTerm } from '../../shared/payables/payment-terms';
import { PaymentTerm, PaymentTermUpdate } from '../../shared/payables/schemas/payment-term';

export const route = defineRoute({
  id: 'payment_terms.update',
  method: 'PATCH',
  path: '/v1/payment-terms/{id}',
  tag: 'Payment terms',
  summary: 'Update payment terms',
  description:
    'Send only the fields to change. A new net_days applies to due dates computed from now on (a bill created, or given a new bill_date or payment_term_id); existing bills keep their due_date. Emits payment_term.updated.',
  scopes: ['purchasing:write'],
  params: idParams,
  body: PaymentTermUpdate,
  response: PaymentTerm,
  current: (ctx, { params }) => getPaymentTerm(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { term, previous } = await updatePaymentTerm(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('payment_term.updated', term, previous);
    return term;
  },
});

export const handler = lambdaHandler(route, idempotency);
