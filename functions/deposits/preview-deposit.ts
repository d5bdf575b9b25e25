import { previewDeposit } from '../../shared/payments/deposits';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { DepositPreview, DepositPreviewRequest } from '../../shared/payments/schemas/payment';

export const route = defineRoute({
  id: 'deposits.preview',
  method: 'POST',
  path: '/v1/deposits/preview',
  tag: 'Deposits',
  summary: 'Preview a bank deposit',
  description:
    "E3. What POST /v1/deposits would total for these payments: {total_amount, line_count}. Nothing is persisted. The checks are E4's: each id must be a payment of the entity (404 naming payment_ids[i]) not yet deposited (409 payment_already_deposited); an id listed twice is 400.",
  scopes: ['accounting:read'],
  body: DepositPreviewRequest,
  response: DepositPreview,
  errors: ['payment_already_deposited'],
  handler: (ctx, { body }) => previewDeposit(ctx.db, ctx.entityId, body.payment_ids),
});

export const handler = lambdaHandler(route, idempotency);
