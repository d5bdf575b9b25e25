import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';
import { deletePaymentTerm, getPaymentTerm } from '../../shared/payables/payment-terms';

export const route = defineRoute({
  id: 'payment_terms.delete',
  method: 'DELETE',
  path: '/v1/payment-terms/{id}',
  tag: 'Payment terms',
  summary: 'Delete payment terms',
  description:
    'Permanently deletes payment terms no vendor bill names. Terms a bill names (in any status, voided included: the bill keeps its record) are 409 payment_term_in_use, with references.vendor_bills counting the bills. Emits payment_term.deleted.',
  scopes: ['purchasing:write'],
  params: idParams,
  response: deletedObject('payment_term'),
  errors: ['payment_term_in_use'],
  current: (ctx, { params }) => getPaymentTerm(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const term = await deletePaymentTerm(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('payment_term.deleted', term);
    return { id: term.id, object: 'payment_term' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
