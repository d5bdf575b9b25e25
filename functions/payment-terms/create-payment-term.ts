import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { createPaymentTerm } from '../../shared/payables/payment-terms';
import { PaymentTerm, PaymentTermCreate } from '../../shared/payables/schemas/payment-term';

export const route = defineRoute({
  id: 'payment_terms.create',
  method: 'POST',
  path: '/v1/payment-terms',
  tag: 'Payment terms',
  summary: 'Create payment terms',
  description:
    'Net-days payment terms (such as Net 30) that vendor bills name in payment_term_id: a bill without a due_date is due on its bill_date plus net_days. Emits payment_term.created.',
  scopes: ['purchasing:write'],
  body: PaymentTermCreate,
  response: PaymentTerm,
  successStatus: 201,
  handler: async (ctx, { body }) => {
    const term = await createPaymentTerm(ctx.db, ctx.entityId, body);
    await ctx.events.record('payment_term.created', term);
    return term;
  },
});

export const handler = lambdaHandler(route, idempotency);
